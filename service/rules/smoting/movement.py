"""Movement: pools for zone and battle moves, success tests, and speed conversion (seed *Movement
Speeds*, *Move rolls*, *Running*, *The Battlefield*, *Combat Time*; smoting.md sections 7 and 12.1)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from service.rules.smoting import pools

FREE_MOVE_DICE = 4


def pool(dice: int, modifiers: int, running: bool, stunned: bool) -> int:
    """Dice rolled: base + modifiers, +1 running, -2 stunned; at least 1 when there was a base pool
    (seed *Move rolls*, *Attacks*)."""
    total = dice + modifiers + int(running) - 2 * int(stunned)
    return max(total, 1) if dice >= 1 else 0


def zone_move(n: int, options: Mapping[str, Any]) -> dict[str, Fraction]:
    """Zone move: 2+ successes arrive, 1 stops on the boundary, 0 stays (seed *Move rolls*)."""
    s, boom = options["success_min"], options["explode"]
    zero, one = pools.exactly(n, 0, s, boom), pools.exactly(n, 1, s, boom)
    return {"arrive": 1 - zero - one, "boundary": one, "stay": zero}


def battle_move(n: int, options: Mapping[str, Any]) -> tuple[bool, Fraction]:
    """Battle or trivial move: rolled only below 4 dice, one success needed (seed *Move rolls*)."""
    needed = n < FREE_MOVE_DICE
    return needed, pools.at_least(n, 1, options["success_min"], options["explode"]) if needed else Fraction(1)


def speeds(mr: int, options: Mapping[str, Any]) -> dict[str, Fraction]:
    """Metres per round and second and km/h for MR zones a round (seed *The Battlefield*, *Combat Time*)."""
    per_round = Fraction(mr) * Fraction(str(options["metres_per_zone"]))
    per_second = per_round / Fraction(str(options["seconds_per_round"]))
    return {"metres_per_round": per_round, "metres_per_second": per_second, "km_per_hour": per_second * Fraction(18, 5)}
