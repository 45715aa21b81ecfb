"""The array engine and one-fight-at-a-time Python agree: win rates and mean segments within 4 SE.

Against `service.sim.reference` (the same rules, plain Python) always; against the Combat Segment
resolver (`service.rules.tactical.segment`, looped in Python by `service.sim.resolver_loop`) when
that module exists.
"""
from __future__ import annotations

import importlib.util
import math
import random

import numpy as np
import pytest

from service.sim import chunks, reference
from service.sim.matchup import parse
from tests.unit.sim.conftest import KNIGHT, fighter, matchup

PAD = [{"type": "padded", "dr": 10}]
MAIL = [{"type": "singlemail", "dr": 10, "durability": 40}]
MATCHUPS = {
    "duel": matchup([fighter("a", 60, 35, 20, PAD)], [fighter("b", 50, 40, 25, MAIL, STR=15)]),
    "knight-vs-three": matchup([KNIGHT], [dict(fighter("bandit", 45, 25, 15, PAD), id=f"b{i}")
                                          for i in range(3)]),
    "two-vs-two-linear": matchup([fighter("a", 50, 30, 20), fighter("b", 45, 30, 30, MAIL)],
                                 [fighter("c", 55, 25, 20, PAD), fighter("d", 40, 40, 20)],
                                 method="linear", targeting="random"),
}
RESOLVER = importlib.util.find_spec("service.rules.tactical.segment") is not None


def close(python: list[tuple[int, int]], engine_counts, sides: int) -> None:
    n = len(python)
    engine_n = int(engine_counts.trials)
    for side in range(sides):
        p = np.mean([w == side for w, _ in python])
        q = engine_counts.wins[side] / engine_n
        se = math.sqrt(max(q * (1 - q), 1e-4) / n + q * (1 - q) / engine_n)
        assert abs(p - q) <= 4 * se, (side, p, q)
    lengths = np.array([s for _, s in python], float)
    mean = (np.arange(len(engine_counts.segments)) * engine_counts.segments).sum() / engine_n
    se = max(lengths.std(ddof=1), 0.5) / math.sqrt(n)
    assert abs(lengths.mean() - mean) <= 4 * se, (lengths.mean(), mean)


@pytest.mark.parametrize("name", sorted(MATCHUPS))
def test_engine_agrees_with_the_python_reference(name):
    m = parse(MATCHUPS[name])
    rng = random.Random(2024)
    python = [reference.fight(m, rng) for _ in range(600)]
    close(python, chunks.run(m, 60_000, seed=77), len(m.sides))


@pytest.mark.skipif(not RESOLVER, reason="service.rules.tactical.segment (the Combat Segment resolver) is "
                                         "not in the tree yet")
@pytest.mark.parametrize("name", sorted(MATCHUPS))
def test_engine_agrees_with_the_segment_resolver(name):
    from service.sim import resolver_loop

    m = parse(MATCHUPS[name])
    python = resolver_loop.fights(MATCHUPS[name], 400, seed=99)
    close(python, chunks.run(m, 60_000, seed=78), len(m.sides))
