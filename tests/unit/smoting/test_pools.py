"""Exact d6 pools against the seed's worked example (*Damage*, Georeg) and enumeration."""
from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.smoting import pools


def test_georeg_attack_scores_three_successes_with_the_six_rerolled():
    dice = DiceSource.for_calculator(None, {"attack": [1, 3, 5, 5, 6, 4]})
    faces, successes = pools.roll(dice, "attack", 5)
    assert faces == [1, 3, 5, 5, 6, 4] and successes == 3
    assert dice.seed is None and dice.rolled[0].supplied


def test_georeg_damage_totals_four_under_five_plus():
    dice = DiceSource.for_calculator(None, {"damage": [2, 4, 5, 5, 2, 4, 5, 6, 3]})
    assert pools.roll(dice, "damage", 8)[1] == 4


def test_without_rerolls_a_pool_is_binomial():
    for n in range(5):
        table = {k: pools.exactly(n, k, 5, False) for k in range(n + 1)}
        brute = {k: Fraction(0) for k in range(n + 1)}
        for faces in product(range(1, 7), repeat=n):
            brute[sum(f >= 5 for f in faces)] += Fraction(1, 6**n)
        assert table == brute


@pytest.mark.parametrize("success_min", [2, 4, 5, 6])
def test_one_exploding_die_matches_its_chain(success_min):
    # one die: j sixes then a final non-6 face; successes = j + [final >= success_min]
    for k in range(6):
        expected = Fraction(0)
        for j in range(k + 1):
            chain = Fraction(1, 6) ** j
            final = Fraction(max(0, 6 - success_min), 6) if k - j == 1 else Fraction(min(5, success_min - 1), 6)
            if k - j in (0, 1):
                expected += chain * final
        assert pools.exactly(1, k, success_min) == expected


def test_tables_sum_to_one_and_means_match():
    for n in range(0, 8):
        assert sum(pools.table(n).values()) == 1
        assert pools.expected(n) == Fraction(2 * n, 5)
        assert pools.at_least(n, 1) == 1 - Fraction(2, 3) ** n


def test_leftover_faces_are_refused_with_the_role():
    dice = DiceSource.for_calculator(None, {"pool": [1, 2, 3]})
    pools.roll(dice, "pool", 2)
    with pytest.raises(RulesError) as refused:
        pools.refuse_leftovers(dice, "pool", True)
    assert refused.value.field == ("rolls", "pool")


def test_generated_faces_are_the_ones_randint_gives():
    # the round's fast path must not change any seeded answer: same faces, same order, same record
    a, b = random.Random(11), random.Random(11)
    assert pools.d6s(a, 5000) == [b.randint(1, 6) for _ in range(5000)]
    for sides in (2, 3, 5, 7, 20):
        assert pools.d6s(a, 500, sides) == [b.randint(1, sides) for _ in range(500)]
    fast, slow = DiceSource(3), DiceSource(3)
    assert pools.roll(fast, "attack", 6, 5, True, "x") == _slow_roll(slow, "attack", 6, "x")
    assert fast.dice() == slow.dice()
    assert pools.plain(fast, "location", 4, "x") == slow.roll("location", 4, 6, combatant="x")
    assert pools.plain(fast, "effect", 1) == slow.roll("effect", 1, 6)
    assert pools.plain(fast, "tie_break", 1, sides=3) == slow.roll("tie_break", 1, 3)


def _slow_roll(dice, role, n, who):
    faces, pending = [], n
    while pending:
        batch = [dice.take(role, 6, who)[0] for _ in range(pending)]
        faces += batch
        pending = batch.count(6)
    dice.record(role, f"{n}d6", faces, sum(f >= 5 for f in faces), False, who)
    return faces, sum(f >= 5 for f in faces)
