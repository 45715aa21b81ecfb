"""Invariants of the simulator over generated matchups and seeds."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from service.sim import chunks, vrules
from service.sim.matchup import parse
from service.sim.tally import Tally, merge
from tests.unit.sim.conftest import fighter, matchup

FAST = settings(max_examples=25, deadline=None)


@st.composite
def matchups(draw):
    def one(name):
        kinds = st.sampled_from([("padded", 10), ("singlemail", 40), ("doublemail", 40), ("field-plate", 40)])
        layer = kinds.flatmap(lambda k: st.builds(lambda dur: {"type": k[0], "durability": dur},
                                                  st.integers(0, k[1])))
        armor = draw(st.lists(layer, max_size=2))
        av, parry, dodge = draw(st.integers(1, 90)), draw(st.integers(0, 60)), draw(st.integers(0, 40))
        return fighter(name, av, parry, dodge, armor,
                       STR=draw(st.integers(5, 20)), **{"P-RES": draw(st.integers(1, 20))})
    sizes = draw(st.lists(st.integers(1, 3), min_size=2, max_size=3))
    return matchup(*[[one(f"s{s}c{c}") for c in range(n)] for s, n in enumerate(sizes)], max_segments=30)


@FAST
@given(matchups(), st.integers(0, 2**63 - 1), st.integers(1, 300), st.integers(20, 150))
def test_every_fight_is_counted_once(body, seed, trials, chunk_size):
    m = parse(body)
    t = chunks.run(m, trials, seed, chunk_size)
    assert int(t.trials) == trials == int(t.wins.sum() + t.draws) == int(t.segments.sum())
    assert (t.status.sum(axis=1) == trials).all() and (t.wounds.sum(axis=1) == trials).all()
    assert int(t.capped) <= int(t.draws) and (t.first_wins <= t.first).all()
    assert (t.armor_dr >= 0).all() and (t.armor_dr <= t.armor_durability).all()


@FAST
@given(matchups(), st.integers(0, 2**32), st.permutations(range(4)))
def test_chunk_order_and_merge_grouping_do_not_matter(body, seed, order):
    m = parse(body)
    parts = [chunks.run_chunk(m, i, 25, seed) for i in range(4)]
    shuffled = [parts[i] for i in order]
    a = merge(*parts).to_dict()
    assert merge(*shuffled).to_dict() == a
    assert merge(merge(parts[0], parts[1]), merge(parts[2], parts[3])).to_dict() == a
    assert Tally.from_dict(a).to_dict() == a


@given(st.integers(-50, 300), st.integers(-50, 300), st.integers(0, 50))
def test_chance_is_monotone_and_clamped(av, dv, step):
    for method in ("ratio", "linear"):
        low, high = vrules.chance(np.array([av, av + step]), np.array([dv, dv]), method)
        assert 1 <= low <= high <= 99
        harder = vrules.chance(np.array([av]), np.array([dv + step]), method)[0]
        assert harder <= low
