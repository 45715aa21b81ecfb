"""Ranged fire: bands, range DV, thrown objects and the target's DV (RULINGS 8, 9; F26-F32; A9-A13, A40, A42)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.tactical import ranged
from service.rules.tactical.ranged import Target, range_of, ranged_dv
from service.rules.tactical.thrown import ThrownObject, thrown_object_factor


def edges(result):
    lim = result.limits
    return (lim.point_blank, lim.short, lim.medium, lim.long, lim.maximum)


def test_the_seed_example_bow_85_yards():
    result = range_of("bow", 85)
    assert result.dv_modifier == 21
    assert result.shares == (("short", 9), ("medium", 7), ("long", 5))
    assert result.band == "long" and result.unit == "yd"


@pytest.mark.parametrize(("name", "expected"), [
    ("bow", (15, 60, 80, 100, None)), ("short-bow", (11, 42, 56, 70, None)), ("sling", (11, 42, 56, 70, None)),
    ("hurled-hilted", (9, 36, 48, 60, None)), ("hurled-hafted", (13, 50, 67, 84, None)),
    ("light-crossbow", (15, 60, 80, 100, 200)), ("heavy-crossbow", (15, 60, 80, 100, 225)),
])
def test_base_limits_reproduce_the_printed_point_blank(name, expected):
    assert edges(range_of(name, 0)) == expected


@pytest.mark.parametrize(("name", "strength", "expected"), [
    ("bow", 16, (17, 66, 86, 106)), ("bow", 10, (14, 54, 74, 94)), ("short-bow", 15, (11, 44, 58, 72)),
    ("sling", 11, (10, 40, 54, 68)), ("hurled-hafted", 18, (14, 55, 72, 89)), ("hurled-hilted", 13, (9, 36, 48, 60)),
    ("light-crossbow", 20, (15, 60, 80, 100)), ("bow", 0, (9, 34, 54, 74)),
])
def test_strength_shifts_short_medium_long(name, strength, expected):
    assert edges(range_of(name, 0, strength))[:4] == expected


def test_elevation_shrinks_limits_and_never_below_zero():
    assert edges(range_of("bow", 0, elevation=10)) == (13, 50, 70, 90, None)
    assert edges(range_of("heavy-crossbow", 0, elevation=30)) == (8, 30, 50, 70, 225)
    assert edges(range_of("bow", 0, elevation=-10)) == (15, 60, 80, 100, None)
    assert edges(range_of("hurled-hilted", 0, elevation=500)) == (0, 0, 0, 0, None)


def test_fractional_elevation_rounds_each_limit_at_the_end():
    result = range_of("bow", 0, elevation=2.5)
    assert edges(result) == (14, 58, 78, 98, None)  # 57.5, 77.5, 97.5 half up; PB 57.5/4 = 14.375 -> 14


@pytest.mark.parametrize(("distance", "band", "dv"), [
    (0, "point-blank", 0), (15, "point-blank", 0), (16, "short", 0), (18, "short", 1), (60, "short", 9),
    (61, "medium", 9), (80, "medium", 16), (100, "long", 36), (101, "extreme", 38), (110, "extreme", 56),
])
def test_bow_bands_and_range_dv(distance, band, dv):
    result = range_of("bow", distance)
    assert (result.band, result.dv_modifier) == (band, dv)


def test_short_bow_at_49_rounds_each_band():
    assert range_of("short-bow", 49).shares == (("short", 6), ("medium", 2))     # A9: 8, not 9


def test_hurled_weapons_count_in_feet():
    result = range_of("hurled-hilted", 40)
    assert (result.unit, result.band, result.dv_modifier) == ("ft", "medium", 6)   # 27/5 -> 5, 4/3 -> 1
    assert result.shares == (("short", 5), ("medium", 1))


def test_crossbow_maximum():
    assert range_of("light-crossbow", 200).band == "extreme"
    assert range_of("light-crossbow", 200).dv_modifier == 36 + 200
    with pytest.raises(Contradiction) as caught:
        range_of("light-crossbow", 200.5)
    assert caught.value.field == ("distance",)
    assert range_of("heavy-crossbow", 225).dv_modifier == 36 + 250


def test_unknown_weapon():
    with pytest.raises(UnknownName) as caught:
        range_of("blowpipe", 10, at=("ranged",))
    assert caught.value.field == ("ranged", "weapon")


@pytest.mark.parametrize(("size", "weight", "expected"), [
    (Fraction(3, 10), 1, 1),                  # best case: 0.05 x 6 ft, 1 lb of Light ENC 50
    (Fraction(1, 10), Fraction(1, 10), 1),    # under 0.25 lb counts as best case
    (1, 1, Fraction(3, 4)),                   # size 1/6 of height
    (Fraction(3, 10), Fraction(5, 4), Fraction(3, 4)),   # 0.025 x 50: row 1 by weight
    (Fraction(3, 10), Fraction(3, 2), Fraction(2, 3)),
    (Fraction(252, 100), 1, Fraction(1, 2)),  # 0.42 x 6
    (3, 1, Fraction(1, 3)),
    (Fraction(396, 100), 1, Fraction(1, 4)),
    (4, 1, Fraction(1, 10)),
    (1, 50, Fraction(1, 10)),                 # exactly Light ENC
    (3, 10, Fraction(1, 4)),                  # size 1/3, weight 1/4: the shorter
])
def test_thrown_object_factor(size, weight, expected):
    assert thrown_object_factor(size, 6, weight, 50) == expected


def test_too_heavy_to_throw():
    with pytest.raises(Contradiction) as caught:
        thrown_object_factor(1, 6, 51, 50)
    assert caught.value.field == ("object", "weight_pounds")


def test_thrown_object_sizes_must_be_positive():
    with pytest.raises(RulesError) as caught:
        thrown_object_factor(1, 0, 1, 50)
    assert caught.value.field == ("object", "height")


def test_thrown_object_scales_short_medium_long_before_point_blank():
    rock = ThrownObject(Fraction(1), Fraction(6), Fraction(1), Fraction(50))   # 3/4
    result = range_of("hurled-hafted", 40, thrown=rock)
    assert edges(result) == (9, 38, 50, 63, None)  # 37.5, 50.25 rounded half up; PB from 37.5/4
    assert result.band == "medium"


def test_thrown_object_needs_a_hurled_weapon():
    rock = ThrownObject(Fraction(1), Fraction(6), Fraction(1), Fraction(50))
    with pytest.raises(Contradiction) as caught:
        range_of("bow", 10, thrown=rock)
    assert caught.value.field == ("object",)


@pytest.mark.parametrize(("target", "range_dv", "expected"), [
    (Target(dodge_dv=12), 21, 33),
    (Target(dodge_dv=12, shield_bonus=3, moving_mph=Fraction(7, 2)), 21, 40),   # 39.5 -> 40
    (Target(aware=False, agl_mod=2, moving_mph=Fraction(5)), 9, 16),
    (Target(aware=False, agl_mod=2, in_motion=True, shield_bonus=1), 9, 12),
    (Target(aware=False), 21, 21),
    (Target(aware=False), 0, 1),
    (Target(aware=False, dodge_dv=30, shield_bonus=5), 4, 4),
])
def test_ranged_dv(target, range_dv, expected):
    assert ranged_dv(target, range_dv)[0] == expected


def test_weapons_catalog():
    assert set(ranged.weapons()) == {"bow", "short-bow", "sling", "light-crossbow", "heavy-crossbow",
                                     "hurled-hilted", "hurled-hafted"}


def test_weapon_names_constant_matches_the_data():
    assert ranged.WEAPON_NAMES == tuple(ranged.weapons())


def test_a_two_thirds_object_on_hafted_ranges_gets_whole_limits():
    thrown = ThrownObject(Fraction(19, 10), Fraction(6), Fraction(1), Fraction(50))  # 0.32 of height: x 2/3
    assert edges(range_of("hurled-hafted", 40, thrown=thrown)) == (8, 33, 45, 56, None)  # 33.3, 44.7, 56
