"""POST /v1/smoting/rounds/resolve: one whole round - the countdown - stateless (smoting.md 12.8)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.events import event_field
from service.api.kit.schemas import JsonBoolean, JsonInteger
from service.api.kit.steps import RoundRequestBase, RoundResponseBase, resolve_round
from service.api.smoting.state import DeclarationSchema, StateSchema

blp = Blueprint("smoting-rounds", __name__, description="Smoting rounds: the action-dice countdown.")

STATE = {"round": 0, "zones": [{"id": "field", "adjacent": []}],
         "combatants": [{"id": "georeg", "side": "heroes", "pc": True, "heroic": True, "physical_rank": 4,
                         "mental_rank": 4, "attributes": {"str": 1, "agl": 2}, "xposures": {"attack": 5, "parry": 3},
                         "zone": "field"},
                        {"id": "ginat", "side": "giants", "physical_rank": 6, "mental_rank": 3,
                         "xposures": {"attack": 4}, "weapon": {"damage_dice": 5, "speed": 5}, "zone": "field"}]}
EXAMPLE = {"state": STATE, "seed": 11,
           "declarations": [{"combatant": "georeg", "action": "attack", "target": "ginat", "defence": "parry"},
                            {"combatant": "ginat", "action": "attack", "target": "georeg"}],
           "rolls": [{"combatant": "georeg", "role": "action", "faces": [6, 4, 3, 1]}]}


class RoundRequestSchema(RoundRequestBase):
    """A state, one declaration per combatant, and the dice (rolls first, then the seed)."""

    state = fields.Nested(StateSchema, required=True, metadata={"description": "The round state."})
    declarations = fields.List(fields.Nested(DeclarationSchema), load_default=list,
                               validate=validate.Length(max=200),
                               metadata={"description": "One per combatant (without one a combatant passes)."})


class CountdownEntrySchema(Schema):
    """One call of the countdown."""

    combatant = fields.String(required=True, metadata={"description": "Who was called."})
    die = JsonInteger(required=True, allow_none=True, metadata={"description": "The die discarded."})
    action = fields.String(required=True, metadata={"description": "attack, accumulate, move, withdraw, idle, "
                                                                   "pass, hold, held_action or recover."})
    plus_one = JsonBoolean(required=True, metadata={"description": "A 1 was added to reach the weapon speed."})
    pool = JsonInteger(required=True, metadata={"description": "The discard pool total after the call."})


class RoundSchema(RoundResponseBase):
    """The round: action dice, the countdown, the closing die, events and the state after it."""

    events = event_field("smoting", required=True)
    action_dice = fields.Dict(keys=fields.String(), values=fields.List(JsonInteger()), required=True,
                              metadata={"description": "Combatant id -> the faces kept this round."})
    countdown = fields.List(fields.Nested(CountdownEntrySchema), required=True,
                            metadata={"description": "Every call, in order."})
    actions_taken = JsonInteger(required=True, metadata={"description": "Entries in `countdown`."})
    closing_called_after = JsonInteger(required=True, allow_none=True,
                                       metadata={"description": "Countdown entries before the closing die was "
                                                                "rolled (0: before the first call)."})
    closing_die = JsonInteger(required=True, allow_none=True, metadata={"description": "The closing die."})
    closed_by = fields.String(required=True, validate=validate.OneOf(["closing_die", "no_candidates", "surprise"]),
                              metadata={"description": "What closed the round."})
    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state after the round."})


RoundRequestSchema.EXAMPLE = EXAMPLE


@kit.calculator(blp, "/rounds/resolve", "smotingResolveRound", (RoundRequestSchema, RoundSchema), signed=False)
def resolve(body: dict) -> dict:
    """Resolve one round: action dice, the countdown of calls and actions, and the closing die."""
    return resolve_round("smoting", body)
