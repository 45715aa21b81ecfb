"""Acceptance tests for runequest-house: the seed's examples and the document's tables, via the public API.

Every number here is taken from seed 004 or from docs/rules runequest-house.md (§2-§12), never from the code.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

BASE = "/v1/runequest-house"
EXACT = re.compile(r"^-?\d+/[1-9]\d*$")
LOCATIONS = {"right_leg", "left_leg", "abdomen", "chest", "right_arm", "left_arm", "head"}


def post(client, path, body):
    answer = client.post(BASE + path, json=body)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def exact(text):
    """Parse an `*_exact` string, checking the n/d lowest-terms format of the shared conventions."""
    assert EXACT.match(text), text
    value = Fraction(text)
    assert f"{value.numerator}/{value.denominator}" == text
    return value


def assert_exact_pairs(answer, name):
    numbers, strings = answer[name], answer[name + "_exact"]
    assert set(numbers) == set(strings)
    for key, text in strings.items():
        assert numbers[key] == float(exact(text))
    return {key: Fraction(text) for key, text in strings.items()}


def problem_fields(answer):
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    return {error["field"] for error in answer.get_json()["errors"]}


# --- §2 percentile degrees (RQ3 fractions, half-up rounding) ---------------------------------------------

@pytest.mark.parametrize("skill, critical, special, success, fumble_from", [
    (50, 3, 10, 50, 98),     # 2.5 -> 3 critical, fumble count 2.5 -> 3
    (10, 1, 2, 10, 96),      # fumble count 4.5 -> 5
    (30, 2, 6, 30, 97),      # 1.5 -> 2 critical; fumble count 3.5 -> 4
    (45, 2, 9, 45, 98),      # 2.25 -> 2; fumble count 2.75 -> 3
    (75, 4, 15, 75, 100),    # 3.75 -> 4; fumble count 1.25 -> 1
    (90, 5, 18, 90, 100),    # 4.5 -> 5
    (100, 5, 20, 95, 100),   # 96-00 always fails; fumble count 1 from 100 up
    (1, 1, 1, 5, 96),        # 01-05 always succeed
])
def test_check_bands_follow_the_rq3_fractions(client, skill, critical, special, success, fumble_from):
    answer = post(client, "/check", {"skill": skill})
    assert answer["effective"] == skill
    assert answer["bands"] == {"critical": critical, "special": special, "success": success,
                               "fumble_from": fumble_from}
    odds = assert_exact_pairs(answer, "probabilities")
    assert set(odds) == {"critical", "special", "success", "failure", "fumble"} and sum(odds.values()) == 1
    assert odds["critical"] == Fraction(critical, 100)
    assert odds["special"] == Fraction(special - critical, 100)
    assert odds["fumble"] == Fraction(101 - fumble_from, 100)
    assert exact(answer["chance_exact"]) == Fraction(success, 100)
    assert answer["roll"] is None and answer["dice"] == [] and answer["seed"] is None
    assert isinstance(answer["trace"], list) and isinstance(answer["assumptions"], list)


def test_check_automatic_success_and_failure_bounds(client):
    assert post(client, "/check", {"skill": 0})["chance_exact"] == "1/20"
    assert post(client, "/check", {"skill": 200})["chance_exact"] == "19/20"
    low = post(client, "/check", {"skill": -20})
    assert low["probabilities_exact"]["success"] == "0/1" or exact(low["chance_exact"]) == Fraction(1, 20)


def test_flexible_weapons_fumble_twice_as_often(client):
    """Page 63: flexible or chain weapons have double the normal chance of a fumble."""
    single = post(client, "/check", {"skill": 60})["bands"]["fumble_from"]
    double = post(client, "/check", {"skill": 60, "fumble_multiplier": 2})["bands"]["fumble_from"]
    assert (single, double) == (99, 97)


@pytest.mark.parametrize("value, multiple, effective", [(12, 5, 60), (12, 3, 36), (12, 1, 12), (14, 4, 56)])
def test_characteristic_rolls(client, value, multiple, effective):
    """2) Move Phase: DEX x5 is Difficult, DEX x3 Very Difficult; DEX x4.. for knockback, DEX x1 for throws."""
    answer = post(client, "/check", {"characteristic": {"value": value, "multiple": multiple}})
    assert answer["effective"] == effective


def test_modifiers_add_then_multiply_rounding_half_up(client):
    answer = post(client, "/check", {"skill": 65, "modifier": -10, "multiplier": "1/2"})
    assert answer["effective"] == 28  # (65 - 10) / 2 = 27.5 -> 28


@pytest.mark.parametrize("face, degree", [(1, "critical"), (3, "critical"), (4, "special"), (10, "special"),
                                          (11, "success"), (50, "success"), (51, "failure"), (97, "failure"),
                                          (98, "fumble"), (100, "fumble")])
def test_supplied_d100_face_gets_its_degree(client, face, degree):
    answer = post(client, "/check", {"skill": 50, "rolls": {"d100": [face]}})
    assert answer["roll"] == {"d100": face, "degree": degree}
    assert answer["dice"] == [{"role": "d100", "expression": answer["dice"][0]["expression"], "dice": [face],
                               "total": face, "supplied": True}]


def test_seed_is_echoed_and_repeatable(client):
    first = post(client, "/check", {"skill": 50, "seed": 424242})
    second = post(client, "/check", {"skill": 50, "seed": 424242})
    assert first["seed"] == 424242 and first == second and first["dice"][0]["supplied"] is False


@pytest.mark.parametrize("body, field", [
    ({"skill": 50, "rolls": {"d100": [0]}}, "rolls.d100.0"),
    ({"skill": 50, "rolls": {"d100": [101]}}, "rolls.d100.0"),
    ({"skill": 50, "modifier": 1.5}, "modifier"),
    ({"skill": 50, "options": {"layering": "all"}}, "options.layering"),
    ({"skill": 50, "options": {"unknown_option": 1}}, "options.unknown_option"),
    ({"characteristic": {"value": 0, "multiple": 5}}, "characteristic.value"),
    ({"characteristic": {"value": 10, "multiple": 6}}, "characteristic.multiple"),
])
def test_check_bad_values_are_422_with_dotted_paths(client, body, field):
    assert field in problem_fields(client.post(BASE + "/check", json=body))


# --- §4 to-hit: the seed's modifiers ----------------------------------------------------------------------

def to_hit(client, body):
    return post(client, "/to-hit", body)


@pytest.mark.parametrize("body, attack, defence", [
    # 1) Statement of Intent: one weapon twice, -10% each
    ({"attack": 60, "situation": {"same_weapon_twice": True}}, 50, None),
    # Page 54: high ground +10% to attacks and parries against a lower figure
    ({"attack": 60, "situation": {"high_ground": True},
      "defence": {"type": "parry", "skill": 60, "high_ground": True}}, 70, 70),
    # 2) Move Phase, terrain special/critical: +10/+20 to attacks
    ({"attack": 60, "situation": {"terrain_bonus": 10}}, 70, None),
    ({"attack": 60, "situation": {"terrain_bonus": 20}}, 80, None),
    # Page 52: two-handed hacking weapons used mounted at 3/4 (mounted also counts as high ground, +10)
    ({"attack": 60, "weapon": {"hands": 2, "hacking": True}, "situation": {"mounted": True}}, 53, None),
    # 1) Statement of Intent: parrying two attackers with the same 1-H weapon -20%
    ({"attack": 60, "defence": {"type": "parry", "skill": 60, "two_attackers_same_weapon": True}}, 60, 40),
    # Altering Statement of Intent: defensive abort -20%
    ({"attack": 60, "defence": {"type": "dodge", "skill": 60, "defensive_abort": True}}, 60, 40),
    # Double dodge: -10% per opponent after the first, cumulative
    ({"attack": 60, "defence": {"type": "dodge", "skill": 60, "double_dodge": True, "opponent_number": 2}}, 60, 50),
    ({"attack": 60, "defence": {"type": "dodge", "skill": 60, "double_dodge": True, "opponent_number": 3}}, 60, 40),
    # same_sr_dodge_penalty default 20 per other attack on the SR
    ({"attack": 60, "defence": {"type": "dodge", "skill": 60, "same_sr_attacks": 2}}, 60, 20),
    # Page 63: flexible weapon parried at full by a weapon or buckler, 3/4 by a larger shield
    ({"attack": 60, "weapon": {"flexible": True}, "defence": {"type": "parry", "skill": 60}}, 60, 60),
    ({"attack": 60, "weapon": {"flexible": True}, "defence": {"type": "parry", "skill": 60, "item": "buckler"}}, 60, 60),
    ({"attack": 60, "weapon": {"flexible": True},
      "defence": {"type": "parry", "skill": 60, "item": "medium_shield"}}, 60, 45),
    # Page 63 missiles: dodge at 1/5 against projected, 1/2 against thrown at point blank, full beyond
    ({"attack": 60, "weapon": {"kind": "projected"}, "situation": {"point_blank": True},
      "defence": {"type": "dodge", "skill": 50}}, 60, 10),
    ({"attack": 60, "weapon": {"kind": "thrown"}, "situation": {"point_blank": True},
      "defence": {"type": "dodge", "skill": 50}}, 60, 25),
    ({"attack": 60, "weapon": {"kind": "projected"}, "defence": {"type": "dodge", "skill": 50}}, 60, 50),
    # shooter who began adjacent: projected at half, thrown normal, dodge at full
    ({"attack": 60, "weapon": {"kind": "projected"}, "situation": {"shooter_adjacent": True, "point_blank": True},
      "defence": {"type": "dodge", "skill": 50}}, 30, 50),
    ({"attack": 60, "weapon": {"kind": "thrown"}, "situation": {"shooter_adjacent": True, "point_blank": True},
      "defence": {"type": "dodge", "skill": 50}}, 60, 50),
    # moving-target penalties (10 / 20) double at point blank
    ({"attack": 60, "weapon": {"kind": "projected"}, "situation": {"target_movement": "moved"}}, 50, None),
    ({"attack": 60, "weapon": {"kind": "projected"}, "situation": {"target_movement": "fast"}}, 40, None),
    ({"attack": 60, "weapon": {"kind": "projected"},
      "situation": {"target_movement": "moved", "point_blank": True}}, 40, None),
    ({"attack": 60, "weapon": {"kind": "projected"},
      "situation": {"target_movement": "fast", "point_blank": True}}, 20, None),
    # parrying missiles: small thrown weapons at normal parry; projected at normal range 1/5 by a weapon,
    # hoplite or larger shield normal; at point blank a hoplite shield at 1/5
    ({"attack": 60, "weapon": {"kind": "thrown"}, "defence": {"type": "parry", "skill": 50}}, 60, 50),
    ({"attack": 60, "weapon": {"kind": "projected"}, "defence": {"type": "parry", "skill": 50}}, 60, 10),
    ({"attack": 60, "weapon": {"kind": "projected"},
      "defence": {"type": "parry", "skill": 50, "item": "hoplite_shield"}}, 60, 50),
    ({"attack": 60, "weapon": {"kind": "projected"},
      "defence": {"type": "parry", "skill": 50, "item": "large_shield"}}, 60, 50),
    ({"attack": 60, "weapon": {"kind": "projected"}, "situation": {"point_blank": True},
      "defence": {"type": "parry", "skill": 50, "item": "hoplite_shield"}}, 60, 10),
    # DEF defaults: prone attacker -20, prone target +20, closed long weapon x 1/2
    ({"attack": 60, "situation": {"prone_attacker": True}}, 40, None),
    ({"attack": 60, "situation": {"prone_target": True}}, 80, None),
    ({"attack": 60, "weapon": {"length_m": 2}, "situation": {"closed_vs_long": True}}, 30, None),
])
def test_attack_and_defence_percentages(client, body, attack, defence):
    answer = to_hit(client, body)
    assert answer["attack_effective"] == attack
    assert answer["defence_effective"] == defence


def test_point_blank_arrow_parried_by_a_weapon_only_on_a_critical(client):
    answer = to_hit(client, {"attack": 60, "weapon": {"kind": "projected"}, "situation": {"point_blank": True},
                             "defence": {"type": "parry", "skill": 50}})
    assert answer["defence_critical_only"] is True and answer["defence_effective"] == 50
    assert answer["defence_chance_exact"] == "3/100"  # the critical band of 50%


def test_braced_figures_cannot_dodge(client):
    body = {"attack": 60, "defence": {"type": "dodge", "skill": 60, "braced": True}}
    assert "defence.braced" in problem_fields(client.post(BASE + "/to-hit", json=body))


def face_for(degree):
    """d100 faces giving each degree for a 60% attack (critical 1-3, special 4-12, fumble 99-100)."""
    return {"fumble": 100, "failure": 80, "success": 40, "special": 10, "critical": 2}[degree]


def dodge_face(degree):
    """Faces for a 60% dodge (same bands)."""
    return face_for(degree)


@pytest.mark.parametrize("attack, dodge, outcome", [
    # Combat Options > Dodge: a normal dodge: hit -> miss, special -> hit, critical -> special
    ("success", "success", "miss"), ("special", "success", "hit"), ("critical", "success", "special"),
    # special dodge: hit and special miss, critical -> hit
    ("success", "special", "miss"), ("special", "special", "miss"), ("critical", "special", "hit"),
    # critical dodge: everything misses
    ("success", "critical", "miss"), ("special", "critical", "miss"), ("critical", "critical", "miss"),
    # a failed dodge changes nothing
    ("success", "failure", "hit"), ("special", "failure", "special"), ("critical", "failure", "critical"),
    # fumbled dodge: the attack improves one degree; a fumbled attack still misses (fumble)
    ("fumble", "fumble", "fumble"), ("failure", "fumble", "hit"), ("success", "fumble", "special"),
    ("special", "fumble", "critical"), ("critical", "fumble", "critical_max"),
])
def test_dodge_degrees_change_the_attack(client, attack, dodge, outcome):
    body = {"attack": 60, "defence": {"type": "dodge", "skill": 60},
            "rolls": {"attack": [face_for(attack)], "defence": [dodge_face(dodge)], "location": [12]}}
    roll = to_hit(client, body)["roll"]
    assert (roll["attack_degree"], roll["defence_degree"], roll["outcome"]) == (attack, dodge, outcome)


@pytest.mark.parametrize("attack, parry, outcome", [
    ("success", "failure", "hit"), ("special", "failure", "special"), ("critical", "fumble", "critical"),
    ("success", "success", "parried"), ("critical", "special", "parried_special"),
    ("success", "critical", "parried_critical"), ("failure", "success", "miss"), ("fumble", "failure", "fumble"),
])
def test_parry_outcomes(client, attack, parry, outcome):
    body = {"attack": 60, "defence": {"type": "parry", "skill": 60},
            "rolls": {"attack": [face_for(attack)], "defence": [dodge_face(parry)], "location": [12]}}
    assert to_hit(client, body)["roll"]["outcome"] == outcome


def test_point_blank_bow_example_needs_a_special_dodge(client):
    """Page 63: against a bow at point blank a dodge of 50% works as 10%: a roll of 10 stops a normal hit,
    11 does not; a special hit is only stopped by a special (or better) roll of the reduced dodge."""
    base = {"attack": 60, "weapon": {"kind": "projected"}, "situation": {"point_blank": True},
            "defence": {"type": "dodge", "skill": 50}}
    assert to_hit(client, {**base, "rolls": {"attack": [40], "defence": [10], "location": [1]}})["roll"]["outcome"] == "miss"
    assert to_hit(client, {**base, "rolls": {"attack": [40], "defence": [11], "location": [1]}})["roll"]["outcome"] == "hit"
    assert to_hit(client, {**base, "rolls": {"attack": [10], "defence": [5], "location": [1]}})["roll"]["outcome"] == "hit"
    assert to_hit(client, {**base, "rolls": {"attack": [10], "defence": [2], "location": [1]}})["roll"]["outcome"] == "miss"


def test_to_hit_outcome_odds_are_exclusive_and_exact(client):
    for defence, keys in [({"type": "none"}, {"fumble", "miss", "hit", "special", "critical"}),
                          ({"type": "dodge", "skill": 40},
                           {"fumble", "miss", "hit", "special", "critical", "critical_max"}),
                          ({"type": "parry", "skill": 40}, {"fumble", "miss", "parried", "parried_special",
                                                            "parried_critical", "hit", "special", "critical"})]:
        answer = to_hit(client, {"attack": 60, "defence": defence})
        odds = assert_exact_pairs(answer, "probabilities")
        assert set(odds) == keys and sum(odds.values()) == 1
    none = to_hit(client, {"attack": 60})
    assert none["chance_exact"] == "3/5" and none["probabilities_exact"]["critical"] == "3/100"
    assert none["defence_chance"] is None and none["defence_chance_exact"] is None and none["defence_bands"] is None


MELEE = {"right_leg": Fraction(4, 20), "left_leg": Fraction(4, 20), "abdomen": Fraction(3, 20),
         "chest": Fraction(1, 20), "right_arm": Fraction(3, 20), "left_arm": Fraction(3, 20), "head": Fraction(2, 20)}
MISSILE = {"right_leg": Fraction(3, 20), "left_leg": Fraction(3, 20), "abdomen": Fraction(4, 20),
           "chest": Fraction(5, 20), "right_arm": Fraction(2, 20), "left_arm": Fraction(2, 20),
           "head": Fraction(1, 20)}
HIGH = {"right_leg": 0, "left_leg": 0, "abdomen": Fraction(1, 10), "chest": Fraction(1, 10),
        "right_arm": Fraction(3, 10), "left_arm": Fraction(3, 10), "head": Fraction(2, 10)}


@pytest.mark.parametrize("body, table, odds", [
    ({"attack": 50}, "melee", MELEE),
    ({"attack": 50, "weapon": {"kind": "thrown"}}, "missile", MISSILE),
    ({"attack": 50, "weapon": {"kind": "projected"}}, "missile", MISSILE),
    # Page 54: 1d10+10 for one-handed melee weapons from high ground; by choice with two-handed ones
    ({"attack": 50, "situation": {"high_ground": True}}, "high_ground", HIGH),
    ({"attack": 50, "weapon": {"hands": 2}, "situation": {"high_ground": True}}, "melee", MELEE),
    ({"attack": 50, "weapon": {"hands": 2}, "situation": {"high_ground": True, "high_ground_location": True}},
     "high_ground", HIGH),
])
def test_hit_location_tables(client, body, table, odds):
    answer = to_hit(client, body)
    assert answer["location_table"] == table
    assert assert_exact_pairs(answer, "location_probabilities") == odds


@pytest.mark.parametrize("face, location", [(1, "right_leg"), (4, "right_leg"), (5, "left_leg"), (8, "left_leg"),
                                            (9, "abdomen"), (11, "abdomen"), (12, "chest"), (13, "right_arm"),
                                            (15, "right_arm"), (16, "left_arm"), (18, "left_arm"), (19, "head"),
                                            (20, "head")])
def test_melee_location_faces(client, face, location):
    body = {"attack": 60, "rolls": {"attack": [30], "location": [face]}}
    assert to_hit(client, body)["roll"]["location"] == location


@pytest.mark.parametrize("face, location", [(3, "right_leg"), (4, "left_leg"), (6, "left_leg"), (7, "abdomen"),
                                            (10, "abdomen"), (11, "chest"), (15, "chest"), (16, "right_arm"),
                                            (17, "right_arm"), (18, "left_arm"), (19, "left_arm"), (20, "head")])
def test_missile_location_faces(client, face, location):
    body = {"attack": 60, "weapon": {"kind": "projected"}, "rolls": {"attack": [30], "location": [face]}}
    assert to_hit(client, body)["roll"]["location"] == location


# --- §5 damage ---------------------------------------------------------------------------------------------

def damage(client, body):
    return post(client, "/damage", {"location": "chest", **body})


def test_special_slash_and_impale_roll_the_weapon_twice(client):
    answer = damage(client, {"weapon": {"damage": "1d8+1", "type": "slash"}, "damage_bonus": "+1d4",
                             "degree": "special", "target": {"siz": 13}})
    assert answer["expression"] == "2d8+2+1d4"
    impale = damage(client, {"weapon": {"damage": "1d10", "type": "impale"}, "damage_bonus": "0",
                             "degree": "special", "target": {"siz": 13}})
    assert impale["expression"] in {"2d10", "2d10+0"}
    odds = assert_exact_pairs(impale, "probabilities")
    assert min(int(k) for k in odds) == 2 and max(int(k) for k in odds) == 20 and sum(odds.values()) == 1


def test_special_crush_counts_the_bonus_at_maximum(client):
    answer = damage(client, {"weapon": {"damage": "1d8+2", "type": "crush"}, "damage_bonus": "+1d4",
                             "degree": "special", "target": {"siz": 13}})
    odds = assert_exact_pairs(answer, "probabilities")
    assert odds == {str(n): Fraction(1, 8) for n in range(7, 15)}


def test_critical_ignores_all_armor_including_protection(client):
    answer = damage(client, {"weapon": "broadsword", "damage_bonus": "0", "degree": "critical",
                             "target": {"siz": 13, "armor": [8, 1], "protection": 4},
                             "rolls": {"damage": [3, 5]}})
    assert answer["armor_ap"] == 0 and answer["expression"] == "2d8+2"
    assert answer["roll"]["damage"] == 10 and answer["roll"]["to_location"] == 10
    assert [d["role"] for d in answer["dice"]] == ["damage", "damage"]


def test_normal_hit_is_reduced_by_layered_armor_and_protection(client):
    answer = damage(client, {"weapon": "broadsword", "damage_bonus": "0",
                             "target": {"siz": 13, "armor": ["plate", "soft_leather"], "protection": 2},
                             "rolls": {"damage": [8]}})
    assert answer["armor_ap"] == 11 and answer["expression"] == "1d8+1"
    assert answer["roll"]["damage"] == 9 and answer["roll"]["armor_absorbed"] == 9
    assert answer["roll"]["to_location"] == 0


def test_critical_max_is_the_maximum_of_a_critical(client):
    answer = damage(client, {"weapon": {"damage": "1d8+1", "type": "slash"}, "damage_bonus": "+1d4",
                             "degree": "critical_max", "target": {"siz": 30}})
    assert answer["probabilities_exact"] == {"22": "1/1"}


@pytest.mark.parametrize("degree, through, loss", [
    ("failure", 9, 0),    # failed parry: full damage
    ("success", 3, 1),    # item absorbs its AP and loses 1 AP
    ("special", 3, 0),    # special parry: no AP loss against a normal attack
    ("critical", 0, 0),   # critical parry: all damage stopped
])
def test_parry_absorption(client, degree, through, loss):
    answer = damage(client, {"weapon": "broadsword", "damage_bonus": "0", "parry": {"degree": degree, "ap": 6},
                             "target": {"siz": 20}, "rolls": {"damage": [8]}})
    assert answer["roll"]["damage"] == 9
    assert answer["roll"]["through_parry"] == through and answer["roll"]["parry_ap_loss"] == loss


def test_special_parry_still_loses_ap_to_a_critical(client):
    answer = damage(client, {"weapon": "broadsword", "damage_bonus": "0", "degree": "critical",
                             "parry": {"degree": "special", "ap": 6}, "target": {"siz": 30},
                             "rolls": {"damage": [4, 4]}})
    assert answer["roll"]["through_parry"] == 4 and answer["roll"]["parry_ap_loss"] == 1


@pytest.mark.parametrize("str_, siz, bonus", [(6, 6, "-1d4"), (12, 12, "0"), (13, 12, "+1d4"), (16, 16, "+1d4"),
                                              (20, 20, "+1d6"), (28, 28, "+2d6"), (30, 30, "+3d6"),
                                              (36, 36, "+3d6"), (40, 40, "+4d6")])
def test_damage_bonus_table(client, str_, siz, bonus):
    answer = post(client, "/combatant", {"characteristics": {"str": str_, "siz": siz}})
    assert answer["damage_bonus"] == bonus


def test_damage_bonus_from_the_attacker(client):
    answer = damage(client, {"weapon": {"damage": "1d6", "type": "crush"}, "attacker": {"str": 16, "siz": 17},
                             "target": {"siz": 30}})
    assert answer["expression"] == "1d6+1d6"


@pytest.mark.parametrize("con, siz, hp, legs, chest, arms", [
    (3, 3, 3, 1, 2, 1), (5, 6, 6, 2, 3, 2), (9, 8, 9, 3, 4, 3), (12, 13, 13, 5, 6, 4), (11, 12, 12, 4, 5, 3),
    (15, 15, 15, 5, 6, 4), (18, 18, 18, 6, 8, 5), (21, 21, 21, 7, 9, 6), (24, 24, 24, 8, 10, 7),
])
def test_hit_points_and_location_hit_points(client, con, siz, hp, legs, chest, arms):
    """HP = (CON + SIZ) / 2 rounded up; RQ3 game-sheet chart; +1 every location per 3 HP above 21."""
    answer = post(client, "/combatant", {"characteristics": {"con": con, "siz": siz}})
    assert answer["hp"] == hp
    assert answer["location_hp"] == {"right_leg": legs, "left_leg": legs, "abdomen": legs, "head": legs,
                                     "chest": chest, "right_arm": arms, "left_arm": arms}


@pytest.mark.parametrize("location, location_hp, hp, blow, state, dead", [
    ("right_arm", 4, 13, 4, "useless", False),
    ("right_arm", 4, 13, 8, "severed", False),
    ("head", 5, 13, 5, "unconscious", False),
    ("chest", 6, 13, 6, "incapacitated", False),
    ("abdomen", 5, 13, 10, "dying", False),
    ("left_leg", 5, 4, 4, "ok", True),
])
def test_wound_consequences(client, location, location_hp, hp, blow, state, dead):
    answer = post(client, "/damage", {"weapon": {"damage": str(blow), "type": "crush"}, "damage_bonus": "0",
                                      "location": location,
                                      "target": {"siz": 40, "location_hp": location_hp, "hp": hp}, "seed": 1})
    roll = answer["roll"]
    assert roll["to_location"] == blow and roll["location_state"] == state and roll["dead"] is dead


def test_severed_limb_counts_only_twice_its_hp_against_total(client):
    answer = post(client, "/damage", {"weapon": {"damage": "13", "type": "crush"}, "damage_bonus": "0",
                                      "location": "right_arm", "target": {"siz": 40, "location_hp": 4, "hp": 13},
                                      "seed": 1})
    assert answer["roll"]["hp_after"] == 5 and answer["roll"]["location_state"] == "severed"


# --- §5.6 knockback (Page 49, Bracing, Knockback into objects) ---------------------------------------------

@pytest.mark.parametrize("damage, metres, multiple", [(12, 0, None), (13, 1, 5), (22, 1, 5), (23, 2, 4),
                                                      (33, 3, 3), (43, 4, 2), (53, 5, 1)])
def test_knockback_metres_and_dex_multiple(client, damage, metres, multiple):
    answer = post(client, "/knockback", {"damage": damage, "weapon_type": "slash", "target": {"siz": 13, "dex": 12}})
    assert answer["metres"] == metres and answer["dex_multiplier"] == multiple and answer["threshold"] == 13
    if multiple:
        assert exact(answer["dex_chance_exact"]) == Fraction(12 * multiple, 100)
        assert answer["automatic_fall"] is False


def test_knockback_beyond_dex_x1_is_an_automatic_fall(client):
    answer = post(client, "/knockback", {"damage": 63, "weapon_type": "slash", "target": {"siz": 13, "dex": 12}})
    assert answer["metres"] == 6 and answer["automatic_fall"] is True and answer["dex_chance_exact"] == "0/1"


@pytest.mark.parametrize("body, counted, metres", [
    ({"damage": 7, "weapon_type": "crush"}, 14, 1),                        # crushing always doubled
    ({"damage": 7, "weapon_type": "slash", "penetrated": False}, 14, 1),   # stopped by armor
    ({"damage": 7, "weapon_type": "slash"}, 7, 0),
    ({"damage": 20, "weapon_type": "impale", "impaled": True}, 0, 0),      # an impale does no knockback
    ({"damage": 20, "weapon_type": "impale"}, 20, 1),
])
def test_knockback_damage_doubling_and_impales(client, body, counted, metres):
    answer = post(client, "/knockback", {**body, "target": {"siz": 13}})
    assert answer["knockback_damage"] == counted and answer["metres"] == metres
    assert answer["dex_chance"] is None


@pytest.mark.parametrize("damage, metres", [(25, 0), (26, 1), (34, 1), (35, 2)])
def test_braced_figures_resist_up_to_str_plus_siz(client, damage, metres):
    answer = post(client, "/knockback", {"damage": damage, "weapon_type": "slash",
                                         "target": {"siz": 13, "str": 12, "braced": True}})
    assert answer["threshold"] == 25 and answer["metres"] == metres


def test_braced_without_str_is_422(client):
    answer = client.post(BASE + "/knockback", json={"damage": 30, "weapon_type": "slash",
                                                    "target": {"siz": 13, "braced": True}})
    assert answer.status_code == 422


def test_mounted_target_adds_the_mount_siz_after_a_ride_success(client):
    answer = post(client, "/knockback", {"damage": 30, "weapon_type": "slash",
                                         "target": {"siz": 13, "mounted": {"ride_success": True, "mount_siz": 30}}})
    assert answer["threshold"] == 43 and answer["metres"] == 0 and answer["unhorsed"] is False
    thrown_off = post(client, "/knockback", {"damage": 30, "weapon_type": "slash",
                                             "target": {"siz": 13, "mounted": {"ride_success": False,
                                                                               "mount_siz": 30}}})
    assert thrown_off["metres"] == 2 and thrown_off["unhorsed"] is True


@pytest.mark.parametrize("damage, obstacle, collision", [
    (13, "creature", {"dice": "1d6", "doubled": False}),   # at least 1d6
    (23, "creature", {"dice": "1d6", "doubled": False}),   # 2 m -> 1d6
    (43, "solid", {"dice": "2d6", "doubled": True}),       # 4 m -> 2d6, doubled against a wall
    (13, "none", None),
])
def test_knockback_collisions(client, damage, obstacle, collision):
    answer = post(client, "/knockback", {"damage": damage, "weapon_type": "slash", "target": {"siz": 13},
                                         "obstacle": obstacle})
    assert answer["collision"] == collision


# --- §6 armor layering (Page 68) ------------------------------------------------------------------------

@pytest.mark.parametrize("under, bonus", [("soft_leather", 1), ("bezainted", 2), ("ringmail", 3), ("chainmail", 4)])
def test_layering_example_under_plate(client, under, bonus):
    answer = post(client, "/armor", {"layers": ["plate", under]})
    assert answer == {**answer, "ap": 8 + bonus, "highest": 8, "layer_bonus": bonus}
    assert post(client, "/armor", {"layers": [under, "plate"]})["ap"] == 8 + bonus


def test_layering_more_than_two_and_protection(client):
    assert post(client, "/armor", {"layers": [8, 5, 1], "protection": 2})["ap"] == 8 + 3 + 1 + 2
    assert post(client, "/armor", {"layers": [8, 5, 1], "options": {"layering": "second_only"}})["ap"] == 11


# --- §8 strike ranks and Statement of Intent -------------------------------------------------------------

@pytest.mark.parametrize("dex, sr", [(5, 5), (6, 4), (8, 4), (9, 3), (12, 3), (13, 2), (15, 2), (16, 1),
                                     (18, 1), (19, 0)])
def test_dex_strike_ranks(client, dex, sr):
    answer = post(client, "/combatant", {"characteristics": {"dex": dex}})
    assert answer["dex_sr"] == sr and answer["missile_sr"] == sr


@pytest.mark.parametrize("siz, sr", [(6, 3), (7, 2), (14, 2), (15, 1), (21, 1), (22, 0)])
def test_siz_strike_ranks(client, siz, sr):
    assert post(client, "/combatant", {"characteristics": {"siz": siz}})["siz_sr"] == sr


def test_combatant_weapon_srs_and_bases(client):
    answer = post(client, "/combatant", {"characteristics": {"dex": 12, "siz": 13},
                                         "weapons": [{"name": "broadsword", "sr": 2}, {"name": "spear", "sr": 0}]})
    assert answer["weapons"] == [{"name": "broadsword", "melee_sr": 7, "second_attack_sr": 10},
                                 {"name": "spear", "melee_sr": 5, "second_attack_sr": 8}]
    assert answer["maneuver_base"] == 25 and answer["dodge_base"] == 15


@pytest.mark.parametrize("dex, siz, weapon_sr, first, second", [
    (16, 16, 1, 3, 6),    # second attack 3 SR after the first
    (12, 13, 0, 5, 8),
    (12, 13, 2, 7, 10),   # 7 + 3 = 10
    (9, 13, 3, 8, 10),    # first on SR 8 or later: second on SR 10
])
def test_two_attacks_with_one_weapon(client, dex, siz, weapon_sr, first, second):
    answer = post(client, "/intent", {"combatant": {"characteristics": {"dex": dex, "siz": siz},
                                                    "weapons": [{"name": "w", "sr": weapon_sr}]},
                                      "actions": [{"type": "attack", "weapon": 0}, {"type": "attack", "weapon": 0}]})
    assert answer["valid"] is True
    assert answer["actions"] == [{"type": "attack", "sr": first, "modifier": -10},
                                 {"type": "attack", "sr": second, "modifier": -10}]


def test_two_weapons_attack_at_their_own_srs(client):
    answer = post(client, "/intent", {"combatant": {"characteristics": {"dex": 12, "siz": 13},
                                                    "weapons": [{"name": "a", "sr": 2}, {"name": "b", "sr": 3}]},
                                      "actions": [{"type": "attack", "weapon": 0}, {"type": "attack", "weapon": 1}]})
    assert [(a["sr"], a["modifier"]) for a in answer["actions"]] == [(7, 0), (8, 0)]


@pytest.mark.parametrize("first, second, valid, second_sr", [(4, 6, True, 10), (5, 6, False, 11), (1, 1, True, 2)])
def test_two_spells_must_fit_in_ten_srs(client, first, second, valid, second_sr):
    answer = post(client, "/intent", {"combatant": {"characteristics": {"dex": 12, "siz": 13}, "weapons": []},
                                      "actions": [{"type": "cast", "spell_sr": first},
                                                  {"type": "cast", "spell_sr": second}]})
    assert answer["valid"] is valid and [a["sr"] for a in answer["actions"]] == [first, second_sr]
    assert bool(answer["problems"]) is (not valid)


# --- §7 movement -------------------------------------------------------------------------------------------

def test_mobility_example_ten_metres_not_fourteen(client):
    """2) Move Phase: a human (MOV 3) with Mobility 4, one action and one move, moves 10 m a Move phase."""
    answer = post(client, "/movement", {"mov": 3, "move_actions": 1, "mobility": 4})
    assert answer["k"] == 2 and answer["metres_per_phase_exact"] == "10/1" and answer["metres_per_phase"] == 10
    assert answer["metres_per_round_exact"] == "20/1" and answer["metres_per_second_exact"] == "4/1"
    assert answer["applies_limit"] is False and answer["backwards_metres_per_phase_exact"] == "5/1"


@pytest.mark.parametrize("move_actions, limited", [(0, "1/1"), (1, "2/1"), (2, "3/1")])
def test_engaged_humans_move_one_to_three_metres(client, move_actions, limited):
    answer = post(client, "/movement", {"mov": 3, "move_actions": move_actions, "engaged": True})
    assert answer["applies_limit"] is True and answer["limited_metres_per_phase_exact"] == limited
    assert exact(answer["backwards_metres_per_phase_exact"]) == Fraction(limited) / 2
    assert answer["metres_per_phase_exact"] == f"{3 * (1 + move_actions)}/1"


def test_movement_query_matches_post(client):
    query = client.get(BASE + "/movement", query_string={"mov": 4, "move_actions": 2, "limited": "true"})
    assert query.status_code == 200
    assert query.get_json() == post(client, "/movement", {"mov": 4, "move_actions": 2, "limited": True})
    assert query.get_json()["limited_metres_per_phase_exact"] == "4/1"


# --- contests and grapple ----------------------------------------------------------------------------------

def test_maneuver_bonus_per_metre_of_basic_movement(client):
    answer = post(client, "/contest", {"kind": "maneuver", "a": {"skill": 40, "mov": 5}, "b": {"skill": 40, "mov": 3}})
    assert (answer["a_effective"], answer["b_effective"]) == (50, 40)
    odds = assert_exact_pairs(answer, "probabilities")
    assert set(odds) == {"a", "b", "no_change"} and sum(odds.values()) == 1 and odds["a"] > odds["b"]


def test_equal_skills_contest_is_symmetric(client):
    odds = post(client, "/contest", {"a": {"skill": 50}, "b": {"skill": 50}})["probabilities_exact"]
    assert odds["a"] == odds["b"]


@pytest.mark.parametrize("active, passive, chance", [(10, 10, "1/2"), (13, 10, "13/20"), (20, 10, "19/20"),
                                                     (5, 20, "1/20"), (8, 10, "2/5")])
def test_resistance_table(client, active, passive, chance):
    answer = post(client, "/contest", {"kind": "resistance", "active": active, "passive": passive})
    assert answer["chance_exact"] == chance and answer["effective"] == int(Fraction(chance) * 100)


@pytest.mark.parametrize("mode, skill, active, passive, dmg", [
    ("immobilise", 50, 13, 6, None),      # STR vs STR/2 (11/2 = 5.5 -> 6)
    ("throw", 60, 25, 18, "1d6+1d4"),     # +10%; STR + DEX vs SIZ/2 + DEX (15/2 -> 8, + 10)
    ("damage", 40, None, None, "1d4+1d4"),  # -10%; armor ignored
    ("escape", None, 6, 13, None),        # the held figure's STR/2 vs the holder's STR, no grapple roll
])
def test_grapple_follow_ups(client, mode, skill, active, passive, dmg):
    answer = post(client, "/grapple", {"mode": mode, "grapple": 50, "attacker": {"str": 13, "dex": 12, "siz": 13},
                                       "defender": {"str": 11, "dex": 10, "siz": 15}})
    assert answer["follow_up_skill"] == skill and answer["damage"] == dmg
    if active is None:
        assert answer["resistance"] is None
    else:
        resistance = answer["resistance"]
        assert (resistance["active"], resistance["passive"]) == (active, passive)
        assert exact(resistance["chance_exact"]) == Fraction(max(5, min(95, 50 + 5 * (active - passive))), 100)


# --- ruleset description and tables ------------------------------------------------------------------------

TABLES = {"melee-locations", "missile-locations", "dex-sr", "siz-sr", "damage-bonus", "location-hp", "armor",
          "weapons", "shields", "degrees"}


def test_ruleset_description_shapes(client):
    answer = client.get("/v1/rulesets/runequest-house").get_json()
    assert {"id", "name", "source", "summary", "href", "tables", "rulings", "options", "assumptions"} <= set(answer)
    assert answer["id"] == "runequest-house" and "004_f79db534c74a6ff0" in str(answer["source"])
    assert {t["name"] for t in answer["tables"]} == TABLES
    for name, option in answer["options"].items():
        assert {"default", "tag", "summary"} <= set(option) and option["tag"] in {"DOC", "INF", "CORE", "DEF"}
    defaults = {name: option["default"] for name, option in answer["options"].items()}
    assert defaults["same_sr_dodge_penalty"] == 20 and defaults["layering"] == "half_each"
    assert defaults["point_blank_fraction"] == "1/10" and defaults["max_rounds"] == 30
    assert defaults["knockback_damage"] == "after_parry_before_armor" and defaults["collision_min_dice"] == 1
    assert defaults["resistance_clamp"] == [5, 95] and defaults["braced_extra_from"] == "str_plus_siz"
    assert defaults["shield_cover_locations"] == {"buckler": 1, "small": 2, "medium": 2, "hoplite": 3, "large": 3}
    assert defaults["small_shield_missile_parry"] == {"normal": "1/5", "point_blank": "critical_only"}
    assert answer["options"]["special_damage"]["choices"] == ["rq3", "none"]
    for assumption in answer["assumptions"]:
        assert set(assumption) >= {"id", "tag", "summary", "option", "source"}
        assert assumption["option"] is None or assumption["option"] in answer["options"]


def test_tables_serve_the_rq3_pack_with_etags(client):
    melee = client.get("/v1/rulesets/runequest-house/tables/melee-locations")
    body = melee.get_json()
    assert body["ruleset"] == "runequest-house" and body["name"] == "melee-locations"
    assert [(row["min"], row["max"], row["location"]) for row in body["data"]] == [
        (1, 4, "right_leg"), (5, 8, "left_leg"), (9, 11, "abdomen"), (12, 12, "chest"), (13, 15, "right_arm"),
        (16, 18, "left_arm"), (19, 20, "head")]
    again = client.get("/v1/rulesets/runequest-house/tables/melee-locations",
                       headers={"If-None-Match": melee.headers["ETag"]})
    assert again.status_code == 304
    armor = client.get("/v1/rulesets/runequest-house/tables/armor").get_json()["data"]
    assert armor == {"soft_leather": 1, "stiff_leather": 2, "cuirbouilli": 3, "bezainted": 4, "ringmail": 5,
                     "lamellar": 6, "scale": 6, "chainmail": 7, "plate": 8}
    weapons = client.get("/v1/rulesets/runequest-house/tables/weapons").get_json()["data"]
    assert weapons["javelin"]["damage"] == "1d10" and weapons["dagger"]["type"] == "impale"
    assert weapons["broadsword"]["damage"] == "1d8+1" and weapons["broadsword"]["type"] == "slash"
    assert client.get("/v1/rulesets/runequest-house/tables/nope").status_code == 404


def test_ruleset_is_listed(client):
    listing = client.get("/v1/rulesets").get_json()
    rulesets = listing["rulesets"] if isinstance(listing, dict) else listing
    assert "runequest-house" in [r["id"] for r in rulesets]


# --- §12.12 stateless round --------------------------------------------------------------------------------

def fighter(cid, side, dex, intelligence, q):
    return {"id": cid, "side": side, "characteristics": {"str": 13, "con": 12, "siz": 13, "int": intelligence,
                                                           "dex": dex},
            "weapons": [{"name": "broadsword", "attack": 60, "parry": 50, "damage": "1d8+1", "type": "slash",
                         "sr": 2}],
            "position": {"q": q, "r": 0}}


def test_round_orders_and_state_round_trip(client):
    state = {"ruleset": "runequest-house", "round": 0, "options": {},
             "combatants": [fighter("a", "x", 12, 12, 0), fighter("b", "y", 14, 11, 1)]}
    body = {"state": state, "seed": 7, "declarations": [
        {"combatant": "a", "actions": [{"type": "attack", "target": "b"}, {"type": "parry"}]},
        {"combatant": "b", "actions": [{"type": "attack", "target": "a"}, {"type": "parry"}]}]}
    answer = post(client, "/rounds/resolve", body)
    assert answer["round"] == 1 and answer["state"]["round"] == 1 and answer["seed"] == 7
    assert answer["intent_order"] == ["b", "a"]        # lowest INT first
    assert answer["movement_order"] == ["b", "a"]      # highest DEX first
    # SR: DEX 14 -> 2, DEX 12 -> 3; SIZ 13 -> 2; broadsword 2
    assert [(s["combatant"], s["action"], s["sr"]) for s in answer["strike_order"]] == [("b", "attack", 6),
                                                                                       ("a", "attack", 7)]
    assert [e["seq"] for e in answer["events"]] == list(range(1, len(answer["events"]) + 1))
    assert answer["events"][-1]["type"] == "round_ended"
    assert client.post(BASE + "/rounds/resolve", json=body).get_json() == answer
    assert post(client, "/rounds/resolve", {**body, "state": answer["state"]})["round"] == 2


def test_round_declaration_errors_name_the_declaration(client):
    state = {"ruleset": "runequest-house", "round": 0, "options": {},
             "combatants": [fighter("a", "x", 12, 12, 0), fighter("b", "y", 14, 11, 1)]}
    body = {"state": state, "declarations": [
        {"combatant": "a", "actions": [{"type": "attack", "target": "zz"}, {"type": "parry"}]}]}
    fields = problem_fields(client.post(BASE + "/rounds/resolve", json=body))
    assert any(field.startswith("declarations.0") for field in fields)


# --- further seed facts and dice conventions -------------------------------------------------------------

def test_mounted_against_footmen_is_high_ground(client):
    """Page 52 / Page 54: mounted fighters get the high-ground +10% and the 1d10+10 location roll."""
    answer = to_hit(client, {"attack": 60, "situation": {"mounted": True}})
    assert answer["attack_effective"] == 70 and answer["location_table"] == "high_ground"


def test_high_ground_location_die_is_a_d10_plus_ten(client):
    answer = to_hit(client, {"attack": 60, "situation": {"high_ground": True},
                             "rolls": {"attack": [30], "location": [10]}})
    assert answer["roll"]["location"] == "head"
    assert [d for d in answer["dice"] if d["role"] == "location"][0]["total"] == 20
    bad = client.post(BASE + "/to-hit", json={"attack": 60, "situation": {"high_ground": True},
                                              "rolls": {"attack": [30], "location": [11]}})
    assert "rolls.location.0" in problem_fields(bad)


def test_giant_cannot_dodge_a_blow_at_its_exposed_limb(client):
    answer = to_hit(client, {"attack": 60, "situation": {"giant_exposed": True},
                             "defence": {"type": "dodge", "skill": 60}})
    assert answer["chance_exact"] == "3/5"


def test_an_impale_stopped_by_armor_counts_double_for_knockback(client):
    """Page 49: an impale that does no damage is a blow that did not penetrate: double for knockback."""
    answer = post(client, "/damage", {"weapon": {"damage": "1d6", "type": "impale"}, "location": "chest",
                                      "damage_bonus": "0", "degree": "special", "target": {"siz": 3, "armor": [5]},
                                      "rolls": {"damage": [1, 1]}})
    assert answer["roll"]["to_location"] == 0 and answer["roll"]["knockback"]["knockback_damage"] == 4
    impaled = post(client, "/damage", {"weapon": {"damage": "1d6", "type": "impale"}, "location": "chest",
                                       "damage_bonus": "0", "degree": "special", "target": {"siz": 3},
                                       "rolls": {"damage": [6, 6]}})
    assert impaled["roll"]["knockback"]["metres"] == 0 and impaled["knockback_chance_exact"] == "0/1"


def test_skipped_location_face_is_ignored_and_not_listed(client):
    answer = to_hit(client, {"attack": 60, "rolls": {"attack": [80], "location": [3]}})
    assert answer["roll"]["outcome"] == "miss" and answer["roll"]["location"] is None
    assert [d["role"] for d in answer["dice"]] == ["attack"] and answer["seed"] is None


def test_missing_faces_are_completed_from_an_echoed_random_seed(client):
    answer = to_hit(client, {"attack": 60, "rolls": {"attack": [30]}})
    assert isinstance(answer["seed"], int) and 0 <= answer["seed"] < 2 ** 63
    assert [(d["role"], d["supplied"]) for d in answer["dice"]] == [("attack", True), ("location", False)]


@pytest.mark.parametrize("path, body, field", [
    ("/to-hit", {"attack": 60, "rolls": {"attack": [30], "location": [3, 4]}}, "rolls.location"),
    ("/to-hit", {"attack": 60, "rolls": {"attack": [30], "location": [21]}}, "rolls.location.0"),
    ("/damage", {"weapon": "broadsword", "location": "chest", "damage_bonus": "0", "rolls": {"damage": [9]}},
     "rolls.damage.0"),
    ("/damage", {"weapon": "broadsword", "location": "chest", "damage_bonus": "0", "rolls": {"damage": [3, 4]}},
     "rolls.damage"),
    ("/damage", {"weapon": "broadsword", "location": "nose"}, "location"),
    ("/to-hit", {"attack": 60, "seed": -1}, "seed"),
    ("/to-hit", {"attack": True}, "attack"),
    ("/attack", {"attack": 60, "weapon": "broadsword", "defence": {"type": "parry", "skill": 50}}, "defence.ap"),
    ("/intent", {"combatant": {"characteristics": {"dex": 12, "siz": 13}, "weapons": [{"name": "w", "sr": 2}]},
                 "actions": [{"type": "attack", "weapon": 3}, {"type": "parry"}]}, "actions.0.weapon"),
])
def test_bad_values_name_their_dotted_field(client, path, body, field):
    assert field in problem_fields(client.post(BASE + path, json=body))


def test_attack_outcomes_and_damage_distribution(client):
    answer = post(client, "/attack", {"attack": 60, "weapon": {"damage": "1d6", "type": "slash"},
                                      "damage_bonus": "0"})
    odds = assert_exact_pairs(answer, "probabilities")
    assert odds == {"fumble": Fraction(1, 50), "miss": Fraction(19, 50), "no_damage": 0, "damage": Fraction(3, 5)}
    spread = assert_exact_pairs(answer, "damage_probabilities")
    assert sum(spread.values()) == 1 and spread["0"] == Fraction(2, 5)
    armored = {location: [20] for location in LOCATIONS}
    stopped = post(client, "/attack", {"attack": 60, "weapon": {"damage": "1d6", "type": "slash"},
                                       "damage_bonus": "0", "target": {"siz": 13, "armor": armored}})
    # only criticals (3%) ignore the 20 AP
    assert stopped["probabilities_exact"] == {"fumble": "1/50", "miss": "19/50", "no_damage": "57/100",
                                              "damage": "3/100"}


def test_round_ties_use_the_supplied_tie_dice(client):
    state = {"ruleset": "runequest-house", "round": 0, "options": {},
             "combatants": [fighter("a", "x", 12, 12, 0), fighter("b", "y", 12, 12, 1)]}
    declarations = [{"combatant": cid, "actions": [{"type": "attack", "target": other}, {"type": "parry"}]}
                    for cid, other in (("a", "b"), ("b", "a"))]
    rolls = [{"combatant": "a", "role": "intent_tie", "faces": [20]}, {"combatant": "b", "role": "intent_tie", "faces": [1]},
             {"combatant": "a", "role": "movement_tie", "faces": [1]},
             {"combatant": "b", "role": "movement_tie", "faces": [20]}]
    answer = post(client, "/rounds/resolve", {"state": state, "declarations": declarations, "seed": 3, "rolls": rolls})
    assert answer["intent_order"] == ["b", "a"] and answer["movement_order"] == ["b", "a"]
