"""POST /v1/runequest-house/rounds/resolve: one whole round, stateless (rules document §8, §12.12)."""
from __future__ import annotations

from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.steps import resolve_round
from service.api.runequest_house.state_schemas import EXAMPLE_STATE, RoundRequestSchema, RoundResponseSchema

blp = Blueprint("runequest-house-rounds", __name__, description="runequest-house (seed 004): one melee round.")

EXAMPLE = {"state": EXAMPLE_STATE, "seed": 42, "declarations": [
    {"combatant": "vasana", "actions": [{"type": "attack", "target": "broo", "weapon": 0}, {"type": "parry"}]},
    {"combatant": "broo", "actions": [{"type": "attack", "target": "vasana", "weapon": 0}, {"type": "dodge"}]}]}


@blp.post("/rounds/resolve")
@blp.arguments(RoundRequestSchema, example=EXAMPLE)
@blp.response(200, RoundResponseSchema, example={
    "round": 1, "seed": 42, "intent_order": ["broo", "vasana"], "movement_order": ["vasana", "broo"],
    "strike_order": [{"combatant": "vasana", "action": "attack", "sr": 6, "target": "broo"},
                     {"combatant": "broo", "action": "attack", "sr": 7, "target": "vasana"}],
    "events": [{"seq": 1, "type": "round_ended", "round": 1}], "state": EXAMPLE_STATE})
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="runequestHouseResolveRound")
def resolve(body: dict[str, Any]) -> dict[str, Any]:
    """One whole melee round (rules document §8): Statement of Intent (lowest INT first), Move (highest DEX
    first), Melee in strike-rank order, Post-Melee Move; events and the state after it."""
    return resolve_round("runequest-house", body)
