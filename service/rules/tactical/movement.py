"""Movement: quarter rates, the Pulse Move ramp, charge eligibility, and action times (table 4-1).

Rates come in quarters of the full rate (seed "Movement"). With the optional Pulse Move the first pulse
of continuous movement is capped at the half rate (RULINGS 16, A35); a charge needs 5 consecutive
full-rate pulses ending at the attack (A36). Distances are summed exactly and rounded once (R2).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from service.rules.errors import OutOfRange
from service.rules.rounding import round_half_up
from service.rules.tactical import pulse
from service.rules.trace import Step, fmt

PULSES = 10
RATES: dict[str, Fraction] = {"quarter": Fraction(1, 4), "half": Fraction(1, 2),
                              "three_quarters": Fraction(3, 4), "full": Fraction(1)}
ALLOWED = frozenset({Fraction(0), *RATES.values()})
RAMP_CAP = Fraction(1, 2)
CHARGE_PULSES = 5
PULSE_RULE = "Optional Rule: Pulse Movement"


@dataclass(frozen=True, slots=True)
class Rate:
    """One quarter rate of a full-rate speed: its mph, table conversion and distance per CS."""

    name: str
    fraction: Fraction
    conversion: pulse.Conversion
    feet_per_cs: int


@dataclass(frozen=True, slots=True)
class Rates:
    """The four quarter rates of a speed, the first-pulse cap and the distance of a CS from standstill."""

    rates: tuple[Rate, ...]
    first_pulse_feet: Fraction
    feet_first_cs_from_standstill: int
    trace: tuple[Step, ...]


def rates(mph: Fraction, scale: str = "25mm", verbatim: bool = False) -> Rates:
    """Movement: the 1/4, 1/2, 3/4 and full rates of a full-rate `mph`, each converted by table 7-2."""
    pulse.check(mph, scale)
    found = tuple(_rate(name, share, mph, scale, verbatim) for name, share in RATES.items())
    x = pulse.feet_exact(mph)
    standstill = RAMP_CAP * x + (PULSES - 1) * x
    trace = (
        Step("Movement", "feet per CS = exact feet per pulse x 10 pulses, rounded half up once (R2)"),
        Step("RULINGS 16", f"first pulse from standstill: at most the half rate, {found[1].conversion.feet} ft",
             found[1].conversion.feet),
        Step("RULINGS 16", f"one CS from standstill: 1/2 x {fmt(x)} + 9 x {fmt(x)} = {fmt(standstill)} ft",
             round_half_up(standstill)),
    )
    return Rates(found, found[1].conversion.feet, round_half_up(standstill), trace)


def _rate(name: str, share: Fraction, mph: Fraction, scale: str, verbatim: bool) -> Rate:
    conversion = pulse.convert(share * mph, scale, verbatim)
    return Rate(name, share, conversion, round_half_up(conversion.feet_exact * PULSES))


@dataclass(frozen=True, slots=True)
class PulseMove:
    """One pulse of a move: the rate asked for, the rate allowed after the ramp, the feet covered."""

    pulse: int
    requested: Fraction
    allowed: Fraction
    feet_exact: Fraction
    feet: Fraction


@dataclass(frozen=True, slots=True)
class Ramp:
    """Ten pulses of movement after the acceleration cap, with the CS total and charge eligibility."""

    pulses: tuple[PulseMove, ...]
    total_feet_exact: Fraction
    total_feet: int
    charge_eligible: bool
    trace: tuple[Step, ...]


def ramp_rates(requested: Sequence[Fraction], moving_before: bool = False) -> tuple[Fraction, ...]:
    """RULINGS 16 / A35: cap the first pulse of each continuous move at 1/2; a still pulse resets it."""
    allowed, moving = [], moving_before
    for share in requested:
        allowed.append(share if moving else min(share, RAMP_CAP))
        moving = share > 0
    return tuple(allowed)


def _check_rates(requested: Sequence[Fraction]) -> None:
    if len(requested) != PULSES:
        raise OutOfRange(f"give exactly {PULSES} pulse rates", ("rates",))
    for index, share in enumerate(requested):
        if share not in ALLOWED:
            raise OutOfRange("a pulse rate is 0, 1/4, 1/2, 3/4 or 1", ("rates", index))


def ramp(mph: Fraction, requested: Sequence[Fraction], attack_pulse: int = PULSES,
         moving_before: bool = False) -> Ramp:
    """Optional Rule: Pulse Movement: the ten pulses actually moved at full-rate `mph`."""
    pulse.check(mph, "25mm")
    _check_rates(requested)
    x = pulse.feet_exact(mph)
    allowed = ramp_rates(requested, moving_before)
    moves = tuple(PulseMove(n, want, got, got * x, pulse.table_feet(got * x))
                  for n, (want, got) in enumerate(zip(requested, allowed), start=1))
    total = sum((move.feet_exact for move in moves), Fraction(0))
    capped = [move.pulse for move in moves if move.allowed < move.requested]
    eligible = charge_eligible(allowed, attack_pulse, moving_before)
    trace = (
        Step("RULINGS 16", f"first pulse of each continuous move capped at 1/2 rate; capped pulses: {capped}"),
        Step(PULSE_RULE, f"total {fmt(total)} ft, rounded half up once", round_half_up(total)),
        Step("A36", f"charge needs {CHARGE_PULSES} full-rate pulses ending at pulse {attack_pulse}", eligible),
    )
    return Ramp(moves, total, round_half_up(total), eligible, trace)


def charge_eligible(pulse_rates: Sequence[Fraction], attack_pulse: int = PULSES,
                    moving_before: bool = False) -> bool:
    """A36 (Charge): with Pulse Move, 5+ consecutive full-rate pulses ending at the attack's pulse."""
    if not 1 <= attack_pulse <= len(pulse_rates):
        raise OutOfRange(f"attack_pulse must be between 1 and {len(pulse_rates)}", ("attack_pulse",))
    moved = ramp_rates(pulse_rates, moving_before)[:attack_pulse]
    return len(moved) >= CHARGE_PULSES and all(share == 1 for share in moved[-CHARGE_PULSES:])


def charge_eligible_without_pulses(rate: Fraction) -> bool:
    """A36 (Charge) without Pulse Move: the character moved at full rate that CS."""
    return Fraction(rate) == 1


MIN_ACTION = Fraction(1, 4)


def doff_time(don_time: Fraction) -> Fraction:
    """Table 4-1 footnote †: taking an item off takes half its donning time, at least 1/4 action."""
    if don_time < 0:
        raise OutOfRange("a donning time cannot be negative", ("don_time",))
    return max(MIN_ACTION, Fraction(don_time) / 2)


def rummage_time(items: int) -> int:
    """Table 4-1 footnote ††: retrieving from a container takes (objects in it + 1) actions."""
    if items < 0:
        raise OutOfRange("a container cannot hold fewer than 0 items", ("items",))
    return items + 1


def untie_knot_cs(tier_str: int, tier_trade_sl: int, untier_crd_mod: int, untier_str: int) -> Fraction:
    """Table 4-1 footnote †††, F42 with A46: CS to untie a knot, rounded half up, at least 1/4 action."""
    base = max(Fraction(tier_str, 10), Fraction(tier_trade_sl, 10))
    result = round_half_up(base - untier_crd_mod - max(0, untier_str - tier_str))
    return max(MIN_ACTION, Fraction(result))
