"""After the blows: moving while Mortally wounded, the final Mortal wound, STR after the battle, healing.

"Levels of Wounding" and "The Healing Process": moving unaided while Mortally wounded costs one more wound
per full (STR mod + CND mod) feet (F45, RULINGS 24); the 10th wound means a P-RES check vs 55 or death, and then CND minutes
of life, with another P-RES vs 55 to stay conscious (A27); once the battle's adrenaline is gone STR drops
by a quarter per Level of Wounding and END recovery takes twice as long per level (A28); a wound heals in
as many weeks as the wounds taken, less one per 4 of a healer's SL, counted by the day below one week.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from service.rules.errors import Contradiction, OutOfRange
from service.rules.rounding import round_half_up
from service.rules.tactical.wounds import DEATH_DV, FINAL_WOUND, wound_level, wound_status
from service.rules.trace import Step

LEVELS = "Levels of Wounding"
HEALING = "The Healing Process"
LEVEL_NUMBER = {"none": 0, "light": 1, "serious": 2, "grievous": 3, "mortal": 4}
DAYS_PER_WEEK = 7


@dataclass(frozen=True, slots=True)
class MortalMove:
    """Wounds gained by moving, the new total, its level and status, and the feet per wound."""

    feet_per_wound: int
    added: int
    total: int
    level: str
    status: str
    trace: tuple[Step, ...]


def mortal_move(feet: Fraction, str_mod: int, cnd_mod: int, wounds: int) -> MortalMove:
    """F45 with RULINGS 24: one more wound per FULL stretch of (STR mod + CND mod) feet, floor(feet / stretch),
    never rounded up (a stretch of 5 ft: 12 or 13 ft -> 2, 3 ft -> 0); a sum of 1 or less: 1 ft ([DEF])."""
    if wound_level(wounds) != "mortal":
        raise Contradiction("only a Mortally wounded character (7+ wounds) gains wounds by moving", ("wounds",))
    per = max(1, str_mod + cnd_mod)
    added = math.floor(Fraction(feet) / per)
    total = wounds + added
    steps = (Step(f"{LEVELS} (F45, RULINGS 24)", f"{float(feet):g} ft / ({str_mod} + {cnd_mod}, at least 1) ft per "
                                                 "wound, full stretches only", added),
             Step(LEVELS, f"{wounds} + {added} wounds: {wound_status(total)}", total))
    return MortalMove(per, added, total, wound_level(total), wound_status(total), steps)


def final_wound_dv() -> int:
    """A27: the P-RES check at the 10th wound (and to stay conscious afterwards) is against 55."""
    return DEATH_DV


def minutes_to_live(condition: int) -> int:
    """A27: a character who survives the 10th wound lives CND minutes without a healer."""
    return max(0, condition)


@dataclass(frozen=True, slots=True)
class AfterBattle:
    """Level of Wounding, STR once the adrenaline is gone, and the END recovery multiplier."""

    level: str
    level_number: int
    strength: int
    end_recovery_factor: int
    trace: tuple[Step, ...]


def after_battle(strength: int, wounds: int) -> AfterBattle:
    """A28: STR x (1 - L/4) rounded half up, L = 1 Light .. 4 Mortal; END recovery x 2^L."""
    if wounds > FINAL_WOUND:
        raise OutOfRange("more than 10 wounds is death", ("wounds",))
    level = wound_level(wounds)
    number = LEVEL_NUMBER[level]
    left = round_half_up(strength * (1 - Fraction(number, 4)))
    steps = (Step(f"{LEVELS} (A28)", f"{level} = level {number}: STR {strength} x (1 - {number}/4)", left),
             Step(LEVELS, f"END recovery takes 2^{number} times as long", 2 ** number))
    return AfterBattle(level, number, left, 2 ** number, steps)


@dataclass(frozen=True, slots=True)
class Healing:
    """Days to heal each wound (or Body Point) in turn, their total, and the care needed."""

    schedule: tuple[int, ...]
    total_days: int
    bed_rest: bool
    needs_skilled_healer: bool
    heals: bool
    trace: tuple[Step, ...]


def wound_days(wounds: int, healer_sl: int) -> int:
    """Days to heal the next wound with `wounds` on the body: (wounds - SL//4) weeks; from one week
    down, the last week shrinks a day per step, at least 1 day ([INF] reading of the seed's text)."""
    weeks = wounds - healer_sl // 4
    if weeks > 1:
        return weeks * DAYS_PER_WEEK
    return max(1, DAYS_PER_WEEK + weeks - 1)


def heal_wounds(wounds: int, healer_sl: int) -> Healing:
    """The Healing Process: one wound heals at a time, each faster than the last, until none is left."""
    level = wound_level(wounds)
    schedule = tuple(wound_days(w, healer_sl) for w in range(wounds, 0, -1))
    skilled = level == "mortal"
    heals = not skilled or healer_sl > 0
    steps = [Step(HEALING, f"{wounds} wounds, healer SL {healer_sl}: next wound in ({wounds} - {healer_sl // 4}) "
                           "weeks, by the day from one week down", schedule[0] if schedule else 0),
             Step(HEALING, f"total {sum(schedule)} days, one wound at a time", sum(schedule))]
    if skilled:
        steps.append(Step(HEALING, "Mortal wounds heal only with a skilled healer" +
                          ("" if heals else "; without one the character dies"), heals))
    return Healing(schedule, sum(schedule), level not in ("none", "light"), skilled, heals, tuple(steps))


def heal_body_points(damage: int, cnd_mod: int, healer_sl: int) -> Healing:
    """The Healing Process, Body Point option: the next point heals in (damage - CND mod - SL//4) days, at least 1."""
    schedule = tuple(max(1, d - cnd_mod - healer_sl // 4) for d in range(damage, 0, -1))
    steps = (Step(HEALING, f"{damage} points: next in ({damage} - CND mod {cnd_mod} - {healer_sl // 4}) days, at "
                           "least 1", schedule[0] if schedule else 0),
             Step(HEALING, f"total {sum(schedule)} days", sum(schedule)))
    return Healing(schedule, sum(schedule), damage > 0, False, True, steps)
