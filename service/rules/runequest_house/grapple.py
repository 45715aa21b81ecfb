"""Grapple follow-ups (rules document §5.7; seed *Page 60*)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.rules.rounding import round_half_up
from service.rules.runequest_house import contest, stats
from service.rules.trace import Step

SKILL_SHIFT = {"immobilise": 0, "throw": 10, "damage": -10}
DAMAGE = {"throw": "1d6", "damage": "1d4"}


@dataclass(frozen=True, slots=True)
class FollowUp:
    """The second grapple roll's skill, its resistance roll and its damage."""

    follow_up_skill: int | None
    resistance: dict[str, Any] | None
    damage: str | None
    trace: tuple[Step, ...]


def half(value: int) -> int:
    """SIZ/2, STR/2: rounded half up [CORE]."""
    return round_half_up(Fraction(value, 2))


def with_bonus(base: str, bonus: str) -> str:
    """"1d6" + "+1d4" -> "1d6+1d4"; a bonus of "0" adds nothing."""
    if bonus in ("0", "+0", "-0"):
        return base
    return base + (bonus if bonus[0] in "+-" else "+" + bonus)


def follow_up(mode: str, grapple: int, attacker: Mapping[str, int], defender: Mapping[str, int],
              options: Mapping[str, Any]) -> FollowUp:
    """*Page 60*: immobilise (STR vs STR/2), throw (+10%; STR + DEX vs SIZ/2 + DEX; 1d6 + damage bonus),
    damage (-10%; 1d4 + damage bonus, armor ignored), or the held figure's escape (STR/2 vs STR, no
    grapple roll)."""
    steps = []
    if mode == "escape":
        active, passive = half(defender["str"]), attacker["str"]
        skill = None
    else:
        skill = grapple + SKILL_SHIFT[mode]
        steps.append(Step("Page 60", f"second grapple roll at {skill}%", skill))
        if mode == "immobilise":
            active, passive = attacker["str"], half(defender["str"])
        elif mode == "throw":
            active, passive = attacker["str"] + attacker["dex"], half(defender["siz"]) + defender["dex"]
        else:
            active = passive = None
    resistance = None
    if active is not None:
        effective = contest.resistance(active, passive, options)
        chance = contest.resistance_chance(effective)
        resistance = {"active": active, "passive": passive, "effective": effective, "chance": chance}
        steps.append(Step("RQH-RESISTANCE", f"{active} vs {passive}: {effective}%", effective))
    damage = None
    if mode in DAMAGE:
        bonus = stats.damage_bonus(attacker["str"], attacker["siz"], options)
        damage = with_bonus(DAMAGE[mode], bonus)
        steps.append(Step("Page 60", f"damage {damage}", damage))
    return FollowUp(skill, resistance, damage, tuple(steps))
