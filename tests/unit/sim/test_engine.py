"""The engine: reproducible, chunk-order independent, and each rule visible in the counts."""
from __future__ import annotations

import numpy as np
import pytest

from service.rules.errors import RulesError
from service.sim import chunks
from service.sim.attack import land_blow
from service.sim.engine import simulate
from service.sim.matchup import parse
from service.sim.state import COLLAPSED, DEAD, STANDING, State
from service.sim.tally import Tally, merge
from tests.unit.sim.conftest import fighter, matchup


def same(a: Tally, b: Tally) -> bool:
    return a.to_dict() == b.to_dict()


def test_same_seed_same_counts(duel):
    once = chunks.run(duel, 3000, seed=11, chunk_size=700)
    assert same(once, chunks.run(duel, 3000, seed=11, chunk_size=700))
    assert not same(chunks.run(duel, 3000, seed=11), chunks.run(duel, 3000, seed=12))


def test_merge_does_not_depend_on_chunk_order(knight_vs_bandits):
    forward = chunks.run(knight_vs_bandits, 2500, seed=5, chunk_size=600)
    backward = chunks.run(knight_vs_bandits, 2500, seed=5, chunk_size=600, order=[4, 3, 2, 1, 0])
    assert same(forward, backward)


def test_merge_is_associative_and_counts_every_fight(duel):
    m = parse(duel)
    a, b, c = (chunks.run_chunk(m, i, 400 + i, seed=3) for i in range(3))
    assert same(merge(merge(a, b), c), merge(a, merge(b, c)))
    total = merge(a, b, c)
    assert int(total.trials) == 1203 == int(total.wins.sum() + total.draws) == int(total.segments.sum())
    assert same(Tally.from_dict(total.to_dict()), total)


def test_plan_splits_into_fixed_chunks():
    assert chunks.plan(10, 4) == [4, 4, 2]
    assert chunks.plan(8, 4) == [4, 4]


def test_outcomes_are_consistent(knight_vs_bandits):
    m = parse(knight_vs_bandits)
    t = simulate(m, 4000, np.random.default_rng(2))
    assert (t.status.sum(axis=1) == 4000).all() and (t.wounds.sum(axis=1) == 4000).all()
    knight_standing = int(t.status[0, 0])
    assert knight_standing == int(t.wins[0])  # the knight's side wins exactly when he is still up
    assert int(t.first.sum()) == 4000 and (t.first_wins <= t.first).all()
    assert int(t.events[1]) <= int(t.events[0])


def test_the_stronger_side_wins_more(duel):
    duel["sides"][0]["combatants"][0]["weapons"][0]["av"] = 80
    t = chunks.run(duel, 4000, seed=1)
    assert t.wins[0] > 1.3 * t.wins[1]


def test_segment_cap_makes_a_draw():
    body = matchup([fighter("a", 1, 0, 100)], [fighter("b", 1, 0, 100)], max_segments=3)
    t = chunks.run(body, 500, seed=9)
    assert int(t.draws) == int(t.capped) == 500 - int(t.wins.sum())
    assert int(t.segments[3]) >= int(t.capped) > 400


def _blow(attacker: dict, target: dict, pot: int, wounds: int = 0) -> State:
    m = parse(matchup([attacker], [target]))
    st = State.start(m, 1)
    st.wounds[0, 1] = wounds
    one = np.array([0])
    land_blow(m, st, np.random.default_rng(0), one, one, one + 1, np.array([pot]))
    return st


def test_armor_meets_the_blow_then_wears_the_outer_layer():
    target = fighter("t", 50, 30, 10, [{"type": "doublemail", "dr": 20, "durability": 40},
                                       {"type": "padded", "dr": 10}], **{"P-RES": 90})
    st = _blow(fighter("a", 50, 30, 10), target, pot=30)
    assert st.wounds[0, 1] == 0
    assert st.durability[0, 1].tolist() == [40 - 5, 10]  # sword size 6, medium: DB 3 + 2 = 5


def test_edged_blow_without_armor_wounds_at_least_once():
    target = fighter("t", 50, 30, 10, **{"P-RES": 90})  # WT = 24/8 = 3
    assert _blow(fighter("a", 50, 30, 10), target, pot=2).wounds[0, 1] == 1
    blunt = fighter("a", 50, 30, 10)
    blunt["weapons"][0]["edged"] = False
    assert _blow(blunt, target, pot=2).wounds[0, 1] == 0
    assert _blow(blunt, target, pot=7).wounds[0, 1] == 2  # 7 > 2*3, not > 3*3


def test_tenth_wound_collapses_or_kills_and_eleventh_kills():
    target = fighter("t", 50, 30, 10, **{"P-RES": 90})
    assert _blow(fighter("a", 50, 30, 10), target, pot=1, wounds=9).status[0, 1] in (COLLAPSED, DEAD)
    assert _blow(fighter("a", 50, 30, 10), target, pot=1, wounds=10).status[0, 1] == DEAD
    assert _blow(fighter("a", 50, 30, 10), target, pot=1, wounds=0).status[0, 1] == STANDING


def test_bad_matchups_name_the_field():
    with pytest.raises(RulesError) as error:
        parse(matchup([fighter("a", 50, 30, 10)]))
    assert error.value.field == ("sides",)
    bad = matchup([fighter("a", 50, 30, 10)], [fighter("b", "x", 30, 10)])
    with pytest.raises(RulesError) as error:
        parse(bad)
    assert error.value.field == ("sides", 1, "combatants", 0, "weapons", 0, "av")
    with pytest.raises(RulesError) as error:
        parse({**matchup([fighter("a", 50, 30, 10)], [fighter("b", 50, 30, 10)]), "options": {"method": "x"}})
    assert error.value.field == ("options", "method")


def test_the_engine_defends_as_the_resolver_does():
    from service.sim.attack import _defend

    m = parse(matchup([fighter("a", 50, 40, 30)], [fighter("b", 50, 40, 30)]))
    st = State.start(m, 3)
    rows, a, b = np.arange(3), np.zeros(3, np.int64), np.ones(3, np.int64)
    st.uses[rows, a, 0] = 1  # a's sword has just attacked and missed
    st.pain0[1, 0] = 10  # a is stunned in the second fight: 10 off his DV
    assert _defend(m, st, rows, a, reprisal=True).tolist() == [30, 20, 30]  # Parry 40 -> 20 < Dodge 30
    assert st.recovered[:, 0].tolist() == [False, False, False]  # the Dodge was used, not the sword
    st2 = State.start(m, 1)
    st2.uses[0, 0, 0] = 1
    st2.dodges[0, 0] = 5  # Dodge worn down to 1: the halved Parry 20 is the best left
    assert _defend(m, st2, np.arange(1), np.zeros(1, np.int64), reprisal=True).tolist() == [20]
    assert st2.recovered[0, 0] and st2.uses[0, 0, 0] == 1
    assert _defend(m, st2, np.arange(1), np.zeros(1, np.int64), reprisal=False).tolist() == [40]  # as if first
    assert st2.uses[0, 0, 0] == 1 and not st2.recovered[0, 0]
