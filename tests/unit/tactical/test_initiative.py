"""Initiative (F1), roster ties (RULINGS 17, A7), passes (A6) and first-action odds."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.tactical.initiative import Combatant, first_probabilities, passes, roll_initiative


def ids(result):
    return [p.combatant.id for p in result.roster]


def test_score_is_d10_plus_awa_and_hrt_mods_minus_stun():
    result = roll_initiative([Combatant("k", awa_mod=2, hrt_mod=1, stun_penalty=3, roll=7)], random.Random(0))
    placed = result.roster[0]
    assert placed.initiative == 7
    assert placed.dice.total == 7 and placed.dice.supplied
    assert "supplied 7" in result.trace[0].detail


def test_roster_runs_from_highest_score_down():
    people = [Combatant("a", roll=3), Combatant("b", roll=9), Combatant("c", roll=5, awa_mod=5)]
    result = roll_initiative(people, random.Random(0))
    assert ids(result) == ["c", "b", "a"]
    assert [p.initiative for p in result.roster] == [10, 9, 3]
    assert not any(p.simultaneous for p in result.roster)


def test_ties_go_to_agl_then_hrt_then_id_flagged_simultaneous():
    people = [Combatant("zed", roll=5, agl=10, hrt=3), Combatant("amy", roll=5, agl=12, hrt=1),
              Combatant("bob", roll=5, agl=10, hrt=9), Combatant("dan", roll=5, agl=10, hrt=3),
              Combatant("cat", roll=5, agl=10, hrt=3)]
    result = roll_initiative(people, random.Random(0))
    assert ids(result) == ["amy", "bob", "cat", "dan", "zed"]
    assert [p.simultaneous for p in result.roster] == [False, False, True, True, True]
    assert any(s.rule == "RULINGS 17" and "simultaneous" in s.detail for s in result.trace)


def test_coin_tie_break_is_a_seeded_shuffle_of_the_tied_only():
    people = [Combatant(name, roll=4) for name in "abcdef"] + [Combatant("top", roll=9)]
    orders = {tuple(ids(roll_initiative(people, random.Random(seed), tie_break="coin")))
              for seed in range(30)}
    assert len(orders) > 5
    assert all(order[0] == "top" for order in orders)
    first = ids(roll_initiative(people, random.Random(7), tie_break="coin"))
    assert ids(roll_initiative(people, random.Random(7), tie_break="coin")) == first


def test_dice_are_rolled_in_input_order_from_the_passed_rng():
    people = [Combatant("p"), Combatant("q", roll=2), Combatant("r")]
    expected = random.Random(42)
    faces = [expected.randint(1, 10), 2, expected.randint(1, 10)]
    result = roll_initiative(people, random.Random(42))
    assert {p.combatant.id: p.dice.total for p in result.roster} == dict(zip("pqr", faces))
    assert {p.combatant.id: p.dice.supplied for p in result.roster} == {"p": False, "q": True, "r": False}


def test_passes_list_all_first_actions_then_seconds_most_actions_first():
    roster = [Combatant("b", actions=1), Combatant("a", actions=3), Combatant("c", actions=2),
              Combatant("d", actions=0), Combatant("e", actions=2)]
    assert passes(roster) == (("a", "c", "e", "b"), ("a", "c", "e"), ("a",))


def test_extra_first_gives_every_action_of_the_fastest_group_first():
    roster = [Combatant("b", actions=1), Combatant("a", actions=3), Combatant("c", actions=2),
              Combatant("d", actions=0), Combatant("e", actions=1)]
    assert passes(roster, "extra-first") == (("a",), ("a",), ("a",), ("c",), ("c",), ("b", "e"))


def test_zero_actions_stays_on_the_roster_but_in_no_pass():
    result = roll_initiative([Combatant("idle", actions=0, roll=10), Combatant("busy", roll=1)],
                             random.Random(0))
    assert ids(result) == ["idle", "busy"]
    assert result.passes == (("busy",),)


def test_first_probabilities_of_equal_combatants_alphabetical():
    odds = first_probabilities(Combatant("a"), Combatant("b"))
    assert odds == {"a": Fraction(11, 20), "b": Fraction(9, 20)}


def test_first_probabilities_coin_splits_full_ties():
    half = Fraction(1, 2)
    assert first_probabilities(Combatant("a"), Combatant("b"), "coin") == {"a": half, "b": half}
    odds = first_probabilities(Combatant("x", awa_mod=1), Combatant("y"), "coin")
    assert odds == {"x": Fraction(119, 200), "y": Fraction(81, 200)}


def test_first_probabilities_with_a_modifier_and_agl():
    assert first_probabilities(Combatant("x", awa_mod=1), Combatant("y"))["x"] == Fraction(16, 25)
    assert first_probabilities(Combatant("y", agl=5), Combatant("x"))["y"] == Fraction(11, 20)


def test_first_probabilities_fix_supplied_rolls_and_count_actions():
    assert first_probabilities(Combatant("x", roll=10), Combatant("y"))["x"] == 1
    assert first_probabilities(Combatant("x", roll=1), Combatant("y", roll=2))["y"] == 1
    assert first_probabilities(Combatant("x", roll=10), Combatant("y", actions=2))["y"] == 1
    assert first_probabilities(Combatant("x", actions=0), Combatant("y", actions=0)) == {"x": 0, "y": 0}


def test_first_probabilities_only_for_two():
    assert roll_initiative([Combatant("a"), Combatant("b")], random.Random(1)).first_probabilities is not None
    assert roll_initiative([Combatant("a")], random.Random(1)).first_probabilities is None


def test_duplicate_ids_name_the_second():
    with pytest.raises(Contradiction) as caught:
        roll_initiative([Combatant("a"), Combatant("b"), Combatant("a")], random.Random(0))
    assert caught.value.field == ("combatants", 2, "id")


def test_bad_supplied_roll_and_options_are_refused():
    with pytest.raises(RulesError) as caught:
        roll_initiative([Combatant("a"), Combatant("b", roll=11)], random.Random(0))
    assert caught.value.field == ("combatants", "1", "roll")
    with pytest.raises(UnknownName):
        roll_initiative([Combatant("a")], random.Random(0), tie_break="dice")
    with pytest.raises(UnknownName):
        roll_initiative([Combatant("a")], random.Random(0), pass_order="random")
