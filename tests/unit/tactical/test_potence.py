"""Getting Hit: The POT of Blows, Damage Multipliers, Knock-Back and street clothes (RULINGS 10, 11)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import Contradiction, OutOfRange, RulesError, UnknownName
from service.rules.tactical.potence import (Attacker, Weapon, blow_potence, damage_bonus, knock_back,
                                            street_clothes, weight_index)

A = Attacker(strength=15, modified_sta=20, coordination=11)


def pot(weapon, attacker=A, **kw):
    return blow_potence(attacker, weapon, **kw)


def test_weight_class_by_name_or_index():
    assert weight_index("very-heavy") == 5 and weight_index(2) == 2
    with pytest.raises(UnknownName):
        weight_index("enormous")
    with pytest.raises(OutOfRange):
        weight_index(6)


def test_sizes_outside_the_table_are_refused():
    with pytest.raises(Contradiction) as info:
        damage_bonus(21, 0)
    assert info.value.field == ("weapon", "size")


@pytest.mark.parametrize(("grip", "expected"), [("one-handed", 23), ("hurled", 23),
                                                ("hand-and-a-half", 31), ("two-handed", 40)])
def test_handedness_bases(grip, expected):
    # (20 + 15) = 35: /2 = 17.5, x3/4 = 26.25, x1 = 35; DB (size 6, medium) = 5
    assert pot(Weapon(grip, 6, "medium")).pot == expected


def test_half_rounds_up_once_at_the_end():
    # (20 + 16)/2 + DB 0 + 1.5 mph charge = 19.5 -> 20
    assert pot(Weapon("one-handed", 0, 0), Attacker(16, 20, charge_mph=Fraction(3, 2))).pot == 20


def test_charge_and_opportunity_speeds_add():
    result = pot(Weapon("two-handed", 10, "heavy"), Attacker(15, 20, charge_mph=Fraction(12)),
                 moving_mph=Fraction(5))
    assert result.pot == 35 + 9 + 12 + 5 and result.wear == 9


def test_slash_uses_crd_and_needs_it():
    with pytest.raises(RulesError) as info:
        pot(Weapon("one-handed", 6, "medium"), Attacker(15, 20), slash=True)
    assert info.value.field == ("attacker", "coordination")


def test_slash_value():
    assert pot(Weapon("one-handed", 6, "medium"), slash=True).pot == 21  # 15.5 + 5 = 20.5 -> 21


def test_body_points_dm_replaces_db_and_override():
    # base 17.5, DM(size 6, medium) = 1.5: 17.5 x 2.5 = 43.75 -> 44; bonus 26.25 -> 26
    result = pot(Weapon("one-handed", 6, "medium"), body_points=True)
    assert (result.pot, result.wear) == (44, 26)
    zero = pot(Weapon("one-handed", 6, "medium", dm=Fraction(0)), body_points=True)
    assert (zero.pot, zero.wear) == (18, 0)


def test_bow_is_full_str_light_db_and_arrowhead():
    result = pot(Weapon("bow", 10, "heavy", arrowhead_db=2))
    assert (result.pot, result.wear) == (15 + 5 + 2, 7)


def test_crossbow_fixed_pot_required():
    assert pot(Weapon("crossbow", fixed_pot=40)).pot == 40
    with pytest.raises(RulesError) as info:
        pot(Weapon("crossbow"))
    assert info.value.field == ("weapon", "fixed_pot")


def test_brawling_is_one_tenth():
    assert pot(Weapon("brawling", 0, 0)).pot == 2  # (17.5 + 0)/10 = 1.75 -> 2


@pytest.mark.parametrize("grip", ["bow", "crossbow", "hurled"])
def test_a_charge_adds_nothing_to_missiles_and_hurled_weapons(grip):
    """The charge bonus excludes hurled and missile weapons: left out, with a step saying so."""
    weapon = Weapon(grip, 4, 0, fixed_pot=30)
    charging = pot(weapon, Attacker(15, 20, charge_mph=Fraction(10)))
    assert charging.pot == pot(weapon, Attacker(15, 20)).pot
    assert any("not added" in step.detail for step in charging.steps)


def test_wounded_attacker_strength():
    # Grievous (4 wounds): STR 16 -> 8; (20 + 8)/2 = 14 + DB 5 = 19. Mortal: STR 4 -> (24/2) + 5 = 17
    assert pot(Weapon("one-handed", 6, "medium"), Attacker(16, 20, wounds=4)).pot == 19
    assert pot(Weapon("one-handed", 6, "medium"), Attacker(16, 20, wounds=7)).pot == 17


def test_heroic_doubles():
    assert pot(Weapon("one-handed", 6, "medium"), heroic_double=True).pot == 46


def test_knock_back_feet_dv_and_barrier():
    kb = knock_back(30, 20)
    assert (kb.feet, kb.keep_feet_dv, kb.barrier_bonus) == (10, 55, 0)
    assert knock_back(30, 20, Fraction(4)).barrier_bonus == 6
    assert knock_back(30, 20, Fraction(40)).barrier_bonus == 0
    assert knock_back(15, 20).feet == 0 and knock_back(15, 20).keep_feet_dv == 0
    assert knock_back(30, 20, scheme="linear").keep_feet_dv == 10


def test_street_clothes_only_unarmored_edged_first_blow():
    assert street_clothes(20, 3, False, "edged", True)[0] == 18
    assert street_clothes(20, 3, True, "edged", True)[0] == 20
    assert street_clothes(20, 3, False, "blunt", True)[0] == 20
    assert street_clothes(20, 3, False, "edged", False)[0] == 20
    assert street_clothes(1, 5, False, "edged", True)[0] == 0
