"""POST /v1/tactical/damage and /v1/tactical/armor-wear: shapes, numbers and problem+json refusals."""
from __future__ import annotations

import pytest

SWORD = {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"}
MAN = {"modified_sta": 18, "condition": 15, "pain_resistance": 10}


def blow(client, **parts):
    body = {"attacker": {"strength": 15, "modified_sta": 20}, "weapon": SWORD, "target": MAN, **parts}
    return client.post("/v1/tactical/damage", json=body)


def test_blow_through_singlemail(client):
    response = blow(client, target={**MAN, "armor": [{"type": "singlemail"}]})
    assert response.status_code == 200
    body = response.get_json()
    keys = ("pot", "knockback_feet", "keep_feet_dv", "pot_through_armor", "wounds_inflicted", "wounds_total",
            "wound_level", "status")
    assert [body[k] for k in keys] == [23, 5, 15, 13, 3, 3, "serious", "alive"]
    assert body["stun"] == {"check_dv": 6, "penalty_if_failed": 6, "penalty_if_passed": 3}
    assert body["armor_before"][0]["durability"] == 40 and body["armor_after"][0]["durability"] == 35
    assert body["armor_after"][0]["dr"] == 10 and body["death_check"] is None
    assert body["effective_strength_factor"] == 1
    assert any(step["rule"] == "Getting Hit: Wound Thresholds" for step in body["trace"])


def test_tenth_wound_and_weight_class_index(client):
    target = {**MAN, "wounds": 8, "pain_resistance": 100}
    body = blow(client, weapon={**SWORD, "weight_class": 2, "edge": "blunt"}, target=target).get_json()
    # POT 23 > 5 x 33/8 -> 5 wounds: 13 in all -> dead
    assert (body["wounds_total"], body["status"], body["death_check"]) == (13, "dead", None)
    weak = {"strength": 1, "modified_sta": 1}
    body = blow(client, attacker=weak, target={**target, "wounds": 9}).get_json()
    assert (body["wounds_total"], body["status"], body["death_check"]) == (10, "collapsed", {"dv": 55})
    assert body["effective_strength_factor"] == 0.25


def test_options_and_wear_off(client):
    body = blow(client, target={**MAN, "armor": [{"type": "doublemail", "durability": 22}]},
                options={"armor_wear": False, "progression": "linear"}).get_json()
    assert body["armor_after"] == body["armor_before"] and body["keep_feet_dv"] == 5


@pytest.mark.parametrize(("parts", "field"), [
    ({"attack": "slash"}, "attacker.coordination"),
    ({"weapon": {"grip": "crossbow"}}, "weapon.fixed_pot"),
    ({"target": {**MAN, "armor": [{"type": "padded"}, {"type": "singlemail", "dr": 10, "durability": 5}]}},
     "target.armor.1.dr"),
    ({"target": {**MAN, "armor": [{"type": "padded", "dr": 12}]}}, "target.armor.0.dr"),
    ({"weapon": {**SWORD, "weight_class": 6}}, "weapon.weight_class"),
    ({"weapon": {**SWORD, "weight_class": "huge"}}, "weapon.weight_class"),
    ({"weapon": {**SWORD, "size": 21}}, "weapon.size"),
    ({"weapon": {**SWORD, "size": 14}, "options": {"body_points": True}}, "weapon.size"),
    ({"attacker": {"strength": 1e9, "modified_sta": 20}}, "attacker.strength"),
    ({"options": {"armor_wear": 1}}, "options.armor_wear"),
])
def test_refusals_are_problems_naming_the_field(client, parts, field):
    response = blow(client, **parts)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in [error["field"] for error in response.get_json()["errors"]]


def test_armor_wear_sequence(client):
    body = {"armor": [{"type": "doublemail"}, {"type": "padded"}],
            "strikes": [{"db": 15}, {"db": 10}, {"db": 0, "attack": "slash", "pot": 30},
                        {"db": 2, "attack": "thrust"}]}
    response = client.post("/v1/tactical/armor-wear", json=body)
    assert response.status_code == 200
    states = response.get_json()["states"]
    assert [[(x["dr"], x["durability"]) for x in state] for state in states] == [
        [(20, 25), (10, 10)], [(15, 15), (10, 10)], [(0, 0), (10, 10)], [(0, 0), (9, 9)]]


def test_armor_wear_slash_needs_pot_and_limits(client):
    response = client.post("/v1/tactical/armor-wear", json={"armor": [{"type": "padded"}],
                                                            "strikes": [{"db": 1, "attack": "slash"}]})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "strikes.0.pot"
    too_many = {"armor": [{"type": "padded"}], "strikes": [{"db": 1}] * 101}
    assert client.post("/v1/tactical/armor-wear", json=too_many).status_code == 422


def test_body_point_level_follows_the_share_lost(client):
    body = {"attacker": {"strength": 15, "modified_sta": 15},
            "weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"},
            "target": {"modified_sta": 14, "condition": 14, "pain_resistance": 40, "armor": [{"type": "doublemail"}],
                       "body_points": 60, "damage_taken": 10},
            "options": {"body_points": True}}
    answer = client.post("/v1/tactical/damage", json=body).get_json()
    # POT 15 x (1 + DM 1.5) = 37.5 -> 38; doublemail 20 leaves 18; 10 + 18 = 28 of 60 BP: over 1/4, Serious.
    assert answer["pot_through_armor"] == 18
    assert answer["body_points"] == {"damage": 28, "total": 60, "remaining": 32, "level": "serious"}
    assert answer["wound_level"] == "serious"
    plain = client.post("/v1/tactical/damage", json={**body, "options": {}}).get_json()
    assert plain["body_points"] is None


@pytest.mark.parametrize("weapon", [{"grip": "hurled", "size": 6, "weight_class": "medium", "edge": "edged"},
                                    {"grip": "bow", "size": 4},
                                    {"grip": "crossbow", "fixed_pot": 30}])
def test_a_charge_adds_nothing_to_hurled_or_missile_blows(client, weapon):
    """Getting Hit: The POT of Blows: charging speed counts for melee blows, not hurled or missile ones."""
    still = blow(client, weapon=weapon, attacker={"strength": 15, "modified_sta": 20}).get_json()
    charging = blow(client, weapon=weapon, attacker={"strength": 15, "modified_sta": 20, "charge_mph": 10}).get_json()
    assert charging["pot"] == still["pot"] and charging["knockback_feet"] == still["knockback_feet"]
    assert any("not added" in step["detail"] for step in charging["trace"])


@pytest.mark.parametrize("armor_wear, after", [(True, {"dr": 10, "durability": 39}),
                                               (False, {"dr": 9, "durability": 9})])
def test_a_thrust_through_singlemail_takes_one_off_r_or_off_the_dr(client, armor_wear, after):
    body = blow(client, weapon={**SWORD, "edge": "pointed"}, attack="thrust",
                target={**MAN, "armor": [{"type": "singlemail"}]}, options={"armor_wear": armor_wear}).get_json()
    assert {k: body["armor_after"][0][k] for k in ("dr", "durability")} == after
