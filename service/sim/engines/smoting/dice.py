"""Dice of the vectorised smoting duel, one value per fight: success pools, action dice, injury rolls.

A pool of n d6 scores the 6s rolled along the way (negative binomial: sixes before n non-6 faces) plus the
final non-6 faces at or above `success_min` (binomial): the distribution `service.rules.smoting.pools`
rolls face by face (smoting.md section 2), sampled without a loop over fights.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from service.rules.smoting import injury, tables
from service.rules.smoting.fighters import ATTRIBUTES

BIGGEST = 40   # pools up to this size are sampled from a table; larger ones (rare) from numpy's distributions
MOST = 120     # successes a table pool may show (the mass above is far below 1e-15)


def alias(pmf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias tables of each row of `pmf` (flat: row x width + column): keep column k when the
    fraction drawn is below `keep`, else take `other` (one uniform and two look-ups a sample)."""
    rows, width = pmf.shape
    keep, other = np.ones((rows, width)), np.tile(np.arange(width), (rows, 1))
    for row in range(rows):
        scaled = pmf[row] / pmf[row].sum() * width
        small = [k for k in range(width) if scaled[k] < 1]
        large = [k for k in range(width) if scaled[k] >= 1]
        while small and large:
            s_, l_ = small.pop(), large[-1]
            keep[row, s_], other[row, s_] = scaled[s_], l_
            scaled[l_] -= 1 - scaled[s_]
            if scaled[l_] < 1:
                small.append(large.pop())
    return keep.ravel(), other.ravel()


def draw(rng: np.random.Generator, keep: np.ndarray, other: np.ndarray, width: int, rows: np.ndarray | int,
         size: int) -> np.ndarray:
    """Column samples of the alias tables' `rows` (one row for all, or one per sample)."""
    x = rng.random(size) * width
    k = x.astype(np.int64)
    at = rows * width + k
    return np.where(x - k < keep[at], k, other[at])


@cache
def _pools(success_min: int, explode: bool) -> tuple[np.ndarray, np.ndarray]:
    """Alias tables of the successes of n dice, n = 0 .. BIGGEST (row n, column k = P(k successes))."""
    n = np.arange(BIGGEST + 1)[:, None]
    k = np.arange(MOST)[None, :]
    if explode:
        q = (6 - success_min) / 5
        finals = np.exp(_log_comb(n, k) + k * np.log(q or 1e-300) + (n - k) * np.log1p(-q)) * (k <= n)
        sixes = np.exp(_log_comb(n + k - 1, k) + k * np.log(1 / 6) + n * np.log(5 / 6))
        sixes[0] = (k == 0)[0]
        pmf = np.array([np.convolve(finals[i], sixes[i])[:MOST] for i in range(BIGGEST + 1)])
    else:
        q = (7 - success_min) / 6
        pmf = np.exp(_log_comb(n, k) + k * np.log(q) + (n - k) * np.log1p(-q)) * (k <= n)  # q < 1: success_min >= 2
    return alias(np.maximum(pmf, 0.0))


def _log_comb(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    n, k = np.broadcast_arrays(n, k)
    ok = (k >= 0) & (n >= k)
    out = np.full(n.shape, -np.inf)
    out[ok] = (np.vectorize(math.lgamma)(n[ok] + 1.0) - np.vectorize(math.lgamma)(k[ok] + 1.0)
               - np.vectorize(math.lgamma)(n[ok] - k[ok] + 1.0))
    return out


class Pools:
    """Success pools under the options `success_min` and `explode`."""

    def __init__(self, rng: np.random.Generator, options: Mapping[str, Any]):
        self.rng, self.explode = rng, options["explode"]
        s = options["success_min"]
        self.final = (6 - s) / 5 if self.explode else (7 - s) / 6
        self.keep, self.other = _pools(s, self.explode)

    def successes(self, dice: np.ndarray) -> np.ndarray:
        """Successes of pools of `dice` d6 each (negative sizes roll nothing)."""
        n = np.maximum(dice, 0)
        if n.size and n.max() > BIGGEST:
            return self.sampled(n)
        return draw(self.rng, self.keep, self.other, MOST, n, n.size)

    def sampled(self, n: np.ndarray) -> np.ndarray:
        """The same distribution drawn from numpy's binomial and negative binomial (any pool size)."""
        got = self.rng.binomial(n, self.final)
        if self.explode:
            got += np.where(n > 0, self.rng.negative_binomial(np.maximum(n, 1), 5 / 6), 0)
        return got


class Injuries:
    """The injury tables of the options as arrays: P(each deciding face of 4d6) and, by face and effect row,
    the effect's rank losses, burns, discard and save (seed *Injury Table*, *Effects Table.*)."""

    def __init__(self, options: Mapping[str, Any]):
        odds = injury.face_odds()[0]
        self.face_p = np.array([float(odds[f]) for f in range(1, 7)])
        self.face_cdf = np.cumsum(self.face_p / self.face_p.sum())
        self.face_cdf[-1] = 1.0
        kinds = tables.load("injury-locations")["kinds"]
        names = sorted(tables.load("injury-effects")["effects"])
        data = [injury.effect_data(name) for name in names]
        self.effect = np.zeros((7, 8), dtype=np.int64)  # [face, row] -> effect index
        for face in range(1, 7):
            place = options["injury_location_map"][str(face)]
            for row in range(1, 8):
                self.effect[face, row] = names.index(options["injury_effects"][str(row)][kinds[place]])
        self.names = names
        self.physical = np.array([d["physical"] for d in data])
        self.mental = np.array([d["mental"] for d in data])
        self.burn = np.array([d["burn"] for d in data])
        self.discard = np.array([bool(d.get("discard_all")) for d in data])
        self.saves = np.array([d["save"] is not None for d in data])
        self.save_attribute = np.array([ATTRIBUTES.index(d["save"]["attribute"]) if d["save"] else 0 for d in data])
        self.save_dice = np.array([d["save"]["dice"] if d["save"] else 0 for d in data])

    def roll(self, rng: np.random.Generator, killing_blow: np.ndarray) -> np.ndarray:
        """Effect indices: the location's face, then 1d6 (+1 on a killing blow, at most row 7)."""
        face = np.searchsorted(self.face_cdf, rng.random(len(killing_blow)), side="right") + 1
        row = np.minimum(rng.integers(1, 7, size=len(killing_blow)) + killing_blow, 7)
        return self.effect[face, row]
