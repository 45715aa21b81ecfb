"""Damage of a landed blow (*3. Melee*): damage roll against soak roll, one body level per 5 points or
fraction; exceptional blows (EXCEPTIONAL BLOW TABLE), all-out attacks (*All-out attack*), brawling
(*Brawling*), exactly and rolled."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.rules import memo
from service.rules.ars_magica import stress
from service.rules.ars_magica.stress import Rolled
from service.rules.dice import DiceSource
from service.rules.trace import Step

MELEE = "3. Melee"
KEYS = ("0", "1", "2", "3", "4", "5", "6+")
SEVERITY = {1: "minor", 2: "major"}


def levels_for(margin: int, all_out: bool = False, doubles: str = "margin") -> int:
    """Levels lost for a margin (*3. Melee*: one per 5 points or fraction); an all-out attack doubles the
    margin or the levels (option `all_out_doubles`)."""
    if margin <= 0:
        return 0
    if all_out and doubles == "margin":
        return -(-2 * margin // 5)
    return -(-margin // 5) * (2 if all_out else 1)


def _threshold(n: int, all_out: bool, doubles: str) -> int:
    """The margin that must be exceeded for at least n >= 1 levels."""
    if not all_out:
        return 5 * (n - 1)
    if doubles == "margin":
        return 5 * (n - 1) // 2
    return 5 * (-(-n // 2) - 1)


def split(levels: int, brawling: bool) -> tuple[int, int]:
    """(body, fatigue) levels: brawling alternates fatigue, body, fatigue... (*Brawling*)."""
    if not brawling:
        return levels, 0
    return levels // 2, levels - levels // 2


def severity_of(levels: int) -> str:
    """EXCEPTIONAL BLOW TABLE: 1 level minor, 2 major, 3 or more grave (0: none)."""
    return "none" if levels <= 0 else SEVERITY.get(levels, "grave")


@dataclass(frozen=True)
class DamageOdds:
    """Levels distribution (keys 0..5, 6+), P(at least one level), severity odds and the trace."""

    probabilities: dict[str, Fraction]
    chance: Fraction
    severity: dict[str, Fraction] | None
    steps: list[Step] = field(default_factory=list)


def damage_odds(damage: int, soak: int, botch_dice: Mapping[str, int], all_out: bool, exceptional: bool,
                options: Mapping[str, Any]) -> DamageOdds:
    """The exact distribution of levels lost: damage + stress (a botch does nothing) against soak + stress
    (a botch counts 0). A pure function of its arguments, so answers are remembered."""
    return _damage_odds(damage, soak, botch_dice["damage"], botch_dice["soak"], all_out, exceptional,
                        options["all_out_doubles"])


@memo.bounded
def _damage_odds(damage: int, soak: int, botch_d: int, botch_s: int, all_out: bool, exceptional: bool,
                 doubles: str) -> DamageOdds:
    d = stress.stress_roll(damage, botch_d)
    s = stress.stress_roll(soak, botch_s, botched_value=0)
    at_least = [Fraction(1)] + [stress.greater(d, s, _threshold(n, all_out, doubles)) for n in range(1, 7)]
    probs = {str(n): at_least[n] - at_least[n + 1] for n in range(6)}
    probs["6+"] = at_least[6]
    severity = None
    if exceptional:
        severity = {"none": at_least[0] - at_least[1], "minor": at_least[1] - at_least[2],
                    "major": at_least[2] - at_least[3], "grave": at_least[3]}
    steps = [Step(MELEE, f"damage {damage} + stress against soak {soak} + stress; a level per 5 points or "
                         f"fraction{' (all-out: ' + doubles + ' doubled)' if all_out else ''}", at_least[1])]
    return DamageOdds(probs, at_least[1], severity, steps)


@dataclass(frozen=True)
class Blow:
    """One damage roll against one soak roll, as rolled."""

    damage_roll: int
    soak_roll: int
    margin: int
    levels: int
    body_levels: int
    fatigue_levels: int
    severity: str | None
    effect: str | None
    damage_die: Rolled
    soak_die: Rolled


def roll_damage(damage: int, soak: int, botch_dice: Mapping[str, int], dice: DiceSource, options: Mapping[str, Any],
                all_out: bool = False, brawling: bool = False, location: str | None = None,
                striker: str | None = None, soaker: str | None = None,
                roles: tuple[str, str, str, str] = ("damage", "damage_botch", "soak", "soak_botch")) -> Blow:
    """Roll damage against soak (*3. Melee*); `location` set means an exceptional blow (effect from option
    `exceptional_effects`)."""
    d = stress.roll_stress(dice, roles[0], botch_dice["damage"], roles[1], striker)
    s = stress.roll_stress(dice, roles[2], botch_dice["soak"], roles[3], soaker)
    d_roll, s_roll = d.total(damage), s.total(soak)
    margin = d_roll - s_roll
    levels = 0 if d.botched else levels_for(margin, all_out, options["all_out_doubles"])
    body, fatigue = split(levels, brawling)
    severity = effect = None
    if location is not None:
        severity = severity_of(levels)
        effect = None if severity == "none" else options["exceptional_effects"][location][severity]
    return Blow(d_roll, s_roll, margin, levels, body, fatigue, severity, effect, d, s)
