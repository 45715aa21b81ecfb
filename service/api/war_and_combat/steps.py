"""POST /v1/war-and-combat/rounds/resolve: one whole round, stateless (rules document §12.8)."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.events import event_field
from service.api.kit.schemas import Strict
from service.api.kit.steps import RoundRequestBase, RoundResponseBase, resolve_round
from service.api.war_and_combat.state import (
    EXAMPLE_FIGHTER,
    EXAMPLE_FOE,
    DeclarationSchema,
    StateSchema,
)

blp = Blueprint("war-and-combat-rounds", __name__, description="War & Combat: resolve one round statelessly.")

EXAMPLE = {"state": {"ruleset": "war-and-combat", "round": 0, "options": {},
                     "combatants": [EXAMPLE_FIGHTER, EXAMPLE_FOE]},
           "declarations": [{"combatant": "sigrid", "action": "engage", "target": "ulf"},
                            {"combatant": "ulf", "action": "engage", "target": "sigrid", "tactic": "press"}],
           "seed": 5, "rolls": [{"combatant": "sigrid", "role": "initiative", "faces": [6, 5, 4]}]}


class RoundRequestSchema(RoundRequestBase):
    """The whole state, the declarations, a seed and caller-supplied dice."""

    state = fields.Nested(StateSchema, required=True, metadata={"description": "The encounter state (§3)."})
    declarations = fields.List(fields.Nested(DeclarationSchema), load_default=list,
                               validate=validate.Length(max=200),
                               metadata={"description": "One per fighter at most; a fighter without one holds."})


class InitiativeSchema(Strict):
    """One fighter's initiative roll."""

    combatant = fields.String(required=True, metadata={"description": "Who rolled."})
    dice = fields.List(fields.Integer(), required=True, metadata={"description": "The 3d6 faces."})
    total = fields.Integer(required=True, metadata={"description": "3d6 + fighter rank."})


class FlurryAttackSchema(Strict):
    """One attack of a flurry."""

    attacker = fields.String(required=True, metadata={"description": "Who struck."})
    defender = fields.String(required=True, metadata={"description": "Who was struck at."})
    total = fields.Integer(required=True, metadata={"description": "The attack total."})
    tl = fields.Integer(required=True, metadata={"description": "Defense it was rolled against."})
    outcome = fields.String(required=True, metadata={"description": "miss, glance, hit or critical."})
    location = fields.String(required=True, allow_none=True, metadata={"description": "Location struck."})
    severity = fields.String(required=True, allow_none=True, metadata={"description": "Wound severity."})
    effective_impact = fields.Integer(required=True, allow_none=True, metadata={"description": "Effective impact."})
    penetrating = fields.Boolean(required=True, allow_none=True, metadata={"description": "Penetrated."})


class FlurrySchema(Strict):
    """One flurry of an engagement group."""

    combatants = fields.List(fields.String(), required=True, metadata={"description": "In flurry-initiative order."})
    actions = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                          metadata={"description": "Actions of each at the start."})
    attacks = fields.List(fields.Nested(FlurryAttackSchema), required=True, metadata={"description": "In order."})


class RoundResponseSchema(RoundResponseBase):
    """The round just resolved: initiative, flurries, events and the state after it."""

    events = event_field("war_and_combat", required=True)
    order = fields.List(fields.String(), required=True, metadata={"description": "This round's initiative order."})
    initiative = fields.List(fields.Nested(InitiativeSchema), required=True,
                             metadata={"description": "Every initiative roll, in order."})
    flurries = fields.List(fields.Nested(FlurrySchema), required=True, metadata={"description": "Every flurry."})
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state after the round."})


RoundRequestSchema.EXAMPLE = EXAMPLE


@kit.calculator(blp, "/rounds/resolve", "warAndCombatResolveRound", (RoundRequestSchema, RoundResponseSchema),
                signed=False)
def post_round(body: dict) -> dict:
    """Resolve one whole round of the state in the body — initiative, the movement phase, a flurry per
    engagement group, the adjustment phase — nothing stored; the same seed, state and declarations give the
    same answer (*Combat Sequence*, *Flurry Procedure*)."""
    return resolve_round("war-and-combat", body)
