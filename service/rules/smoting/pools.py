"""d6 success pools (seed *Damage*, Georeg's worked example): each face at or above `success_min` is a
success and, when pools explode, every 6 is rolled again and may add further successes.

Exact odds: a pool of n dice ends each die on one non-6 face, so its successes are J + B, where J (the 6s
rolled along the way) is negative binomial and B (final faces at or above `success_min`) binomial; every
"exactly k" is therefore a finite sum of fractions. Sums over an unbounded range of one pool's results are
truncated once the mass left is below `TAIL` (smoting.md section 2).
"""
from __future__ import annotations

import random
from functools import lru_cache
from fractions import Fraction
from math import comb

from service.rules.dice import DiceSource, Roll
from service.rules.errors import Contradiction, RulesError

TAIL = Fraction(1, 10**15)


@lru_cache(maxsize=4096)
def exactly(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """P(a pool of n d6 scores exactly k successes) (seed *Damage*; smoting.md section 2).

    With re-rolls a die's generating function is ((s-1) + (6-s)x) / (6 - x), so the pool's is
    ((s-1) + (6-s)x)^n (6 - x)^-n and its x^k coefficient is one integer over 6^(n+k): b final faces at or
    above s among the n, and k - b sixes along the way (a negative binomial count)."""
    if n <= 0:
        return Fraction(int(k == 0))
    if k < 0:
        return Fraction(0)
    keep, top = success_min - 1, 6 - success_min
    if not explode:
        return Fraction(comb(n, k) * (top + 1) ** k * keep ** (n - k), 6**n) if k <= n else Fraction(0)
    total = 0
    for b in range(0, min(n, k) + 1):
        total += comb(n, b) * top**b * keep ** (n - b) * comb(k - b + n - 1, n - 1) * 6**b
    return Fraction(total, 6 ** (n + k))


def at_least(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """P(a pool of n d6 scores at least k successes) (seed *Damage*)."""
    if k <= 0:
        return Fraction(1)
    return 1 - below(n, k, success_min, explode)


_BELOW: dict[tuple[int, int, bool], list[Fraction]] = {}  # running sums of `exactly`, per pool


def below(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    """P(a pool of n d6 scores fewer than k successes), from running sums kept per pool (seed *Damage*)."""
    key = (n, success_min, explode)
    sums = _BELOW.get(key) or [Fraction(0)]
    if len(sums) <= k:
        sums = list(sums)  # a published list is never changed: threads may share it
        while len(sums) <= k:
            sums.append(sums[-1] + exactly(n, len(sums) - 1, success_min, explode))
        if len(_BELOW) > 512:
            _BELOW.clear()
        _BELOW[key] = sums
    return sums[max(k, 0)]


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
    pending = max(n, 0)
    if pending and not dice.remaining(role, combatant) and batched(dice.rng):
        faces, supplied = generated(dice.rng, pending, explode), False
    else:
        faces, supplied = _taken(dice, role, pending, explode, combatant)
    successes = 0
    for face in faces:
        successes += face >= success_min
    dice.record(role, f"{pending}d6", faces, successes, bool(faces) and supplied, combatant)
    return faces, successes


def _taken(dice: DiceSource, role: str, pending: int, explode: bool, combatant: str | None) -> tuple[list[int], bool]:
    faces: list[int] = []
    supplied = True
    while pending:
        batch = []
        for _ in range(pending):
            face, was = dice.take(role, 6, combatant)
            batch.append(face)
            supplied = supplied and was
        faces.extend(batch)
        pending = batch.count(6) if explode else 0
    return faces, supplied


def batched(rng: random.Random) -> bool:
    """Whether `d6s` can draw from `rng` in one go: a plain generator, or one with its own `faces` (an
    encounter's committed or recorded dice, each face still one recorded die)."""
    return type(rng) is random.Random or hasattr(rng, "faces")


def d6s(rng: random.Random, count: int, sides: int = 6) -> list[int]:
    """`count` faces of a d`sides` (a d6 unless told), the very faces `rng.randint(1, sides)` would give one
    after the other (its rejection sampling on random bits, without the call overhead: the round's hot path)."""
    own = getattr(rng, "faces", None)
    if own is not None:
        return own(count, sides)  # type: ignore[no-any-return]
    bits, k = rng.getrandbits, sides.bit_length()
    out = []
    for _ in range(count):
        r = bits(k)
        while r >= sides:
            r = bits(k)
        out.append(r + 1)
    return out


def plain(dice: DiceSource, role: str, count: int, combatant: str | None = None, sides: int = 6) -> Roll:
    """`count` d`sides` summed and recorded, exactly as `dice.roll(role, count, sides, combatant=combatant)`
    would (action dice, injury location and effect, tie-breaks); generated faces skip the per-die queue
    look-up."""
    if count > 0 and not dice.remaining(role, combatant) and batched(dice.rng):
        faces = d6s(dice.rng, count, sides)
        return dice.record(role, f"d{sides}" if count == 1 else f"{count}d{sides}", faces, sum(faces), False,
                           combatant)
    return dice.roll(role, count, sides, combatant=combatant)


def generated(rng: random.Random, pending: int, explode: bool) -> list[int]:
    """A pool's faces from the generator alone, in the order `roll` takes them (each 6 re-rolled,
    breadth first)."""
    faces: list[int] = []
    while pending:
        batch = d6s(rng, pending)
        faces += batch
        pending = batch.count(6) if explode else 0
    return faces


def refuse_leftovers(dice: DiceSource, role: str, used: bool, path: tuple = ("rolls",)) -> None:
    """A role's supplied faces beyond what its roll could use answer 422 (contract conventions); faces of
    a roll the outcome skipped are ignored."""
    if used and dice.remaining(role):
        raise Contradiction(f"more {role} faces than the roll used", (*path, role))
