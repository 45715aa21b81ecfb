"""Wound Thresholds, Stunned by Pain, Levels of Wounding, and the whole blow (RULINGS 13, 14)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import Contradiction
from service.rules.tactical.armor import layer
from service.rules.tactical.damage import BlowOptions, Target, resolve_blow
from service.rules.tactical.potence import Attacker, Weapon
from service.rules.tactical.wounds import (body_point_level, stun_by_pain, stun_penalty_after, wound, wound_level,
                                           wound_threshold, wounds_from)


def test_exact_threshold_example():
    wt = wound_threshold(18, 15)
    assert wt == Fraction(33, 8)
    assert wounds_from(33, wt) == 7  # 8 if WT were rounded to 4


@pytest.mark.parametrize(("pot", "expected"), [(0, 0), (4, 0), (5, 1), (8, 1), (9, 2), (13, 3)])
def test_multiples_of_threshold(pot, expected):
    assert wounds_from(pot, Fraction(33, 8)) == expected


def test_edge_exemption_wounds_at_least_once():
    assert wounds_from(2, Fraction(33, 8), exempt=True) == 1
    assert wounds_from(0, Fraction(33, 8), exempt=True) == 0
    assert wounds_from(9, Fraction(33, 8), exempt=True) == 2


def test_threshold_needs_size():
    with pytest.raises(Contradiction):
        wound_threshold(0, 0)


@pytest.mark.parametrize(("total", "level"), [(0, "none"), (1, "light"), (2, "serious"), (3, "serious"),
                                              (4, "grievous"), (6, "grievous"), (7, "mortal"), (10, "mortal"),
                                              (12, "mortal")])
def test_levels(total, level):
    assert wound_level(total) == level


def test_tenth_wound_collapses_with_death_check_and_eleventh_kills():
    tenth = wound(9, 16, 16, wounds_before=8)  # WT 4: 9 > 8 -> 2 wounds -> 10
    assert (tenth.total, tenth.status, tenth.death_check_dv, tenth.strength_factor) == (10, "collapsed", 55,
                                                                                        Fraction(1, 4))
    past = wound(9, 16, 16, wounds_before=9)
    assert (past.total, past.status, past.death_check_dv) == (11, "dead", None)
    assert wound(0, 16, 16, wounds_before=4).strength_factor == Fraction(1, 2)


def test_stun_by_pain():
    stun, _ = stun_by_pain(15, 10)
    assert (stun.check_dv, stun.penalty_if_failed, stun.penalty_if_passed) == (15, 15, 8)
    assert stun_by_pain(10, 10)[0] is None
    assert stun_by_pain(15, 10, "linear")[0].check_dv == 5


def test_stun_penalty_halves_from_the_original():
    assert [stun_penalty_after(15, k) for k in range(6)] == [15, 8, 4, 2, 1, 0]


MAN = Target(modified_sta=18, condition=15, pain_resistance=10)
SWORD = Weapon("one-handed", 6, "medium", "edged")


def test_blow_on_an_unarmored_man_with_street_clothes():
    # POT 23; clothes 3 layers -> -2 = 21; edged, no armor: 21 > 5 x 33/8 -> 5 wounds; E = 11 -> 66
    result = resolve_blow(Attacker(15, 20), SWORD, Target(18, 15, 10, clothing_layers=3))
    assert (result.pot, result.knockback_feet, result.keep_feet_dv) == (23, 5, 15)
    assert result.pot_through_armor == 21 and result.wounding.inflicted == 5
    assert result.stun.check_dv == 66


def test_blow_through_armor_with_wear():
    result = resolve_blow(Attacker(15, 20), SWORD, Target(18, 15, 10, (layer("singlemail"),)))
    assert result.pot_through_armor == 13 and result.wounding.inflicted == 3
    assert result.armor_after[0].rating == 35 and result.armor_before[0].rating == 40


def test_edged_blow_that_barely_gets_through_unarmored_still_wounds():
    result = resolve_blow(Attacker(1, 1), Weapon("one-handed", 0, 0, "edged"), MAN)
    assert result.pot_through_armor == 1 and result.wounding.inflicted == 1
    blunt = resolve_blow(Attacker(1, 1), Weapon("one-handed", 0, 0, "blunt"), MAN)
    assert blunt.wounding.inflicted == 0


def test_barrier_adds_to_effect_pot():
    target = Target(10, 10, 30, barrier_feet=Fraction(2))
    result = resolve_blow(Attacker(15, 20), Weapon("one-handed", 6, "medium", "blunt"), target)
    # POT 23, knock-back 13 ft, barrier at 2 ft: +11 -> 34 against P-RES 30
    assert result.knockback_feet == 13 and result.pot_through_armor == 34 and result.stun.excess == 4


def test_slash_through_armor_wounds_nobody_but_knocks_back():
    target = Target(10, 10, 5, (layer("field-plate"),))
    result = resolve_blow(Attacker(15, 20, coordination=15), SWORD, target, "slash")
    assert result.pot_through_armor == 0 and result.wounding.inflicted == 0 and result.knockback_feet == 13
    assert result.armor_after == result.armor_before


def test_attack_kind_checks():
    with pytest.raises(Contradiction):
        resolve_blow(Attacker(15, 20), Weapon("bow", 4), MAN, "thrust")
    with pytest.raises(Contradiction):
        resolve_blow(Attacker(15, 20), Weapon("one-handed", 4, 0, "blunt"), MAN, "thrust")
    with pytest.raises(Contradiction):
        resolve_blow(Attacker(15, 20), Weapon("one-handed", 4, 0, "edged", bodkin=True), MAN)


def test_bodkin_breaches_plate_and_wounds_at_least_once():
    target = Target(18, 15, 50, (layer("field-plate"),), range_band="point-blank")
    bolt = Weapon("crossbow", fixed_pot=42, edge="pointed", bodkin=True)
    result = resolve_blow(Attacker(10, 10), bolt, target)
    assert result.pot_through_armor == 41 and result.wounding.inflicted == 9
    far = resolve_blow(Attacker(10, 10), bolt, Target(18, 15, 50, (layer("field-plate"),), range_band="long"))
    assert far.pot_through_armor == 2 and far.wounding.inflicted == 0


def test_options_body_points_and_heroic():
    options = BlowOptions(body_points=True, heroic_double=True)
    result = resolve_blow(Attacker(15, 20), SWORD, MAN, options=options)
    assert result.pot == 88


@pytest.mark.parametrize("damage, level", [(0, "none"), (1, "light"), (10, "light"), (11, "serious"),
                                           (20, "serious"), (21, "grievous"), (30, "grievous"), (31, "mortal")])
def test_body_point_levels_by_share_of_the_total(damage, level):
    # "Optional Body Point rules": the first 1/4 of 40 BP Light, to 1/2 Serious, to 3/4 Grievous, then Mortal.
    result = body_point_level(damage, 40)
    assert (result.level, result.remaining) == (level, 40 - damage)
