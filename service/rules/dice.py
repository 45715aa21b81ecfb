"""Dice shared by every ruleset: seeded rolls that keep every die, and exact distributions.

Rolls take the caller's `random.Random` (never the global one) or the caller's own faces
("physical dice at the table"); exact chances come from icepool, never from sampling.
The same layer serves d100 checks, 3d6 + skill, exploding/botching d10 stress dice and
pools of d6 counting successes.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import icepool

from service.rules.errors import RulesError


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll that remembers its dice: `expression` like "d100", each face, and the total."""

    expression: str
    dice: tuple[int, ...]
    total: int
    supplied: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"expression": self.expression, "dice": list(self.dice), "total": self.total,
                "supplied": self.supplied}


def roll(rng: random.Random, count: int, sides: int, modifier: int = 0) -> Roll:
    """Roll `count` dice of `sides` faces (1..sides) and add `modifier`."""
    faces = tuple(rng.randint(1, sides) for _ in range(count))
    return Roll(_expression(count, sides, modifier), faces, sum(faces) + modifier)


def supplied(faces: Sequence[int], count: int, sides: int, field: str, modifier: int = 0) -> Roll:
    """Accept dice the caller rolled elsewhere, checking each face is a real face of the die."""
    faces = tuple(int(f) for f in faces)
    if len(faces) != count:
        raise RulesError(f"expected {count} dice of d{sides}, got {len(faces)}", field)
    if any(not 1 <= f <= sides for f in faces):
        raise RulesError(f"every face of a d{sides} is between 1 and {sides}", field)
    return Roll(_expression(count, sides, modifier), faces, sum(faces) + modifier, supplied=True)


def d100(rng: random.Random | None = None, face: int | None = None, field: str = "roll") -> Roll:
    """One d100 read 1..100 (00 = 100, RULINGS 1): from the caller's face if given, else rolled."""
    if face is not None:
        return supplied([face], 1, 100, field)
    if rng is None:
        raise ValueError("d100 needs either an rng or a supplied face")
    return roll(rng, 1, 100)


def d10(rng: random.Random | None = None, face: int | None = None, field: str = "roll") -> Roll:
    """One d10 read 1..10, from the caller's face if given, else rolled."""
    if face is not None:
        return supplied([face], 1, 10, field)
    if rng is None:
        raise ValueError("d10 needs either an rng or a supplied face")
    return roll(rng, 1, 10)


def seeded(seed: int | None) -> tuple[random.Random, int]:
    """A private generator and the seed that reproduces it (a fresh seed when none is given)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return random.Random(seed), seed


def derive_seed(seed: int, *labels: object) -> int:
    """A stable sub-seed for a named part of a job (chunk, trial block), independent of run order."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


# --- exact distributions (icepool) -------------------------------------------------------------


def sum_distribution(count: int, sides: int, modifier: int = 0) -> dict[int, Fraction]:
    """Exact distribution of the sum of `count` d`sides` plus `modifier` (e.g. 3d6 + skill)."""
    die = count @ icepool.Die(range(1, sides + 1)) + modifier
    return _as_fractions(die)


def at_most_probability(count: int, sides: int, target: int, modifier: int = 0) -> Fraction:
    """Exact P(sum of count d`sides` + modifier <= target): the 3d6-roll-under style check."""
    die = count @ icepool.Die(range(1, sides + 1)) + modifier
    return Fraction(die.probability("<=", target))


def pool_successes(count: int, sides: int, success_at: int) -> dict[int, Fraction]:
    """Exact distribution of successes in a pool of `count` dice, a face >= success_at counting one."""
    hit = icepool.Die(range(1, sides + 1)).map(lambda face: int(face >= success_at))
    return _as_fractions(count @ hit)


def exploding(sides: int, depth: int = 3) -> dict[int, Fraction]:
    """Exact distribution of one die that re-rolls and adds on its top face, up to `depth` times."""
    return _as_fractions(icepool.Die(range(1, sides + 1)).explode(depth=depth))


def uniform_at_most(sides: int, target: int) -> Fraction:
    """P(one d`sides` <= target), clamped: the d100 check of RULINGS 1."""
    return Fraction(min(max(target, 0), sides), sides)


def _as_fractions(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(outcome): Fraction(quantity, total) for outcome, quantity in die.items()}


def _expression(count: int, sides: int, modifier: int) -> str:
    base = f"{count if count != 1 else ''}d{sides}"
    if modifier:
        return f"{base}{modifier:+d}"
    return base
