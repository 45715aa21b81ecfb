"""Split a job of N trials into fixed-size chunks with their own seeds, run them, merge the counts.

Chunk i always has the same size and the same generator (`SeedSequence(seed, spawn_key=(i,))`,
i.e. the i-th child of `SeedSequence(seed).spawn`), so the merged tally depends only on
(matchup, trials, seed, chunk size), never on how many workers ran the chunks or in what order.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import numpy as np

from service.sim.engine import simulate
from service.sim.matchup import Matchup, parse
from service.sim.tally import Tally, merge

DEFAULT_CHUNK = 20_000


def plan(trials: int, chunk_size: int = DEFAULT_CHUNK) -> list[int]:
    """The trial count of each chunk: full chunks, then the remainder."""
    if trials < 1 or chunk_size < 1:
        raise ValueError("trials and chunk_size must be positive")
    full, rest = divmod(trials, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


def chunk_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of chunk `index` of a job seeded `seed`."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def run_chunk(matchup: Matchup | Mapping[str, Any], index: int, trials: int, seed: int) -> Tally:
    """One chunk: a pure function of its arguments."""
    m = matchup if isinstance(matchup, Matchup) else parse(matchup)
    return simulate(m, trials, chunk_rng(seed, index))


def run(matchup: Matchup | Mapping[str, Any], trials: int, seed: int, chunk_size: int = DEFAULT_CHUNK,
        order: Iterable[int] | None = None, progress: Callable[[int], Any] | None = None) -> Tally:
    """Every chunk of a job in this process (in `order` if given), merged."""
    m = matchup if isinstance(matchup, Matchup) else parse(matchup)
    sizes = plan(trials, chunk_size)
    parts = []
    for index in order if order is not None else range(len(sizes)):
        parts.append(run_chunk(m, index, sizes[index], seed))
        if progress:
            progress(sizes[index])
    return merge(*parts)
