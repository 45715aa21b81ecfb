"""The stress die (ArM4, *3. Melee* botch dice): exact odds checked against brute-force enumeration of
chains up to a depth where the rest is provably tiny, and rolls built from supplied faces."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.ars_magica import stress
from service.rules.dice import DiceSource
from service.rules.errors import RulesError


def enumerate_die(depth: int = 7) -> dict[int, Fraction]:
    """Stress-die values by enumeration, chains cut at `depth` ones (the cut mass is returned under -1)."""
    out: dict[int, Fraction] = {}
    def chain(mult: int, weight: Fraction, level: int) -> None:
        if level > depth:
            out[-1] = out.get(-1, Fraction(0)) + weight
            return
        for g in range(10):
            if g == 1:
                chain(mult * 2, weight / 10, level + 1)
            else:
                v = mult * (10 if g == 0 else g)
                out[v] = out.get(v, Fraction(0)) + weight / 10
    for f in range(10):
        if f == 1:
            chain(2, Fraction(1, 10), 1)
        else:
            out[f] = out.get(f, Fraction(0)) + Fraction(1, 10)
    return out


def test_single_die_tail_matches_enumeration_within_the_cut_mass():
    values = enumerate_die()
    cut = values.pop(-1)
    for x in (-3, 0, 1, 2, 5, 9, 10, 12, 17, 20, 33, 40, 81, 160):
        enumerated = sum(p for v, p in values.items() if v >= x)
        assert enumerated <= stress.stress_at_least(x) <= enumerated + cut


def test_known_values():
    assert stress.stress_at_least(10) == Fraction(1, 10) * stress.chain_at_least(5)
    assert stress.chain_at_least(3) == Fraction(8, 10) + Fraction(1, 10)  # 3..10, or another 1 (2T >= 4)
    assert stress.chain_at_least(5) == Fraction(6, 10) + stress.chain_at_least(3) / 10
    assert stress.stress_at_least(2) == Fraction(9, 10)
    assert stress.botch_chance(1) == Fraction(1, 100)
    assert stress.botch_chance(2) == Fraction(19, 1000)
    assert stress.botch_chance(0) == 0


@pytest.mark.parametrize("a,d,k", [(0, 0, 0), (5, 2, 7), (3, 9, -40), (0, 0, 1000), (2, 1, -3), (7, 7, 14)])
def test_opposed_rolls_are_complementary_exactly(a, d, k):
    x, y = stress.stress_roll(a, 1), stress.stress_roll(d, 2, botched_value=0)
    assert stress.greater(x, y, k) + stress.greater(y, x, -k - 1) + x.excluded == 1


def test_opposed_matches_enumeration():
    values = enumerate_die(5)
    cut = values.pop(-1)
    for k in (-12, -1, 0, 3, 14, 30):
        enumerated = sum(p * q for a, p in values.items() for b, q in values.items() if a - b > k)
        exact = stress.greater(stress.stress_roll(0, 0), stress.stress_roll(0, 0), k)
        assert enumerated <= exact <= enumerated + 2 * cut


def test_a_roll_from_supplied_faces_chains_and_botches():
    dice = DiceSource.for_calculator(None, {"attack": [1, 1, 4], "defence": [0], "defence_botch": [0, 3]})
    a = stress.roll_stress(dice, "attack", 1, "attack_botch")
    d = stress.roll_stress(dice, "defence", 2, "defence_botch")
    assert (a.faces, a.value, a.botched) == ((1, 1, 4), 16, False)
    assert (d.value, d.botches, d.total(12)) == (0, 1, 0)
    assert [r["role"] for r in dice.dice()] == ["attack", "defence", "defence_botch"]
    assert dice.dice()[0] == {"role": "attack", "expression": "1d10", "dice": [1, 1, 4], "total": 16,
                              "supplied": True}


def test_a_zero_after_a_one_counts_ten():
    dice = DiceSource.for_calculator(None, {"attack": [1, 0]})
    assert stress.roll_stress(dice, "attack", 1, "attack_botch").value == 20


def test_a_face_outside_the_die_and_leftovers_are_refused():
    with pytest.raises(RulesError) as bad:
        stress.roll_stress(DiceSource.for_calculator(None, {"attack": [10]}), "attack", 1, "b")
    assert bad.value.field == ("rolls", "attack", 0)
    dice = DiceSource.for_calculator(None, {"attack": [4, 5]})
    stress.roll_stress(dice, "attack", 1, "attack_botch")
    with pytest.raises(RulesError) as extra:
        stress.refuse_leftovers(dice, ("attack",))
    assert extra.value.field == ("rolls", "attack", 1)
