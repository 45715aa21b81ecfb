"""Contested rolls (RULINGS 5, A15): margins, winner, exact odds."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from service.rules.errors import RulesError
from service.rules.tactical.contest import contest, contest_probabilities, winner


@pytest.mark.parametrize(("a", "b", "expected"), [
    (5, -1, "a"), (-3, 0, "b"), (-1, -40, "both-fail"), (20, 15, "a"), (2, 9, "b"), (7, 7, "tie"),
    (0, 0, "tie"), (0, -1, "a"),
])
def test_winner(a, b, expected):
    assert winner(a, b) == expected


def test_even_contest_odds():
    assert contest_probabilities(50, 50) == {"a": Fraction(149, 400), "b": Fraction(149, 400),
                                             "tie": Fraction(1, 200), "both-fail": Fraction(1, 4)}


def test_uneven_contest_odds():
    odds = contest_probabilities(70, 40)
    # a fails and b succeeds: 30/100 * 40/100; both fail: 30/100 * 60/100
    assert odds["b"] > Fraction(12, 100)
    assert odds["both-fail"] == Fraction(18, 100)
    assert sum(odds.values()) == 1


def test_chances_outside_the_die():
    assert contest_probabilities(100, 0)["a"] == 1
    assert contest_probabilities(-5, 0)["both-fail"] == 1
    odds = contest_probabilities(120, 100)
    assert odds["tie"] == Fraction(80, 10_000)  # a's face exactly 20 above b's
    assert odds["both-fail"] == 0 and odds["a"] > odds["b"]


def test_supplied_rolls_decide_by_margin():
    result = contest(30, 60, None, (10, 45))
    assert (result.a.margin, result.b.margin) == (20, 15)
    assert result.a.succeeded and result.b.succeeded
    assert result.winner == "a"
    assert result.a.roll.supplied
    assert "supplied 10" in result.trace[0].detail and "succeeded by 20" in result.trace[0].detail


def test_failure_margin_is_roll_minus_chance():
    result = contest(30, 60, None, (41, 90))
    assert (result.a.margin, result.b.margin) == (-11, -30)
    assert result.winner == "both-fail"
    assert "failed by 11" in result.trace[0].detail


def test_rolled_contest_uses_the_rng_a_first():
    expected = random.Random(3)
    faces = expected.randint(1, 100), expected.randint(1, 100)
    result = contest(50, 50, random.Random(3))
    assert (result.a.roll.total, result.b.roll.total) == faces
    assert result.winner == winner(50 - faces[0], 50 - faces[1])


def test_one_supplied_face_the_other_rolled():
    result = contest(50, 50, random.Random(3), (None, 100))
    assert result.b.roll.supplied and not result.a.roll.supplied
    assert result.b.margin == -50


def test_bad_face_names_the_field():
    with pytest.raises(RulesError) as caught:
        contest(50, 50, None, (0, 5))
    assert caught.value.field == ("rolls", "a")
