"""Surprise!! (F5-F8, A30-A32, RULINGS 18), the trap ruling, and the Surprise DV."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, RulesError
from service.rules.tactical.surprise import (Springer, Verdict, check_dv, classify, odds, recovery, surprise,
                                             surprise_dv)


def test_seed_example_beats_by_10_misses_by_5():
    result = surprise(60, 40, None, (50, 45))
    assert (result.aggressor.margin, result.target.margin) == (10, -5)
    assert result.verdict == Verdict("overwhelmed", 2, 15)


@pytest.mark.parametrize(("a", "t", "expected"), [
    (-1, 10, Verdict("none", 0, 0)),
    (-1, -1, Verdict("none", 0, 0)),
    (5, 9, Verdict("not-surprised", 0, 0)),
    (7, 7, Verdict("not-surprised", 0, 0)),  # RULINGS 18
    (0, 0, Verdict("not-surprised", 0, 0)),
    (9, 5, Verdict("stunned", 1, 0)),
    (0, -1, Verdict("overwhelmed", 1, 1)),
    (20, -5, Verdict("overwhelmed", 3, 25)),  # 2.5 rounds up
    (10, -4, Verdict("overwhelmed", 1, 14)),
    (60, -40, Verdict("overwhelmed", 10, 100)),
])
def test_outcomes(a, t, expected):
    assert classify(a, t) == expected


def test_trap_is_the_targets_simple_roll():
    assert classify(None, 0) == Verdict("none", 0, 0)
    assert classify(None, -7) == Verdict("overwhelmed", 1, 7)
    assert classify(None, -35) == Verdict("overwhelmed", 4, 35)
    result = surprise(None, 40, None, (None, 75), trap=True)
    assert result.aggressor is None and result.verdict == Verdict("overwhelmed", 4, 35)
    assert result.trace[0].rule == "Referee ruling"


def test_exact_odds_of_an_even_check():
    probabilities, _ = odds(50, 50)
    assert probabilities == {"none": Fraction(1, 2), "overwhelmed": Fraction(1, 4),
                             "stunned": Fraction(49, 400), "not-surprised": Fraction(51, 400)}


def test_trap_odds_and_expected_stun():
    probabilities, expected = odds(None, 90)
    assert probabilities == {"none": Fraction(9, 10), "overwhelmed": Fraction(1, 10),
                             "stunned": 0, "not-surprised": 0}
    assert expected == Fraction(1, 10)  # every failure by 1..10 stuns for 1 CS
    assert odds(None, 100) == ({"none": 1, "overwhelmed": 0, "stunned": 0, "not-surprised": 0}, 0)


def test_expected_stun_of_a_sure_aggressor_against_a_sure_failure():
    # aggressor chance 100: margin 100 - r; target chance 0 fails by its face f: total 100 - r + f
    _, expected = odds(100, 0)
    brute = sum(Fraction(max(1, int(Fraction(100 - r + f, 10) + Fraction(1, 2))))
                for r in range(1, 101) for f in range(1, 101)) / 10_000
    assert expected == brute == Fraction(10051, 1000)  # mean total 100, halves round up, min 1


@pytest.mark.parametrize(("dv", "penalty", "expected"), [
    (30, 15, (15, 3, (15, 14, 13))),
    (25, 2, (13, 3, (2, 1, 0))),
    (4, 1, (2, 1, (1,))),
    (0, 5, (0, 1, (5,))),
])
def test_recovery(dv, penalty, expected):
    healed = recovery(dv, penalty)
    assert (healed.hrt_check_dv, healed.stunned_cs_if_failed, healed.penalty_schedule) == expected


def test_recovery_only_for_the_overwhelmed():
    assert surprise(60, 40, None, (50, 45), dv=30).recovery.penalty_schedule == (15, 14, 13)
    assert surprise(60, 40, None, (50, 30), dv=30).recovery is None
    assert surprise(60, 40, None, (50, 45)).recovery is None


def test_surprise_dv():
    springers = [Springer(chm_mod=2, hrt_mod=1, modified_sta=25),
                 Springer(chm_mod=0, hrt_mod=3, modified_sta=15)]
    value, step = surprise_dv(10, springers)
    assert value == 10 + 2 + 3 + 2 + 5 - 5
    assert step.rule == "A31"
    assert surprise_dv(10, [Springer()])[0] == 11
    with pytest.raises(RulesError):
        surprise_dv(10, [])


def test_rolled_surprise_aggressor_first_and_reproducible():
    expected = random.Random(9)
    faces = expected.randint(1, 100), expected.randint(1, 100)
    result = surprise(55, 45, random.Random(9))
    assert (result.aggressor.roll.total, result.target.roll.total) == faces
    assert result.verdict == classify(55 - faces[0], 45 - faces[1])
    assert surprise(55, 45, random.Random(9)) == result


def test_bad_face_names_the_field():
    with pytest.raises(RulesError) as caught:
        surprise(50, 50, None, (50, 101))
    assert caught.value.field == ("rolls", "target")


def test_trap_and_aggressor_exclude_each_other():
    with pytest.raises(Contradiction) as caught:
        surprise(50, 50, None, (10, 10), trap=True)
    assert caught.value.field == ("aggressor",)
    with pytest.raises(RulesError) as caught:
        surprise(None, 50, None, (None, 10))
    assert caught.value.field == ("aggressor",)
    with pytest.raises(Contradiction) as caught:
        surprise(None, 50, None, (10, 10), trap=True)
    assert caught.value.field == ("rolls", "aggressor")


def test_check_dv():
    assert check_dv(30, None) == 30 and check_dv(None, 17) == 17 and check_dv(17, 17) == 17
    assert check_dv(None, None) is None
    with pytest.raises(Contradiction):
        check_dv(30, 17)
