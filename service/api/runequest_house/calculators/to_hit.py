"""POST /v1/runequest-house/to-hit: the attack against a dodge, a parry or nothing (rules document §4, §12)."""
from __future__ import annotations

from typing import Any

from service.api.kit import calculator as kit
from service.api.runequest_house.calculators import blp, roll_attack, to_hit_odds
from service.api.runequest_house.schemas.to_hit import ToHitRequestSchema, ToHitSchema


@kit.calculator(blp, "/to-hit", "runequestHouseToHit", (ToHitRequestSchema, ToHitSchema))
def to_hit_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The attack % against a declared dodge, parry or nothing (rules document §4): every degree outcome as
    an exact fraction of 100 x 100 (a dodge lowers the attack's degree, a parry meets it), and the
    location table's distribution."""
    answer, attack, guard, options = to_hit_odds(body)
    dice, roll = kit.dice(body), None
    if dice is not None:
        roll = roll_attack(dice, attack, guard, answer["location_table"], options)
    return {**answer, "roll": roll, **kit.rolled(dice)}
