"""Properties of initiative, surprise and contested rolls: partitions, symmetry, order, reproducibility."""
from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from service.rules.tactical.contest import contest_probabilities, winner
from service.rules.tactical.initiative import Combatant, first_probabilities, roll_initiative
from service.rules.tactical.surprise import classify, odds

chances = st.integers(-20, 130)
margins = st.integers(-150, 150)
combatant = st.builds(Combatant, id=st.text("abcdefgh", min_size=1, max_size=3), awa_mod=st.integers(-3, 3),
                      hrt_mod=st.integers(-3, 3), agl=st.integers(8, 10), hrt=st.integers(8, 10),
                      actions=st.integers(0, 3), stun_penalty=st.integers(0, 4),
                      roll=st.none() | st.integers(1, 10))
rosters = st.lists(combatant, min_size=1, max_size=12, unique_by=lambda c: c.id)


@settings(max_examples=40, deadline=None)
@given(chances, chances)
def test_contest_odds_partition_and_mirror(a, b):
    odds_ab, odds_ba = contest_probabilities(a, b), contest_probabilities(b, a)
    assert sum(odds_ab.values()) == 1
    assert odds_ab["a"] == odds_ba["b"] and odds_ab["b"] == odds_ba["a"]
    assert (odds_ab["tie"], odds_ab["both-fail"]) == (odds_ba["tie"], odds_ba["both-fail"])
    assert odds_ab["both-fail"] == Fraction(min(max(100 - a, 0), 100) * min(max(100 - b, 0), 100), 10_000)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 99), st.integers(0, 100))
def test_a_better_chance_never_wins_less(a, b):
    assert contest_probabilities(a + 1, b)["a"] >= contest_probabilities(a, b)["a"]


@given(margins, margins)
def test_winner_is_antisymmetric(a, b):
    flip = {"a": "b", "b": "a", "tie": "tie", "both-fail": "both-fail"}
    assert winner(b, a) == flip[winner(a, b)]


@given(margins, margins)
def test_surprise_verdicts_are_consistent(a, t):
    verdict = classify(a, t)
    if verdict.outcome == "overwhelmed":
        assert verdict.penalty == a - t and verdict.duration_cs >= 1 and a >= 0 > t
    else:
        assert verdict.penalty == 0
    assert (verdict.outcome == "none") == (a < 0)


@settings(max_examples=30, deadline=None)
@given(st.none() | chances, chances)
def test_surprise_odds_partition(a, t):
    probabilities, expected = odds(a, t)
    assert sum(probabilities.values()) == 1
    assert expected >= probabilities["overwhelmed"] + probabilities["stunned"]


@settings(max_examples=60, deadline=None)
@given(rosters, st.integers(0, 2**32), st.sampled_from(["alphabetical", "coin"]),
       st.sampled_from(["passes", "extra-first"]))
def test_roster_is_sorted_and_every_action_is_played(people, seed, tie_break, pass_order):
    result = roll_initiative(people, random.Random(seed), tie_break, pass_order)
    keys = [p.combatant.key(p.dice.total) for p in result.roster]
    assert keys == sorted(keys, reverse=True)
    assert sorted(p.combatant.id for p in result.roster) == sorted(c.id for c in people)
    played = [name for one_pass in result.passes for name in one_pass]
    assert sorted(played) == sorted(c.id for c in people for _ in range(c.actions))
    assert roll_initiative(people, random.Random(seed), tie_break, pass_order) == result
    for p in result.roster:
        assert p.simultaneous == (keys.count(p.combatant.key(p.dice.total)) > 1)


@settings(max_examples=60, deadline=None)
@given(combatant, combatant, st.sampled_from(["alphabetical", "coin"]))
def test_first_probabilities_sum_to_one_when_anyone_acts(a, b, tie_break):
    if a.id == b.id:
        b = Combatant(b.id + "z", b.awa_mod, b.hrt_mod, b.agl, b.hrt, b.actions, b.stun_penalty, b.roll)
    shares = first_probabilities(a, b, tie_break)
    assert sum(shares.values()) == (0 if a.actions == b.actions == 0 else 1)
