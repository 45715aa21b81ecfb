"""Falling objects (seed "Movement: Some Special Considerations"): who may reach it, the catch DV, the impact.

Pulses to reach the point of impact come from the printed thresholds (F33, A38). The catch DV and the
impact POT are the same number, 2 per 3 ft fallen + weight/10, rounded half up once (F34, A39). A
catcher absorbs modified STA + STR att. mod. + CRD att. mod. + armor DR; the rest can wound (F35).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from service.rules.errors import OutOfRange
from service.rules.rounding import round_half_up
from service.rules.tactical import tables
from service.rules.trace import Step, fmt

SECTION = "Movement: Some Special Considerations (falling objects)"
MAX_FEET = 100_000
MAX_POUNDS = 1_000_000


@dataclass(frozen=True, slots=True)
class Catcher:
    """The would-be catcher's numbers that soak up the impact (F35)."""

    modified_sta: int
    str_mod: int
    crd_mod: int
    armor_dr: int = 0


@dataclass(frozen=True, slots=True)
class Absorb:
    """How much of the impact a catcher can take (`capacity`) and what is left to wound him."""

    capacity: int
    excess_pot: int


@dataclass(frozen=True, slots=True)
class Fall:
    """A falling object: pulses to reach it, whether only adjacent catchers can act, DV and POT."""

    pulses: int
    adjacent_only: bool
    impact_pot: int
    catch_dv: int
    absorb: Absorb | None
    trace: tuple[Step, ...]


@cache
def _thresholds() -> tuple[tuple[int, int], ...]:
    rows = tables.load("falling-pulses")["rows"]
    return tuple(sorted(((row["min_feet"], row["pulses"]) for row in rows), reverse=True))


def min_catch_feet() -> int:
    """F33: the shortest fall that characters who are not adjacent may try to reach (16 ft)."""
    return int(tables.load("falling-pulses")["min_catch_feet"])


def pulses_to_impact(feet: Fraction) -> int:
    """F33 with A38: pulses of movement allowed to reach the impact point (0: adjacent catchers only)."""
    return next(pulses for threshold, pulses in _thresholds() if feet >= threshold)


def impact_pot(feet: Fraction, pounds: Fraction) -> int:
    """F34 with A39: round_half_up(2 x feet / 3 + pounds / 10), the impact POT and the catch DV."""
    return round_half_up(Fraction(2, 3) * feet + Fraction(pounds) / 10)


def absorb(pot: int, catcher: Catcher) -> Absorb:
    """F35: what the catcher soaks (never below 0) and the excess POT that goes against his wounds."""
    capacity = max(0, catcher.modified_sta + catcher.str_mod + catcher.crd_mod + catcher.armor_dr)
    return Absorb(capacity, max(0, pot - capacity))


def _check(feet: Fraction, pounds: Fraction) -> None:
    if not 0 <= feet <= MAX_FEET:
        raise OutOfRange(f"distance_feet must be between 0 and {MAX_FEET}", ("distance_feet",))
    if not 0 <= pounds <= MAX_POUNDS:
        raise OutOfRange(f"weight_pounds must be between 0 and {MAX_POUNDS}", ("weight_pounds",))


def fall(feet: Fraction, pounds: Fraction, catcher: Catcher | None = None) -> Fall:
    """Some Special Considerations: an object falling `feet` weighing `pounds`, optionally caught."""
    _check(feet, pounds)
    pulses = pulses_to_impact(feet)
    adjacent = feet < min_catch_feet()
    pot = impact_pot(feet, pounds)
    caught = absorb(pot, catcher) if catcher else None
    trace = [
        Step("A38", f"{fmt(feet)} ft fall: {pulses} pulse(s) to reach the point of impact", pulses),
        Step("F34 / A39", f"2 x {fmt(feet)}/3 + {fmt(pounds)}/10, rounded half up: catch DV = impact POT", pot),
    ]
    if adjacent:
        trace.insert(1, Step(SECTION, "under 16 ft only adjacent catchers may try; the text's DV (size/weight "
                                      "+ Progressive per foot) has no numbers, so the F34 DV is used (A39)"))
    if caught:
        trace.append(Step("F35", f"absorbs mSTA + STR mod + CRD mod + armor DR = {caught.capacity}; "
                                 f"excess {caught.excess_pot} POT goes against the wound threshold",
                          caught.excess_pot))
    return Fall(pulses, adjacent, pot, pot, caught, tuple(trace))
