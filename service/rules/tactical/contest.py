"""Contested rolls ("Resolving the Battle"; RULINGS 5, digest §6 and A15).

Both sides roll d100 against their own chance and the margins decide. A margin here is always
signed, chance - roll: zero or more is a success by that much, below zero a failure by its
size (roll - chance). A chance outside 1..100 is allowed: for the die it acts as clamped to
0..100 (always fail, always succeed), while the margin keeps the chance as given, so a chance
of 120 beats a chance of 100 on margins. Exact odds come from enumerating all 10,000 pairs.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Hashable, Literal, TypeVar

from service.rules.dice import Roll, d100
from service.rules.trace import Step

Winner = Literal["a", "b", "tie", "both-fail"]
WINNERS: tuple[Winner, ...] = ("a", "b", "tie", "both-fail")
FACES = range(1, 101)
K = TypeVar("K", bound=Hashable)
HEADING = "Resolving the Battle"


@dataclass(frozen=True, slots=True)
class Check:
    """One side's d100 against its own chance (RULINGS 1: success when roll <= chance)."""

    chance: int
    roll: Roll

    @property
    def margin(self) -> int:
        """Signed margin, chance - roll: >= 0 succeeded by that much, < 0 failed by its size."""
        return self.chance - self.roll.total

    @property
    def succeeded(self) -> bool:
        """Whether the roll is at most the chance."""
        return self.margin >= 0


@dataclass(frozen=True, slots=True)
class ContestResult:
    """A rolled contest (RULINGS 5): both checks and who won."""

    a: Check
    b: Check
    winner: Winner
    trace: tuple[Step, ...]


def check(chance: int, rng: random.Random | None, face: int | None, field: str) -> Check:
    """Roll (or take the caller's face for) one side's d100 against its chance (RULINGS 1)."""
    return Check(chance, d100(rng, face, field))


def winner(a_margin: int, b_margin: int) -> Winner:
    """Who wins a contested roll (RULINGS 5, A15) from the two signed margins.

    The only side that succeeded wins; when both succeed the larger margin wins and equal
    margins tie; when both fail nobody wins ("both-fail").
    """
    a_ok, b_ok = a_margin >= 0, b_margin >= 0
    if not (a_ok or b_ok):
        return "both-fail"
    if a_ok != b_ok:
        return "a" if a_ok else "b"
    if a_margin == b_margin:
        return "tie"
    return "a" if a_margin > b_margin else "b"


def pair_distribution(chance_a: int, chance_b: int, judge: Callable[[int, int], K]) -> dict[K, Fraction]:
    """Exact distribution of `judge(margin_a, margin_b)` over all 10,000 pairs of d100 faces."""
    counts = Counter(judge(chance_a - ra, chance_b - rb) for ra in FACES for rb in FACES)
    return {key: Fraction(n, 10_000) for key, n in counts.items()}


def single_distribution(chance: int, judge: Callable[[int], K]) -> dict[K, Fraction]:
    """Exact distribution of `judge(margin)` over the hundred faces of one d100."""
    counts = Counter(judge(chance - face) for face in FACES)
    return {key: Fraction(n, 100) for key, n in counts.items()}


@lru_cache(maxsize=512)
def _odds(chance_a: int, chance_b: int) -> tuple[Fraction, ...]:
    found = pair_distribution(chance_a, chance_b, winner)
    return tuple(found.get(w, Fraction(0)) for w in WINNERS)


def contest_probabilities(chance_a: int, chance_b: int) -> dict[Winner, Fraction]:
    """Exact chances that a wins, b wins, they tie, or both fail (RULINGS 5), before any die is rolled."""
    return dict(zip(WINNERS, _odds(chance_a, chance_b)))


def odds_step(chance_a: int, chance_b: int) -> Step:
    """The trace line for `contest_probabilities` (RULINGS 5): odds before any die is rolled."""
    return Step("RULINGS 5", f"exact odds over all 10,000 pairs of d100 faces, chances {chance_a} and "
                             f"{chance_b}, before any die is rolled", None)


def contest(chance_a: int, chance_b: int, rng: random.Random | None,
            faces: tuple[int | None, int | None] = (None, None)) -> ContestResult:
    """Roll a contest (RULINGS 5): a rolls first, then b; a supplied face replaces that side's roll."""
    a = check(chance_a, rng, faces[0], "rolls.a")
    b = check(chance_b, rng, faces[1], "rolls.b")
    result = winner(a.margin, b.margin)
    steps = (_step("a", a), _step("b", b),
             Step("RULINGS 5", f"winner: {result} (only success wins, else larger margin; equal margins tie)",
                  result))
    return ContestResult(a, b, result, steps)


def describe(side: str, c: Check) -> str:
    """A trace line for one side's check: face, supplied or rolled, chance, signed margin."""
    how = "supplied" if c.roll.supplied else "rolled"
    verdict = f"succeeded by {c.margin}" if c.succeeded else f"failed by {-c.margin}"
    return f"{side}: d100 {how} {c.roll.total} vs chance {c.chance}: {verdict}"


def _step(side: str, c: Check) -> Step:
    return Step(HEADING, describe(side, c), c.margin)
