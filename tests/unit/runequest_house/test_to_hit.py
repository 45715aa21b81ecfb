"""Attack against dodge and parry (rules document §4; seed *Combat Options › Dodge*, *Standard Parry*, *Page 63*)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.errors import RulesError
from service.rules.runequest_house import to_hit
from service.rules.runequest_house.engine import read_ruleset_options

OPTIONS = read_ruleset_options(None, ("options",))
MELEE = {"kind": "melee", "hands": 1, "flexible": False, "hacking": False, "length_m": 1}
BOW = {**MELEE, "kind": "projected"}
SITUATION = {"high_ground": False, "same_weapon_twice": False, "mounted": False, "shooter_adjacent": False,
             "point_blank": False, "closed_vs_long": False, "prone_attacker": False, "prone_target": False,
             "high_ground_location": False, "giant_exposed": False, "terrain_bonus": 0, "target_movement": "none"}
DEFENCE = {"type": "none", "skill": None, "modifier": 0, "item": "weapon", "high_ground": False,
           "defensive_abort": False, "double_dodge": False, "two_attackers_same_weapon": False, "braced": False,
           "opponent_number": 1, "same_sr_attacks": 0}


@pytest.mark.parametrize("attack, dodge, result", [
    ("success", "success", "miss"), ("special", "success", "hit"), ("critical", "success", "special"),
    ("success", "special", "miss"), ("special", "special", "miss"), ("critical", "special", "hit"),
    ("success", "critical", "miss"), ("special", "critical", "miss"), ("critical", "critical", "miss"),
    ("fumble", "fumble", "fumble"), ("failure", "fumble", "hit"), ("success", "fumble", "special"),
    ("special", "fumble", "critical"), ("critical", "fumble", "critical_max"), ("failure", "success", "miss"),
    ("success", "failure", "hit"),
])
def test_the_seed_dodge_table(attack, dodge, result):
    assert to_hit.outcome(attack, "dodge", dodge) == result


@pytest.mark.parametrize("attack, parry, result", [
    ("failure", "success", "miss"), ("fumble", "critical", "fumble"), ("success", "failure", "hit"),
    ("special", "success", "parried"), ("critical", "special", "parried_special"),
    ("success", "critical", "parried_critical"), ("critical", "fumble", "critical"),
])
def test_parry_outcomes(attack, parry, result):
    assert to_hit.outcome(attack, "parry", parry) == result


def test_outcome_odds_are_exact_fractions_of_ten_thousand_summing_to_one():
    attack = to_hit.attack_check(70, 0, MELEE, SITUATION, OPTIONS)
    guard = to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 40}, MELEE, SITUATION, OPTIONS)
    odds = to_hit.outcome_probabilities(attack.bands, guard)
    assert sum(odds.values()) == 1 and all((v * 10000).denominator == 1 for v in odds.values())
    # hit: attack success band without special (15..70 = 56) x dodge failure (41..97 = 57) + ...
    assert odds["critical_max"] == Fraction(4, 100) * Fraction(3, 100)  # critical x fumbled dodge (98-100)


def test_point_blank_projected_dodge_is_one_fifth_so_a_special_dodge_stops_a_hit():
    situation = {**SITUATION, "point_blank": True}
    guard = to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 50}, BOW, situation, OPTIONS)
    assert guard.check.effective == 10 == to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 50}, MELEE,
                                                                SITUATION, OPTIONS).check.bands.special
    adjacent = {**situation, "shooter_adjacent": True}
    assert to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 50}, BOW, adjacent, OPTIONS).check.effective == 50
    thrown = {**BOW, "kind": "thrown"}
    assert to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 50}, thrown, situation, OPTIONS).check.effective == 25


def test_projected_missile_parries():
    situation = {**SITUATION, "point_blank": True}
    weapon = to_hit.defence_check({**DEFENCE, "type": "parry", "skill": 60}, BOW, situation, OPTIONS)
    assert weapon.critical_only and weapon.check.effective == 60 and to_hit.defence_chance(weapon) == Fraction(3, 100)
    hoplite = to_hit.defence_check({**DEFENCE, "type": "parry", "skill": 60, "item": "hoplite_shield"}, BOW,
                                   situation, OPTIONS)
    assert hoplite.check.effective == 12 and not hoplite.critical_only
    normal = to_hit.defence_check({**DEFENCE, "type": "parry", "skill": 60}, BOW, SITUATION, OPTIONS)
    assert normal.check.effective == 12


def test_attack_modifiers():
    two_hand = {**MELEE, "hands": 2, "hacking": True}
    assert to_hit.attack_check(80, 0, two_hand, {**SITUATION, "mounted": True}, OPTIONS).effective == 68  # (80+10)x3/4
    assert to_hit.attack_check(60, 0, MELEE, {**SITUATION, "same_weapon_twice": True}, OPTIONS).effective == 50
    assert to_hit.attack_check(60, 0, BOW, {**SITUATION, "shooter_adjacent": True}, OPTIONS).effective == 30
    moved = {**SITUATION, "target_movement": "moved", "point_blank": True}
    assert to_hit.attack_check(60, 0, BOW, moved, OPTIONS).effective == 40
    flexible = to_hit.attack_check(50, 0, {**MELEE, "flexible": True}, SITUATION, OPTIONS)
    assert flexible.bands.fumble_from == 95  # (100-50)/20 = 2.5 -> 3, doubled: 95-100


def test_a_braced_figure_cannot_dodge():
    with pytest.raises(RulesError) as refused:
        to_hit.defence_check({**DEFENCE, "type": "dodge", "skill": 40, "braced": True}, MELEE, SITUATION, OPTIONS)
    assert refused.value.field == ("defence", "braced")


def test_high_ground_location_table_uses_the_upper_half():
    places = to_hit.location_probabilities("high_ground", OPTIONS)
    assert places["right_leg"] == 0 and places["head"] == Fraction(2, 10) and sum(places.values()) == 1
