"""POST /v1/ars-magica/rounds/resolve: one whole round (COMBAT SEQUENCE), stateless."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.state import (
    EXAMPLE_COMBATANT,
    EXAMPLE_DECLARATION,
    EXAMPLE_FOE,
    DeclarationSchema,
    EncounterStateSchema,
)
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.events import event_field
from service.api.kit.steps import RoundRequestBase, RoundResponseBase, resolve_round

blp = Blueprint("ars-magica-rounds", __name__, description="Ars Magica: resolve one round statelessly (seed 002, "
                "COMBAT SEQUENCE).")


class RoundRequestSchema(RoundRequestBase):
    """The state, the round's declarations, and dice (`rolls` roles: initiative, attack, defence, damage, soak,
    botch, botch_index, missile, fatigue, cast; d10 faces 0..9)."""

    state = fields.Nested(EncounterStateSchema, required=True,
                          metadata={"description": "The state before the round.",
                                    "example": {"round": 0, "options": {}, "combatants": [EXAMPLE_COMBATANT,
                                                                                          EXAMPLE_FOE]}})
    declarations = fields.List(fields.Nested(DeclarationSchema), load_default=list, validate=validate.Length(max=400),
                               metadata={"description": "What each combatant does.",
                                         "example": [EXAMPLE_DECLARATION]})


class InitiativeSchema(Schema):
    """One initiative roll: Initiative total + stress die."""

    combatant = fields.String(required=True, metadata={"description": "Who rolled."})
    total = fields.Integer(required=True, metadata={"description": "Initiative total."})
    roll = fields.Integer(required=True, metadata={"description": "The stress die."})
    value = fields.Integer(required=True, metadata={"description": "total + roll."})


class MissilePhasesSchema(Schema):
    """Who fired in each missile phase."""

    first = fields.List(fields.String(), required=True, metadata={"description": "First missile phase, in order."})
    second = fields.List(fields.String(), required=True, metadata={"description": "Second missile phase, in order."})


class RoundResolvedSchema(RoundResponseBase):
    """Events of the round, its initiative rolls, melee and missile order, and the state after it."""

    events = event_field("ars_magica", required=True)
    initiative = fields.List(fields.Nested(InitiativeSchema), required=True,
                             metadata={"description": "Melee initiative rolls, in contest order."})
    melee_order = fields.List(fields.String(), required=True, metadata={"description": "Order of melee attacks."})
    missile_phases = fields.Nested(MissilePhasesSchema, required=True,
                                   metadata={"description": "Who fired in the first and second missile phases."})
    state = fields.Nested(EncounterStateSchema, required=True, metadata={"description": "The state after the round."})


EXAMPLE_REQUEST = {"state": {"ruleset": "ars-magica", "round": 0, "options": {},
                             "combatants": [dict(EXAMPLE_COMBATANT, engaged_with=["saxon"]),
                                            dict(EXAMPLE_FOE, engaged_with=["irishman"])]},
                   "declarations": [EXAMPLE_DECLARATION,
                                    {"combatant": "saxon", "action": "attack", "target": "irishman"}],
                   "seed": 4}

EXAMPLE_ANSWER = {"round": 1, "seed": 4, "initiative": [{"combatant": "irishman", "total": 9, "roll": 6, "value": 15},
                                                       {"combatant": "saxon", "total": 5, "roll": 3, "value": 8}],
                  "melee_order": ["irishman"], "missile_phases": {"first": [], "second": []},
                  "events": [{"seq": 1, "type": "declared", "round": 1, "combatant": "irishman", "action": "attack",
                              "target": "saxon"}],
                  "state": {"ruleset": "ars-magica", "round": 1, "options": {}, "combatants": [EXAMPLE_COMBATANT]}}


RoundRequestSchema.EXAMPLE, RoundResolvedSchema.EXAMPLE = EXAMPLE_REQUEST, EXAMPLE_ANSWER


@kit.calculator(blp, "/rounds/resolve", "arsMagicaResolveRound", (RoundRequestSchema, RoundResolvedSchema),
                signed=False)
def resolve(body: dict) -> dict:
    """Resolve one round of the state sent: declarations, movement, missiles, melee, magic, fatigue."""
    return resolve_round("ars-magica", body)
