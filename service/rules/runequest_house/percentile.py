"""Percentile rolls: effective skill, degree bands and exact degree odds (rules document §2, RQ3 core).

A skill is modified (additive percentages, then multipliers, rounded half up once), then read on d100:
critical, special, success, failure and fumble bands. Every chance is an exact fraction of 100.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.rules.rounding import round_half_up
from service.rules.runequest_house.options import fraction

DEGREES = ("fumble", "failure", "success", "special", "critical")
RANK = {name: rank for rank, name in enumerate(DEGREES)}
HUNDRED = Fraction(1, 100)


@dataclass(frozen=True, slots=True)
class Bands:
    """Highest roll of each success band and the lowest fumble roll (a roll in several takes the best)."""

    critical: int
    special: int
    success: int
    fumble_from: int

    def as_dict(self) -> dict[str, int]:
        return {"critical": self.critical, "special": self.special, "success": self.success,
                "fumble_from": self.fumble_from}

    def degree(self, face: int) -> str:
        """The degree of one d100 face (1..100)."""
        if face <= self.critical:
            return "critical"
        if face <= self.special:
            return "special"
        if face <= self.success:
            return "success"
        return "fumble" if face >= self.fumble_from else "failure"

    def probabilities(self) -> dict[str, Fraction]:
        """Exclusive chances of each degree, exact fractions of 100."""
        return dict(_probabilities(self))

    def _odds(self) -> dict[str, Fraction]:
        success = self.success
        special = min(self.special, success)
        critical = min(self.critical, special)
        fumble = max(0, 101 - max(self.fumble_from, success + 1))
        return {"critical": critical * HUNDRED, "special": (special - critical) * HUNDRED,
                "success": (success - special) * HUNDRED, "fumble": fumble * HUNDRED,
                "failure": (100 - success - fumble) * HUNDRED}


@lru_cache(maxsize=8192)
def _probabilities(bands: Bands) -> tuple[tuple[str, Fraction], ...]:
    return tuple(bands._odds().items())


def effective(skill: int, additive: Iterable[int] = (), multipliers: Iterable[Fraction] = (),
              order: str = "add_then_multiply") -> int:
    """The modified skill: additive percentages and multipliers (×3/4, ×1/2, ×1/5) in the option's order,
    rounded half up once at the end (rules document §2, Modifiers [DEF])."""
    added = sum(additive)
    multipliers = tuple(multipliers)
    if not multipliers:
        return skill + added
    factor = Fraction(1)
    for multiplier in multipliers:
        factor *= multiplier
    if order == "add_then_multiply":
        return round_half_up((skill + added) * factor)
    return round_half_up(skill * factor + added)


def bands(skill: int, options: Mapping[str, Any], fumble_multiplier: int = 1) -> Bands:
    """Degree bands of an effective skill [CORE RQ3]: critical = skill/20, special = skill/5, fumble count
    = (100 - skill)/20 (1 from 100 up), each at least 1, rounded half up; 01-05 always succeed, 96-00
    always fail; flexible weapons double the fumble count (*Page 63*)."""
    fractions = options["degree_fractions"]
    return _bands(skill, fumble_multiplier, fractions["critical"], fractions["special"], fractions["fumble"],
                  options["auto_success_max"], options["auto_failure_min"])


@lru_cache(maxsize=8192)
def _bands(skill: int, fumble_multiplier: int, critical_of: str, special_of: str, fumble_of: str,
           auto_success: int, auto_failure: int) -> Bands:
    critical = max(1, round_half_up(skill * fraction(critical_of)))
    special = max(1, round_half_up(skill * fraction(special_of)))
    count = 1 if skill >= 100 else max(1, round_half_up((100 - skill) * fraction(fumble_of)))
    success = min(max(skill, auto_success), auto_failure - 1)
    return Bands(min(critical, success), min(special, success), success, max(1, 101 - count * fumble_multiplier))


def critical_only(found: Bands) -> Bands:
    """Bands of a defence that only works on a critical (*Page 63*: a weapon parry of a point-blank
    projected missile): the critical band, nothing else succeeds."""
    return Bands(found.critical, found.critical, found.critical, found.fumble_from)


def chance(found: Bands) -> Fraction:
    """P(success of any degree)."""
    return min(found.success, 100) * HUNDRED


def better(a: str, b: str) -> bool:
    """Whether degree `a` beats degree `b` (fumble < failure < success < special < critical)."""
    return RANK[a] > RANK[b]
