"""Getting Hit: Wound Thresholds, Stunned by Pain and Levels of Wounding (RULINGS 13, 14; F23-F25)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from service.rules.errors import Contradiction, OutOfRange
from service.rules.rounding import Progression, halve_times, progressive, round_half_up
from service.rules.trace import Step, fmt

Level = Literal["none", "light", "serious", "grievous", "mortal"]
Status = Literal["alive", "collapsed", "dead"]
THRESHOLD_RULE = "Getting Hit: Wound Thresholds"
LEVEL_RULE = "Getting Hit: Levels of Wounding"
PAIN_RULE = "Getting Hit: Stunned by Pain"
FINAL_WOUND = 10
DEATH_DV = 55


def wound_threshold(modified_sta: int, condition: int) -> Fraction:
    """WT = (mSTA + CND)/8, kept exact (Getting Hit: Wound Thresholds; A20)."""
    if modified_sta + condition <= 0:
        raise Contradiction("modified STA + CND must be above 0 for a wound threshold",
                         ("target", "modified_sta"))
    return Fraction(modified_sta + condition, 8)


def wounds_from(pot_through: int, threshold: Fraction, exempt: bool = False) -> int:
    """Count of k >= 1 with POT > k x WT; an exempt (edge/point breaching) blow wounds at least once.

    Getting Hit: Wound Thresholds (F24, A19).
    """
    if pot_through <= 0:
        return 0
    counted = -(-Fraction(pot_through) // threshold) - 1
    return max(1, counted) if exempt else counted


def wound_level(total: int) -> Level:
    """Level of Wounding for a wound count: 1 Light, 2-3 Serious, 4-6 Grievous, 7+ Mortal (RULINGS 13)."""
    if total <= 0:
        return "none"
    if total == 1:
        return "light"
    return "serious" if total <= 3 else "grievous" if total <= 6 else "mortal"


def strength_factor(total: int) -> Fraction:
    """Effective STR factor during battle: Grievous 1/2, Mortal 1/4, else 1 (Levels of Wounding)."""
    level = wound_level(total)
    return Fraction(1, 2) if level == "grievous" else Fraction(1, 4) if level == "mortal" else Fraction(1)


def wound_status(total: int) -> Status:
    """Alive; collapsed at the final Mortal wound (the 10th); dead past it (RULINGS 13, A27)."""
    if total > FINAL_WOUND:
        return "dead"
    return "collapsed" if total == FINAL_WOUND else "alive"


@dataclass(frozen=True, slots=True)
class Wounding:
    """What a blow's remaining POT did to the target's wound count (F23, F24)."""

    threshold: Fraction
    inflicted: int
    total: int
    level: Level
    status: Status
    death_check_dv: int | None
    strength_factor: Fraction
    steps: tuple[Step, ...]


def wound(pot_through: int, modified_sta: int, condition: int, wounds_before: int = 0,
          exempt: bool = False) -> Wounding:
    """Wounds inflicted, the new level and status (Wound Thresholds; Levels of Wounding)."""
    wt = wound_threshold(modified_sta, condition)
    inflicted = wounds_from(pot_through, wt, exempt)
    total = wounds_before + inflicted
    status = wound_status(total)
    check = DEATH_DV if wounds_before < FINAL_WOUND <= total and status == "collapsed" else None
    steps = [Step(THRESHOLD_RULE, f"WT = (mSTA {modified_sta} + CND {condition})/8 = {fmt(wt)}", wt),
             Step(THRESHOLD_RULE, f"POT {pot_through} exceeds {inflicted} multiple(s) of WT"
                  + (" (edge or point breached: at least 1, A19)" if exempt and pot_through > 0 else ""),
                  inflicted),
             Step(LEVEL_RULE, f"{total} wound(s): {wound_level(total)}, {status}", total)]
    if check:
        steps.append(Step(LEVEL_RULE, "final Mortal wound: collapse, P-RES check vs 55 or death", check))
    return Wounding(wt, inflicted, total, wound_level(total), status, check, strength_factor(total),
                    tuple(steps))


@dataclass(frozen=True, slots=True)
class Stun:
    """Stun by pain: P-RES (then HRT) check DV, and the penalty if the HRT check fails or passes."""

    excess: int
    check_dv: int
    penalty_if_failed: int
    penalty_if_passed: int


def stun_by_pain(pot_through: int, pain_resistance: int,
                 scheme: Progression = "triangular") -> tuple[Stun | None, Step]:
    """Getting Hit: Stunned by Pain (F25, RULINGS 14): E = remaining POT - P-RES; nothing when E <= 0."""
    excess = pot_through - pain_resistance
    if excess <= 0:
        return None, Step(PAIN_RULE, f"POT {pot_through} does not exceed P-RES {pain_resistance}", 0)
    dv = progressive(excess, scheme)
    stun = Stun(excess, dv, dv, round_half_up(Fraction(dv, 2)))
    return stun, Step(PAIN_RULE, f"POT {pot_through} - P-RES {pain_resistance} = {excess}; "
                                 f"checks vs progressive({excess}) ({scheme})", dv)


def stun_penalty_after(p0: int, segments: int) -> int:
    """The stun penalty after k CS: round_half_up(P0 / 2^k), from the original P0 (RULINGS 14, A29)."""
    return halve_times(p0, segments)


@dataclass(frozen=True, slots=True)
class BodyPointDamage:
    """Damage under the optional Body Point rules: taken so far, out of a total, and its level (A50)."""

    damage: int
    total: int
    remaining: int
    level: Level
    step: Step


def body_point_level(damage: int, total: int) -> BodyPointDamage:
    """"Optional Body Point rules" levels (A50): up to 1/4 of the BP Light, to 1/2 Serious, to 3/4
    Grievous, beyond that Mortal; no damage, no level."""
    if total <= 0:
        raise OutOfRange("a combatant's Body Points must be at least 1", ("target", "body_points"))
    share = Fraction(max(0, damage), total)
    level: Level = ("none" if share == 0 else "light" if share <= Fraction(1, 4) else
                    "serious" if share <= Fraction(1, 2) else "grievous" if share <= Fraction(3, 4) else "mortal")
    step = Step("Optional Body Point rules", f"{damage} of {total} BP lost ({fmt(share)}): {level} (A50)", level)
    return BodyPointDamage(damage, total, total - damage, level, step)
