"""Exact dice distributions of `war-and-combat`: 3d6 task rolls and Nd6/1d3 impact rolls as integer
counts over every outcome (*Flurry Procedure › Resolution of Attacks*; *Damage › Impact*)."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from service.rules import memo


def convolve(a: Mapping[int, int], b: Mapping[int, int]) -> dict[int, int]:
    """Counts of the sum of two independent rolls given as outcome -> count (*Damage › Impact*)."""
    out: dict[int, int] = {}
    for x, m in a.items():
        for y, n in b.items():
            out[x + y] = out.get(x + y, 0) + m * n
    return out


@memo.bounded
def dice_counts(count: int, sides: int) -> dict[int, int]:
    """Counts of the sum of `count` d`sides` (1 way for 0 dice: the sum 0) (*Damage › Impact*)."""
    out = {0: 1}
    face = {f: 1 for f in range(1, sides + 1)}
    for _ in range(count):
        out = convolve(out, face)
    return out


THREE_D6: dict[int, int] = dice_counts(3, 6)  # 216 outcomes


def chance_at_least(need: int) -> Fraction:
    """P(3d6 >= need): 1 below 3, 0 above 18 (*Resolution of Attacks*: no automatic results)."""
    return Fraction(sum(n for t, n in THREE_D6.items() if t >= need), 216)


def fraction_text(value: Fraction) -> str:
    """The contract's exact form: "n/d" in lowest terms, always with the slash (rules README)."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def probability_pair(values: Mapping[str, Fraction]) -> tuple[dict[str, float], dict[str, str]]:
    """Numbers and exact strings of a probability object (rules README, "Exact probabilities")."""
    return ({k: float(v) for k, v in values.items()}, {k: fraction_text(v) for k, v in values.items()})
