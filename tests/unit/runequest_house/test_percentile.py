"""Percentile degrees (rules document §2): bands, exact odds, modifiers."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.runequest_house import contest, percentile
from service.rules.runequest_house.engine import read_ruleset_options

OPTIONS = read_ruleset_options(None, ("options",))


@pytest.mark.parametrize("skill, bands", [
    (55, (3, 11, 55, 99)),     # 2.75 -> 3, 11, fumble count 2.25 -> 2
    (50, (3, 10, 50, 98)),     # 2.5 rounds up; (100-50)/20 = 2.5 -> 3
    (10, (1, 2, 10, 96)),      # 0.5 -> 1; 4.5 -> 5
    (100, (5, 20, 95, 100)),   # success capped at 95; one fumble from 100 up
    (0, (1, 1, 5, 96)),        # 01-05 always succeed
    (-40, (1, 1, 5, 94)),      # fumble count 7
    (200, (10, 40, 95, 100)),
])
def test_bands(skill, bands):
    found = percentile.bands(skill, OPTIONS)
    assert (found.critical, found.special, found.success, found.fumble_from) == bands


def test_odds_are_exact_hundredths_summing_to_one():
    odds = percentile.bands(55, OPTIONS).probabilities()
    assert odds == {"critical": Fraction(3, 100), "special": Fraction(8, 100), "success": Fraction(44, 100),
                    "fumble": Fraction(2, 100), "failure": Fraction(43, 100)}
    assert sum(odds.values()) == 1


def test_a_flexible_weapon_doubles_the_fumble_count():
    assert percentile.bands(55, OPTIONS, 2).fumble_from == 97


def test_degree_of_each_face():
    found = percentile.bands(55, OPTIONS)
    assert [found.degree(f) for f in (1, 3, 4, 11, 12, 55, 56, 98, 99, 100)] == [
        "critical", "critical", "special", "special", "success", "success", "failure", "failure", "fumble", "fumble"]


def test_modifiers_add_first_then_multiply_then_round_half_up_once():
    assert percentile.effective(65, [-10], [Fraction(1, 2)]) == 28  # 27.5 -> 28
    assert percentile.effective(65, [-10], [Fraction(1, 2)], "multiply_then_add") == 23  # 32.5 - 10 = 22.5 -> 23
    assert percentile.effective(47, [], [Fraction(1, 5)]) == 9  # 9.4


def test_degree_fractions_can_be_replaced():
    options = read_ruleset_options({"degree_fractions": {"critical": "1/10", "special": "1/4", "fumble": "1/10"}},
                                   ("options",))
    found = percentile.bands(60, options)
    assert (found.critical, found.special, found.fumble_from) == (6, 15, 97)


def test_contest_higher_degree_wins_and_resistance_is_clamped():
    same = contest.contest(percentile.bands(50, OPTIONS), percentile.bands(50, OPTIONS))
    assert same["a"] == same["b"] and sum(same.values()) == 1
    assert contest.maneuver_bonus(4, 3) == 5 and contest.maneuver_bonus(3, 4) == 0
    assert contest.resistance(10, 10, OPTIONS) == 50 and contest.resistance(30, 10, OPTIONS) == 95
    assert contest.resistance(10, 30, OPTIONS) == 5
