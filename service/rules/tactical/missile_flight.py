"""When a far missile lands ("Resolving Ranged Attacks": projectile speed; A43).

Hurled objects fly about 50 ft a second and arrows about 200; inside 500 ft (hurled) or 2,000 ft (bows)
they land in the CS they are loosed. Beyond, they land in the next CS: after Initiative and before
declarations, or with Pulse Move between declarations and the first pulse.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from service.rules.trace import Step

HEADING = "Resolving Ranged Attacks"
Kind = Literal["hurled", "missile"]
SPEED = {"hurled": 50, "missile": 200}
NO_DELAY_FEET = {"hurled": 500, "missile": 2000}


@dataclass(frozen=True, slots=True)
class Flight:
    """Seconds aloft, whether it lands next CS, and when in that CS."""

    seconds: Fraction
    delayed: bool
    lands: str
    trace: tuple[Step, ...]


def flight(distance_feet: Fraction, kind: Kind, pulse_move: bool) -> Flight:
    """A43: flight time and the moment of landing for a shot at `distance_feet`."""
    seconds = Fraction(distance_feet) / SPEED[kind]
    delayed = distance_feet > NO_DELAY_FEET[kind]
    if not delayed:
        lands = "this CS, as the attack resolves"
    elif pulse_move:
        lands = "next CS, after declarations and before the first pulse"
    else:
        lands = "next CS, after the Initiative roll and before declarations"
    steps = (Step(HEADING, f"{float(distance_feet):g} ft at {SPEED[kind]} ft/s", seconds),
             Step("A43", f"beyond {NO_DELAY_FEET[kind]} ft it lands next CS" if delayed else
                  f"within {NO_DELAY_FEET[kind]} ft: no delay", delayed))
    return Flight(seconds, delayed, lands, steps)
