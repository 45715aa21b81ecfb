"""The `ars-magica` calculators through the Flask test client: shapes, exactness, rolls and 422s."""
from __future__ import annotations

from fractions import Fraction

import pytest

BASE = "/v1/ars-magica"


def post(client, path, body):
    return client.post(BASE + path, json=body)


def fields_of(answer):
    return [e["field"] for e in answer.get_json()["errors"]]


def exact_sum(values):
    return sum(Fraction(v) for v in values.values())


def test_melee_to_hit_odds_are_exact_and_sum_to_one(client):
    answer = post(client, "/to-hit", {"attack": 12, "defence": 9, "attack_modifiers": {"side": True}}).get_json()
    assert answer["mode"] == "melee" and answer["attack_total"] == 13 and answer["roll"] is None
    assert exact_sum(answer["probabilities_exact"]) == 1
    assert Fraction(answer["chance_exact"]) == Fraction(answer["probabilities_exact"]["hit"]) + Fraction(
        answer["probabilities_exact"]["exceptional"])
    assert answer["botch_probabilities_exact"] == {"attack": "1/100", "defence": "1/100"}
    assert answer["dice"] == [] and answer["seed"] is None and answer["trace"]


def test_melee_roll_from_supplied_faces(client):
    body = {"attack": 10, "defence": 8, "rolls": {"attack": [1, 1, 4], "defence": [0], "defence_botch": [0]}}
    roll = post(client, "/to-hit", body).get_json()["roll"]
    assert roll == {"attack_roll": 26, "defence_roll": 0, "attack_botches": 0, "defence_botches": 1, "margin": 26,
                    "outcome": "exceptional"}


def test_defence_modes(client):
    total = post(client, "/to-hit", {"attack": 5, "defence": 5, "defence_mode": "total", "seed": 1}).get_json()
    assert total["roll"]["defence_roll"] == 5 and total["botch_probabilities"]["defence"] == 0
    surprised = post(client, "/to-hit", {"attack": 5, "defence": 50, "defence_mode": "surprised",
                                         "rolls": {"attack": [3], "defence": [7]}}).get_json()
    assert surprised["defence_total"] is None and surprised["roll"]["defence_roll"] == 7


def test_missile_into_melee_has_a_friend_outcome(client):
    body = {"attack": 5, "missile": {"distance_yd": 20, "into_melee": True}, "rolls": {"attack": [2]}}
    answer = post(client, "/to-hit", body).get_json()
    assert answer["ease_factor"] == 9 and answer["defence_total"] is None
    assert exact_sum(answer["probabilities_exact"]) == 1
    assert answer["roll"]["outcome"] == "friend" and answer["roll"]["margin"] == -2
    assert answer["chance"] == pytest.approx(answer["probabilities"]["hit"] + answer["probabilities"]["exceptional"])


@pytest.mark.parametrize("body,field", [
    ({"attack": 5, "defence": 3, "options": {"nope": 1}}, "options.nope"),
    ({"attack": 5, "defence": 3, "botch_dice": {"attack": 11}}, "botch_dice.attack"),
    ({"attack": 5, "defence": 3, "rolls": {"attack": [10]}}, "rolls.attack.0"),
    ({"attack": 5, "defence": 3, "rolls": {"attack": [4, 4]}}, "rolls.attack.1"),
    ({"attack": 5, "defence": 3, "rolls": {"attack": [0], "attack_botch": [3, 3]}}, "rolls.attack_botch.1"),
    ({"attack": 5}, "defence"),
    ({"attack": 5.5, "defence": 3}, "attack"),
    ({"attack": True, "defence": 3}, "attack"),
    ({"attack": 5, "defence": 3, "options": {"attack_tie": "nobody"}}, "options.attack_tie"),
])
def test_bad_to_hit_bodies_name_their_field(client, body, field):
    answer = post(client, "/to-hit", body)
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert field in fields_of(answer)


def test_unused_botch_faces_are_ignored(client):
    body = {"attack": 5, "defence": 3, "rolls": {"attack": [4], "attack_botch": [0], "defence": [5]}}
    answer = post(client, "/to-hit", body)
    assert answer.status_code == 200 and [d["role"] for d in answer.get_json()["dice"]] == ["attack", "defence"]


def test_damage_levels_and_exceptional_severity(client):
    answer = post(client, "/damage", {"damage": 14, "soak": 8, "protection": 4, "exceptional": True,
                                      "location": "head", "rolls": {"damage": [9], "soak": [2]}}).get_json()
    assert answer["soak_total"] == 4 and exact_sum(answer["probabilities_exact"]) == 1
    assert exact_sum(answer["severity_probabilities_exact"]) == 1
    assert answer["roll"] == {"damage_roll": 23, "soak_roll": 6, "margin": 17, "levels": 4, "body_levels": 4,
                              "fatigue_levels": 0, "severity": "grave", "effect": "incapacitated",
                              "damage_botches": 0, "soak_botches": 0}
    assert post(client, "/damage", {"damage": 1, "soak": 1, "exceptional": True}).status_code == 422


def test_brawling_and_all_out_damage(client):
    roll = post(client, "/damage", {"damage": 10, "soak": 3, "brawling": True, "all_out": True,
                                    "rolls": {"damage": [5], "soak": [4]}}).get_json()["roll"]
    assert roll["margin"] == 8 and roll["levels"] == 4 and (roll["body_levels"], roll["fatigue_levels"]) == (2, 2)
    behind = post(client, "/damage", {"damage": 10, "soak": 3, "mounted_charge": True, "from_behind": True})
    assert behind.get_json()["damage_total"] == 19 and behind.get_json()["severity_probabilities"] is None


def test_checks(client):
    ease = post(client, "/check", {"total": 5, "ease_factor": 9, "rolls": {"roll": [0], "botch": [0]}}).get_json()
    assert ease["roll"] == {"roll": 0, "botches": 1, "outcome": "botch"}
    assert ease["probabilities_exact"] == {"success": "7/10", "failure": "29/100", "botch": "1/100"}
    fatigue = post(client, "/check", {"kind": "fatigue", "stamina": 2, "encumbrance": 1, "wound_level": "medium"})
    assert fatigue.get_json()["total"] == -2 and fatigue.get_json()["ease_factor"] == 6
    spell = post(client, "/check", {"kind": "formulaic", "level": 20, "technique": 8, "form": 6, "careful": True,
                                    "concentration": 2, "vis_pawns": 1, "botch_dice": 1}).get_json()
    assert spell["total"] == 8 + 6 + 2 + 5 and spell["botch_dice"] == 1 and exact_sum(spell["probabilities_exact"]) == 1
    assert post(client, "/check", {"kind": "formulaic"}).status_code == 422
    assert "wound_level" in fields_of(post(client, "/check", {"kind": "fatigue", "wound_level": "scratched"}))


def test_combatant_totals_and_two_weapons(client):
    answer = post(client, "/combatant", {"characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2},
                                         "abilities": {"weapon": 5}, "weapon": "longsword", "armor": "partial_chain",
                                         "shield": {"defence": 3}, "encumbrance": 2, "wound_level": "light"}).get_json()
    assert (answer["initiative"], answer["attack"], answer["defence"], answer["damage"], answer["soak"]) == (
        5, 10, 7, 12, 10)
    assert answer["penalty"] == -1 and answer["missile_rate"] == {"first_phase_every": 1, "second_phase_every": 2}
    two = post(client, "/combatant", {"weapon": "shortsword", "off_hand": "shortsword",
                                      "two_weapons": "attack_and_defend"}).get_json()["two_weapons"]
    assert two == {"attack_bonus": 1, "defence_bonus": 2, "main_penalty": -1, "off_penalty": -3}
    slow = post(client, "/combatant", {"weapon": {"init": -20, "missile": True}}).get_json()
    assert slow["missile_rate"] == {"first_phase_every": 3, "second_phase_every": None}
    assert fields_of(post(client, "/combatant", {"weapon": "bazooka"})) == ["weapon"]


def test_movement_post_and_get_agree(client):
    posted = post(client, "/movement", {"qik": 2, "encumbrance": 1, "athletics": 3}).get_json()
    got = client.get(BASE + "/movement?qik=2&encumbrance=1&athletics=3").get_json()
    assert posted == got and posted["yards_per_round"] == {"walk": 10, "hustle": 16, "sprint": 34, "ride": 50}
    assert posted["metres_per_round_exact"]["walk"] == "1143/125"
    assert client.get(BASE + "/movement?qik=99").status_code == 422  # options only in a POST body


def test_catalogue_lists_options_assumptions_and_tables(client):
    about = client.get("/v1/rulesets/ars-magica").get_json()
    assert about["options"]["botch_dice"]["tag"] == "CORE" and about["options"]["attack_tie"]["choices"] == [
        "defender", "attacker"]
    assert {a["option"] for a in about["assumptions"]} >= {"botch_dice", "attack_tie", "exceptional_margin"}
    names = {t["name"] for t in about["tables"]}
    assert {"missile-rate", "missile-fire", "botch-attack-defence", "weapons", "armor"} <= names
    rate = client.get("/v1/rulesets/ars-magica/tables/missile-rate").get_json()
    assert rate["data"][0] == {"min": None, "max": -20, "first_phase_every": 3, "second_phase_every": None}
