"""The ArM4 stress die for whole arrays of fights (`service.rules.ars_magica.stress.roll_stress`, and the
botch-table die of `service.rules.ars_magica.botches.roll_index`): one numpy draw per face kind, the run of
1s sampled geometrically, never a Python loop per fight."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_DOUBLINGS = 50  # 2**50 x 10 still fits in int64; a run of 50 ones has probability 1e-50


@dataclass
class Stress:
    """Stress dice as rolled: the die's value (0 on a first 0), botch dice showing 0, and whether it botched."""

    value: np.ndarray
    botches: np.ndarray

    @property
    def botched(self) -> np.ndarray:
        """Rolls whose botch dice showed at least one 0."""
        return self.botches > 0


def _chain(rng: np.random.Generator, m: int) -> np.ndarray:
    """What a die counts after a first 1: each further 1 doubles again (geometric count), the last face
    reads 2..9 or 10 for a 0."""
    doublings = np.minimum(rng.geometric(0.9, m), MAX_DOUBLINGS)
    face = rng.integers(0, 9, m)
    return np.left_shift(np.where(face == 0, 10, face + 1), doublings)


def stress(rng: np.random.Generator, m: int, botch_dice: int) -> Stress:
    """`m` stress dice: 2..9 as read, a first 0 counts 0 and rolls `botch_dice` botch dice, a first 1
    doubles the chained re-roll."""
    face = rng.integers(0, 10, m)
    value = np.where(face == 1, 0, face)
    ones = np.flatnonzero(face == 1)
    if ones.size:
        value[ones] = _chain(rng, ones.size)
    botches = np.zeros(m, np.int64)
    if botch_dice > 0:
        zeros = np.flatnonzero(face == 0)
        if zeros.size:
            botches[zeros] = rng.binomial(botch_dice, 0.1, zeros.size)
    return Stress(value, botches)


def botch_index(rng: np.random.Generator, count: np.ndarray) -> np.ndarray:
    """The highest of `count` (>= 1) botch-table dice per fight: stress dice whose 0 counts 10 and cannot
    botch."""
    m, most = count.size, int(count.max(initial=1))
    face = rng.integers(0, 10, (m, most))
    value = np.where(face == 0, 10, face)
    ones = face == 1
    if ones.any():
        value[ones] = _chain(rng, int(ones.sum()))
    value = np.where(np.arange(most)[None, :] < count[:, None], value, 0)
    return value.max(axis=1)
