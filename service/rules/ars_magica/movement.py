"""Yards moved in one round (*1. Movement*) and their metric conversion."""
from __future__ import annotations

from fractions import Fraction

from service.rules.trace import Step

RULE = "1. Movement"
METRES_PER_YARD = Fraction(1143, 1250)


def yards_per_round(qik: int, encumbrance: int, athletics: int, ride: int, penalties: int) -> dict[str, int]:
    """Walk 9 + Qik - Enc, hustle 15 + Qik - Enc, sprint 30 + Qik + Athletics - Enc with the wound and fatigue
    penalties (<= 0) added, ride 50 + Ride; never below 0."""
    enc = abs(encumbrance)
    paces = {"walk": 9 + qik - enc, "hustle": 15 + qik - enc, "sprint": 30 + qik + athletics - enc + penalties,
             "ride": 50 + ride}
    return {pace: max(0, yards) for pace, yards in paces.items()}


def acting(yards: dict[str, int]) -> dict[str, int]:
    """Movement is halved when doing anything else that round, rounded down (option `movement_halving`)."""
    return {pace: value // 2 for pace, value in yards.items()}


def metres(yards: dict[str, int], round_seconds: Fraction) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """Metres per round and per second (1 yd = 0.9144 m exactly; option `round_seconds`)."""
    per_round = {pace: value * METRES_PER_YARD for pace, value in yards.items()}
    return per_round, {pace: value / round_seconds for pace, value in per_round.items()}


def steps(yards: dict[str, int]) -> list[Step]:
    """The trace of the yards table."""
    return [Step(RULE, f"{pace} yards per round", value) for pace, value in yards.items()]
