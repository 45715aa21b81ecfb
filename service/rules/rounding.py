"""Exact arithmetic helpers shared by every ruleset."""
from __future__ import annotations

from fractions import Fraction
from typing import Literal

Number = int | Fraction
Progression = Literal["triangular", "linear"]


def exact(value: int | float | str | Fraction) -> Fraction:
    """Turn a caller's number into an exact fraction (floats via their decimal text, so 0.1 stays 0.1)."""
    if isinstance(value, float):
        return Fraction(int(value)) if value.is_integer() else Fraction(repr(value))
    return Fraction(value)


def round_half_up(value: Number) -> int:
    """Round to the nearest whole number, .5 going up (RULINGS 2: 1.5->2, 4.5->5, 5.5->6).

    Worked in integers, floor((2n + d) / 2d) for n/d, which is floor(n/d + 1/2) without building fractions."""
    if type(value) is int:
        return value
    if type(value) is not Fraction:
        value = Fraction(value)
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def half_up_quotient(numerator: Number, denominator: Number) -> int:
    """round_half_up(numerator / denominator), in integers when both are (RULINGS 2)."""
    if type(numerator) is int and type(denominator) is int and denominator > 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return round_half_up(Fraction(numerator, denominator))


def progressive(n: int, scheme: Progression = "triangular") -> int:
    """A "Progressive" DV, bonus or penalty for a count n (RULINGS 3).

    The seed never defines the scale; Referee's default is the triangular series n(n+1)/2,
    which the death check (10th wound, DV 55) supports. `linear` (n) is the alternative.
    """
    if n <= 0:
        return 0
    return n if scheme == "linear" else n * (n + 1) // 2


def halve_times(value: Number, times: int) -> int:
    """round_half_up(value / 2**times), always from the original value (RULINGS 7, 14)."""
    return round_half_up(Fraction(value) / (2 ** max(0, times)))
