"""The runequest-house calculators through the Flask test client (rules document §12)."""
from __future__ import annotations

from fractions import Fraction

import pytest

BASE = "/v1/runequest-house"


def post(client, path, body):
    return client.post(BASE + path, json=body)


def fields_of(answer):
    return {e["field"] for e in answer.get_json()["errors"]}


def test_check_with_supplied_face_and_exact_odds(client):
    answer = post(client, "/check", {"skill": 65, "modifier": -10, "rolls": {"d100": [3]}}).get_json()
    assert answer["effective"] == 55 and answer["chance_exact"] == "11/20"
    assert answer["roll"] == {"d100": 3, "degree": "critical"} and answer["dice"][0]["supplied"] is True
    assert answer["seed"] is None
    assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1


def test_check_characteristic_multiple_and_multiplier(client):
    answer = post(client, "/check", {"characteristic": {"value": 12, "multiple": 5}, "multiplier": "1/2"}).get_json()
    assert answer["effective"] == 30 and answer["roll"] is None and answer["dice"] == []


@pytest.mark.parametrize("body, field", [
    ({"skill": 50, "options": {"nope": 1}}, "options.nope"),
    ({"skill": 50, "options": {"rounding": "down"}}, "options.rounding"),
    ({"skill": 50.5}, "skill"), ({"skill": True}, "skill"), ({}, "skill"),
    ({"skill": 50, "characteristic": {"value": 10, "multiple": 5}}, "skill"),
    ({"skill": 50, "rolls": {"d100": [101]}}, "rolls.d100.0"),
    ({"skill": 50, "rolls": {"d100": [1, 2]}}, "rolls.d100"),
    ({"skill": 50, "extra": 1}, "extra"),
    ({"skill": 50, "options": {"melee_locations": [{"min": 1, "max": 19, "location": "head"}]}},
     "options.melee_locations.0.max"),
])
def test_bad_check_bodies_name_their_field(client, body, field):
    answer = post(client, "/check", body)
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    assert field in fields_of(answer)


def test_to_hit_dodge_odds_sum_to_one_and_roll_with_supplied_faces(client):
    body = {"attack": 70, "defence": {"type": "dodge", "skill": 40},
            "rolls": {"attack": [10], "defence": [99], "location": [20]}}
    answer = post(client, "/to-hit", body).get_json()
    assert set(answer["probabilities"]) == {"fumble", "miss", "hit", "special", "critical", "critical_max"}
    assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1
    assert answer["roll"] == {"attack": 10, "attack_degree": "special", "defence": 99, "defence_degree": "fumble",
                              "outcome": "critical", "location": "head"}


def test_to_hit_critical_only_weapon_parry_of_a_point_blank_arrow(client):
    body = {"attack": 60, "weapon": {"kind": "projected"}, "situation": {"point_blank": True},
            "defence": {"type": "parry", "skill": 60}}
    answer = post(client, "/to-hit", body).get_json()
    assert answer["defence_critical_only"] and answer["defence_effective"] == 60
    assert answer["defence_chance_exact"] == "3/100" and answer["location_table"] == "missile"


def test_to_hit_refuses_a_braced_dodge(client):
    answer = post(client, "/to-hit", {"attack": 50, "defence": {"type": "dodge", "skill": 30, "braced": True}})
    assert answer.status_code == 422 and fields_of(answer) == {"defence.braced"}


def test_damage_special_slash_through_layered_armor(client):
    body = {"weapon": "broadsword", "damage_bonus": "+1d4", "degree": "special", "location": "chest",
            "target": {"siz": 13, "dex": 14, "armor": ["ringmail", "soft_leather"], "location_hp": 6, "hp": 13},
            "rolls": {"damage": [8, 8], "bonus": [4]}}
    answer = post(client, "/damage", body).get_json()
    assert answer["expression"] == "2d8+2+1d4" and answer["armor_ap"] == 6
    roll = answer["roll"]
    assert (roll["damage"], roll["armor_absorbed"], roll["to_location"]) == (22, 6, 16)
    assert roll["location_state"] == "dying" and roll["knockback"]["metres"] == 1
    assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1


def test_damage_critical_ignores_armor_and_crush_counts_double_for_knockback(client):
    answer = post(client, "/damage", {"weapon": {"damage": "1d8+2", "type": "crush"}, "degree": "critical",
                                      "location": "head", "target": {"siz": 13, "armor": [8]},
                                      "rolls": {"damage": [3]}}).get_json()
    assert answer["armor_ap"] == 0 and answer["roll"]["to_location"] == 5
    assert answer["roll"]["knockback"]["knockback_damage"] == 10


def test_damage_refuses_too_many_faces(client):
    answer = post(client, "/damage", {"weapon": "dagger", "location": "head", "rolls": {"damage": [1, 2]}})
    assert answer.status_code == 422 and fields_of(answer) == {"rolls.damage"}


def test_attack_distribution(client):
    body = {"attack": 70, "weapon": {"name": "broadsword"}, "damage_bonus": "+1d4",
            "defence": {"type": "parry", "skill": 55, "item": "medium_shield", "ap": 12}}
    answer = post(client, "/attack", body).get_json()
    probabilities = {k: Fraction(v) for k, v in answer["probabilities_exact"].items()}
    assert sum(probabilities.values()) == 1 and sum(Fraction(v) for v in answer["damage_probabilities_exact"].values()) == 1
    assert probabilities["fumble"] == Fraction(2, 100) and answer["chance_exact"] == "63/200"
    assert Fraction(answer["damage_probabilities_exact"]["0"]) == 1 - probabilities["damage"]
    missing = post(client, "/attack", {**body, "defence": {"type": "parry", "skill": 55}})
    assert missing.status_code == 422 and fields_of(missing) == {"defence.ap"}


def test_armor_knockback_combatant_intent_contest_grapple_movement(client):
    assert post(client, "/armor", {"layers": ["plate", "soft_leather"]}).get_json()["ap"] == 9
    assert post(client, "/armor", {"layers": ["plate", "mithril"]}).status_code == 422
    kb = post(client, "/knockback", {"damage": 20, "weapon_type": "slash", "target": {"siz": 13, "braced": True}})
    assert kb.status_code == 422 and fields_of(kb) == {"target.str"}
    hero = post(client, "/combatant", {"characteristics": {"str": 14, "con": 12, "siz": 13, "dex": 15},
                                       "weapons": [{"name": "broadsword"}, {"name": "club", "sr": 2}]}).get_json()
    assert hero["weapons"][0] == {"name": "broadsword", "melee_sr": 6, "second_attack_sr": 9}
    assert hero["damage_bonus"] == "+1d4" and hero["hp"] == 13
    partial = post(client, "/combatant", {"characteristics": {"dex": 15}}).get_json()
    assert partial["hp"] is None and partial["dex_sr"] == 2
    intent = post(client, "/intent", {"combatant": {"characteristics": {"dex": 15, "siz": 13}, "weapons": []},
                                      "actions": [{"type": "attack", "weapon": 0}, {"type": "parry"}]})
    assert intent.status_code == 422 and fields_of(intent) == {"actions.0.weapon"}
    contest = post(client, "/contest", {"kind": "resistance", "active": 15}).status_code
    assert contest == 422
    assert post(client, "/grapple", {"mode": "damage", "grapple": 50, "attacker": {"str": 10, "dex": 10, "siz": 10},
                                     "defender": {"str": 10, "dex": 10, "siz": 10}}).get_json()["damage"] == "1d4"
    moved = client.get(BASE + "/movement?mov=3&move_actions=1&mobility=4").get_json()
    assert moved["metres_per_phase"] == 10 and moved["metres_per_phase_exact"] == "10/1"


def test_ruleset_catalogue_and_tables(client):
    about = client.get("/v1/rulesets/runequest-house").get_json()
    assert about["options"]["rounding"]["tag"] == "CORE" and about["options"]["max_rounds"]["default"] == 30
    assert {t["name"] for t in about["tables"]} >= {"melee-locations", "degrees", "location-hp"}
    assert all(a["tag"] in ("DOC", "INF", "CORE", "DEF") for a in about["assumptions"])
    table = client.get("/v1/rulesets/runequest-house/tables/dex-sr").get_json()
    assert table["data"][0] == {"min": 1, "max": 5, "sr": 5}


def test_a_whole_table_option_overrides_the_pack(client):
    everything_head = [{"min": 1, "max": 20, "location": "head"}]
    answer = post(client, "/to-hit", {"attack": 50, "options": {"melee_locations": everything_head}}).get_json()
    assert answer["location_probabilities_exact"]["head"] == "1/1"


def test_attack_takes_a_weapon_pack_name(client):
    by_name = post(client, "/attack", {"attack": 60, "weapon": "mace"}).get_json()
    inline = post(client, "/attack", {"attack": 60, "weapon": {"damage": "1d8+2", "type": "crush"}}).get_json()
    assert by_name["damage_probabilities_exact"] == inline["damage_probabilities_exact"]
    assert post(client, "/attack", {"attack": 60, "weapon": "spork"}).status_code == 422
