"""Skill contests, Maneuver contests and the resistance table (rules document §2, §4; seed *Maneuver*)."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from service.rules.runequest_house import percentile
from service.rules.runequest_house.percentile import RANK, Bands


def maneuver_bonus(own_mov: int, other_mov: int) -> int:
    """*Maneuver*: +5% per metre of basic movement rate above the opponent's (Mobility does not count)."""
    return 5 * max(0, own_mov - other_mov)


def contest(a: Bands, b: Bands) -> dict[str, Fraction]:
    """Both roll; the higher degree wins, equal degrees change nothing (*Maneuver*). Exact over 100 x 100."""
    out = {"a": Fraction(0), "b": Fraction(0), "no_change": Fraction(0)}
    odds_b = b.probabilities()
    for degree_a, pa in a.probabilities().items():
        for degree_b, pb in odds_b.items():
            out[winner(degree_a, degree_b)] += pa * pb
    return out


def winner(degree_a: str, degree_b: str) -> str:
    """`a`, `b` or `no_change` for one pair of degrees."""
    if RANK[degree_a] == RANK[degree_b]:
        return "no_change"
    return "a" if RANK[degree_a] > RANK[degree_b] else "b"


def resistance(active: int, passive: int, options: Mapping[str, Any]) -> int:
    """Resistance table [CORE]: 50% + 5% x (active - passive), clamped [DEF `resistance_clamp`]."""
    low, high = options["resistance_clamp"]
    return max(low, min(high, 50 + 5 * (active - passive)))


def resistance_chance(effective: int) -> Fraction:
    """P(d100 <= the resistance percentage)."""
    return Fraction(max(0, min(effective, 100)), 100)


def bands(skill: int, options: Mapping[str, Any]) -> Bands:
    """Bands of a contest roll (no modifiers beyond those already in `skill`)."""
    return percentile.bands(skill, options)
