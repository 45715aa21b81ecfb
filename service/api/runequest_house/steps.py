"""POST /v1/runequest-house/rounds/resolve: one whole round, stateless (rules document §8, §12.12)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.events import event_field
from service.api.kit.schemas import JsonInteger
from service.api.kit.steps import RoundRequestBase, RoundResponseBase, resolve_round
from service.api.runequest_house.state import (
    EXAMPLE_STATE,
    DeclarationSchema,
    StateSchema,
)


class RoundRequestSchema(RoundRequestBase):
    """One round of a state, nothing stored."""

    state = fields.Nested(StateSchema, required=True, metadata={"description": "The state before the round.",
                                                                "example": EXAMPLE_STATE})
    declarations = fields.List(fields.Nested(DeclarationSchema), load_default=list, validate=validate.Length(max=100),
                               metadata={"description": "Each combatant's two actions."})


class StrikeSchema(Schema):
    """One timed action of the Melee phase."""

    combatant = fields.String(required=True, metadata={"description": "Who acts."})
    action = fields.String(required=True, metadata={"description": "attack, missile or cast."})
    sr = JsonInteger(required=True, metadata={"description": "Its strike rank."})
    target = fields.String(required=True, allow_none=True, metadata={"description": "Its target."})


class RoundResponseSchema(RoundResponseBase):
    """The round's orders, events and the state after it."""

    events = event_field("runequest_house", required=True)
    intent_order = fields.List(fields.String(), required=True, metadata={"description": "Lowest INT first."})
    movement_order = fields.List(fields.String(), required=True, metadata={"description": "Highest DEX first."})
    strike_order = fields.List(fields.Nested(StrikeSchema), required=True,
                               metadata={"description": "Attacks, missiles and spells in SR order."})
    state = fields.Dict(required=True, metadata={"description": "The state after the round (send it back as is)."})


blp = Blueprint("runequest-house-rounds", __name__, description="runequest-house (seed 004): one melee round.")


EXAMPLE = {"state": EXAMPLE_STATE, "seed": 42, "declarations": [
    {"combatant": "vasana", "actions": [{"type": "attack", "target": "broo", "weapon": 0}, {"type": "parry"}]},
    {"combatant": "broo", "actions": [{"type": "attack", "target": "vasana", "weapon": 0}, {"type": "dodge"}]}]}


RoundRequestSchema.EXAMPLE, RoundResponseSchema.EXAMPLE = EXAMPLE, {
    "round": 1, "seed": 42, "intent_order": ["broo", "vasana"], "movement_order": ["vasana", "broo"],
    "strike_order": [{"combatant": "vasana", "action": "attack", "sr": 6, "target": "broo"},
                     {"combatant": "broo", "action": "attack", "sr": 7, "target": "vasana"}],
    "events": [{"seq": 1, "type": "round_ended", "round": 1}], "state": EXAMPLE_STATE}


@kit.calculator(blp, "/rounds/resolve", "runequestHouseResolveRound", (RoundRequestSchema, RoundResponseSchema),
                signed=False)
def resolve(body: dict[str, Any]) -> dict[str, Any]:
    """One whole melee round (rules document §8): Statement of Intent (lowest INT first), Move (highest DEX
    first), Melee in strike-rank order, Post-Melee Move; events and the state after it."""
    return resolve_round("runequest-house", body)
