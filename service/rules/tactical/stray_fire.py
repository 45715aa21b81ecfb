"""Stray fire ("Misses & Stray Fire"): a missed shot flies on along its line within the target's range band.

Each figure whose Zone the line crosses, nearest first, is attacked as if it were the target, the DV
shifted by a Progressive modifier on the modified STA difference (up when the new figure is smaller, down
when larger). A figure hit stops the missile; a miss carries it on until the band runs out.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from service.rules.rounding import Progression, progressive
from service.rules.trace import Step

HEADING = "Misses & Stray Fire"


@dataclass(frozen=True, slots=True)
class Bystander:
    """A figure on the line of fire beyond the missed target."""

    id: str
    modified_sta: int
    dv: int
    distance: Fraction


def size_modifier(original_sta: int, new_sta: int, scheme: Progression = "triangular") -> int:
    """The DV shift for a new target: +prog(points smaller), -prog(points larger)."""
    gap = original_sta - new_sta
    return progressive(gap, scheme) if gap > 0 else -progressive(-gap, scheme)


def in_band(bystanders: Sequence[Bystander], band_end: Fraction) -> list[Bystander]:
    """The figures the missile can still reach: within the band the target stood in, nearest first."""
    return sorted((b for b in bystanders if b.distance <= band_end), key=lambda b: (b.distance, b.id))


def hit_shares(chances: Sequence[int]) -> tuple[list[Fraction], Fraction]:
    """The exact chance each figure in line is the one hit (all before it missed), and that all are missed."""
    shares, through = [], Fraction(1)
    for chance in chances:
        p = Fraction(chance, 100)
        shares.append(through * p)
        through *= 1 - p
    return shares, through


def describe(b: Bystander, modifier: int, dv: int) -> Step:
    """The trace step for one figure in line."""
    return Step(HEADING, f"{b.id} at {float(b.distance):g}: DV {b.dv} {'+' if modifier >= 0 else '-'} "
                         f"{abs(modifier)} for size", dv)
