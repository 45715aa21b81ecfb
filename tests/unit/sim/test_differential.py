"""One truth: the numpy engine predicts the Combat Segment resolver (README "Simulations").

Every matchup of `differential.MATCHUPS` is played by the resolver under the duel policy and by the
engine; win shares, draws, mean segments, hits per attack, Heroic share, Reprisals and their hit rate and
each combatant's standing/unconscious/collapsed/dead split must agree within |z| <= 4. The sizes here keep
the whole file near a minute; `make bench-differential` runs the same comparison ten times larger.
"""
from __future__ import annotations

import pytest

from tests.unit.sim import differential

RESOLVER_FIGHTS = {"one-vs-three": 700, "one-vs-three-random": 700, "two-weapons": 1200}
ENGINE_FIGHTS = 60_000


@pytest.mark.parametrize("name", sorted(differential.MATCHUPS))
def test_the_engine_predicts_the_resolver(name):
    stats = differential.run(name, RESOLVER_FIGHTS.get(name, 1500), ENGINE_FIGHTS)
    assert differential.failures(stats) == []


def test_the_comparison_sees_a_real_difference():
    one = differential.resolver_sample(differential.MATCHUPS["equal"], 800, seed=1)
    stronger = differential.matchup([differential.fighter("a", 80)], [differential.fighter("b")])
    other = differential.engine_sample(stronger, 40_000, seed=2)
    assert any(failure.startswith("win:") for failure in differential.failures(differential.compare(one, other)))
