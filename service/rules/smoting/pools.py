"""d6 success pools (seed *Damage*, Georeg's worked example): each face at or above `success_min` is a
success and, when pools explode, every 6 is rolled again and may add further successes.

Exact odds: a pool of n dice ends each die on one non-6 face, so its successes are J + B, where J (the 6s
rolled along the way) is negative binomial and B (final faces at or above `success_min`) binomial; every
"exactly k" is therefore a finite sum of fractions. Sums over an unbounded range of one pool's results are
truncated once the mass left is below `TAIL` (smoting.md section 2).
"""
from __future__ import annotations

from functools import lru_cache
from fractions import Fraction
from math import comb

from service.rules.dice import DiceSource
from service.rules.errors import RulesError

TAIL = Fraction(1, 10**15)
SIX = Fraction(1, 6)


@lru_cache(maxsize=4096)
def exactly(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """P(a pool of n d6 scores exactly k successes) (seed *Damage*; smoting.md section 2)."""
    if n <= 0:
        return Fraction(int(k == 0))
    if k < 0:
        return Fraction(0)
    if not explode:
        p = Fraction(7 - success_min, 6)
        return comb(n, k) * p**k * (1 - p) ** (n - k) if k <= n else Fraction(0)
    final = Fraction(6 - success_min, 5)  # a last (non-6) face that still succeeds
    total = Fraction(0)
    for b in range(0, min(n, k) + 1):
        j = k - b
        sixes = comb(j + n - 1, j) * SIX**j * Fraction(5, 6) ** n
        total += comb(n, b) * final**b * (1 - final) ** (n - b) * sixes
    return total


def at_least(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """P(a pool of n d6 scores at least k successes) (seed *Damage*)."""
    if k <= 0:
        return Fraction(1)
    return 1 - sum((exactly(n, i, success_min, explode) for i in range(k)), Fraction(0))


def expected(n: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """Mean successes of n dice: n(7 - s)/5 with re-rolls, n(7 - s)/6 without (smoting.md section 2)."""
    return Fraction(max(n, 0) * (7 - success_min), 5 if explode else 6)


def table(n: int, success_min: int = 5, explode: bool = True) -> dict[str, Fraction]:
    """Exactly-k probabilities for k = 0 .. 2n, and `more` for anything above (the contract's keys)."""
    out = {str(k): exactly(n, k, success_min, explode) for k in range(2 * max(n, 0) + 1)}
    out["more"] = 1 - sum(out.values(), Fraction(0))
    return out


def support(n: int, success_min: int = 5, explode: bool = True) -> list[tuple[int, Fraction]]:
    """(k, P(exactly k)) from 0 until the mass left is below TAIL (all of it for finite pools)."""
    out, left, k = [], Fraction(1), 0
    while left > (0 if not explode or n <= 0 else TAIL):
        p = exactly(n, k, success_min, explode)
        out.append((k, p))
        left -= p
        k += 1
        if not explode and k > max(n, 0):
            break
    return out


def roll(dice: DiceSource, role: str, n: int, success_min: int = 5, explode: bool = True,
         combatant: str | None = None) -> tuple[list[int], int]:
    """Roll a pool: the n dice in order, then one more face for each 6 showing, breadth first
    (smoting.md section 2, "Order of faces"); returns the faces and the successes. Recorded as one roll."""
    faces: list[int] = []
    supplied = True
    pending = max(n, 0)
    while pending:
        batch = []
        for _ in range(pending):
            face, was = dice.take(role, 6, combatant)
            batch.append(face)
            supplied = supplied and was
        faces.extend(batch)
        pending = sum(face == 6 for face in batch) if explode else 0
    successes = sum(face >= success_min for face in faces)
    dice.record(role, f"{max(n, 0)}d6", faces, successes, bool(faces) and supplied, combatant)
    return faces, successes


def refuse_leftovers(dice: DiceSource, role: str, used: bool, path: tuple = ("rolls",)) -> None:
    """A role's supplied faces beyond what its roll could use answer 422 (contract conventions); faces of
    a roll the outcome skipped are ignored."""
    if used and dice.remaining(role):
        raise RulesError(f"more {role} faces than the roll used", (*path, role))
