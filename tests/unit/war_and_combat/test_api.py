"""/v1/war-and-combat calculators and the stateless round through the Flask test client."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.api.war_and_combat import steps as rounds
from service.api.war_and_combat.schemas.attack import AttackRequestSchema
from service.api.war_and_combat.schemas.damage import DamageRequestSchema
from service.api.war_and_combat.schemas.sheets import CombatantRequestSchema, MovementRequestSchema, WoundsRequestSchema
from service.api.war_and_combat.schemas.to_hit import ToHitRequestSchema

BASE = "/v1/war-and-combat"


def post(client, path, body):
    return client.post(BASE + path, json=body)


def fields_of(response):
    assert response.status_code == 422, response.get_json()
    assert response.content_type == "application/problem+json"
    return [e["field"] for e in response.get_json()["errors"]]


def test_to_hit_melee_odds_are_exact_and_consistent(client):
    answer = post(client, "/to-hit", ToHitRequestSchema.EXAMPLE).get_json()
    # DEF 10 + 2 + 1 - 1 (turned) = 12; bonus 5; need 3d6 >= 8
    assert (answer["mode"], answer["tl"], answer["roll_bonus"], answer["need"]) == ("melee", 12, 5, 8)
    exact = {k: Fraction(v) for k, v in answer["probabilities_exact"].items()}
    assert sum(exact.values()) == 1 and set(exact) == {"miss", "glance", "hit", "critical"}
    assert Fraction(answer["chance_exact"]) == exact["hit"] + exact["critical"]
    assert sum(Fraction(v) for v in answer["extra_dice_exact"].values()) == Fraction(answer["chance_exact"])
    assert answer["location_probabilities_exact"] == {"head": "5/108", "arm": "71/216", "chest": "1/4",
                                                      "belly": "23/108", "leg": "35/216"}
    assert answer["roll"] is not None and answer["seed"] == 7 and answer["dice"][0]["role"] == "attack"
    assert answer["chance"] == float(Fraction(answer["chance_exact"]))


def test_to_hit_without_dice_answers_only_odds(client):
    answer = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10}).get_json()
    assert answer["roll"] is None and answer["dice"] == [] and answer["seed"] is None
    # 3d6 > 10 lands; 3d6 >= 15 beats the TL by 5: one extra die (20 of 216 rolls)
    assert answer["chance_exact"] == "1/2" and answer["extra_dice_exact"] == {"0": "11/27", "1": "5/54"}


def test_to_hit_with_supplied_dice_reproduces(client):
    body = {"attacker": {"skill": 3}, "tl": 10, "defence_bonus": {"arm": 2},
            "rolls": {"attack": [4, 4, 4], "location": [2, 2, 3], "side": [2]}}
    answer = post(client, "/to-hit", body).get_json()
    assert answer["roll"] == {"total": 15, "margin": 3, "outcome": "hit", "extra_dice": 0, "location_roll": 7,
                              "location": "right_arm"}
    assert all(d["supplied"] for d in answer["dice"]) and answer["seed"] is None
    miss = post(client, "/to-hit", {**body, "rolls": {"attack": [1, 1, 1], "location": [6, 6, 6]}}).get_json()
    assert miss["roll"]["outcome"] == "miss" and miss["roll"]["location"] is None
    assert [d["role"] for d in miss["dice"]] == ["attack"]


def test_missile_to_hit(client):
    body = {"attacker": {"skill": 6, "attribute_mod": 1}, "missile": {"distance_m": 30, "base_range_m": 40,
            "target_state": "unaware_moving"}, "called_shot": {"location": "chest"}}
    answer = post(client, "/to-hit", body).get_json()
    assert (answer["mode"], answer["tl"], answer["roll_bonus"]) == ("missile", 20, 5)
    assert answer["location_probabilities_exact"]["chest"] == "1/1"
    assert fields_of(post(client, "/to-hit", {**body, "missile": {**body["missile"], "distance_m": 90}})) == \
        ["called_shot"]
    assert fields_of(post(client, "/to-hit", {**body, "missile": {**body["missile"], "distance_m": 300}})) == \
        ["missile.distance_m"]


@pytest.mark.parametrize("body, field", [
    ({"attacker": {"skill": 1}}, "defender"),
    ({"attacker": {"skill": 1}, "tl": 10, "defender": {"fighter_rank": 1}}, "defender"),
    ({"attacker": {"skill": 1.5}, "tl": 10}, "attacker.skill"),
    ({"attacker": {"skill": True}, "tl": 10}, "attacker.skill"),
    ({"attacker": {"skill": 1}, "tl": 10, "nope": 1}, "nope"),
    ({"attacker": {"skill": 1}, "tl": 10, "options": {"nope": 1}}, "options.nope"),
    ({"attacker": {"skill": 1}, "tl": 10, "options": {"no_defence_def": 99}}, "options.no_defence_def"),
    ({"attacker": {"skill": 1}, "tl": 10, "options": {"shock_checks": True}}, "options.shock_checks"),
    ({"attacker": {"skill": 1}, "tl": 10, "rolls": {"attack": [7, 1, 1]}}, "rolls.attack.0"),
    ({"attacker": {"skill": 1}, "tl": 10, "rolls": {"attack": [1, 1, 1, 1]}}, "rolls.attack.3"),
    ({"attacker": {"skill": 1}, "tl": 10, "rolls": {"side": [3]}}, "rolls.side.0"),
    ({"attacker": {"skill": 1}, "tl": 10, "called_shot": {"location": "head"}}, "called_shot"),
])
def test_to_hit_refuses_bad_bodies(client, body, field):
    assert field in fields_of(post(client, "/to-hit", body))


def test_check_kinds(client):
    answer = post(client, "/check", {"kind": "fumble", "attribute_mod": 1}).get_json()
    assert answer["tl"] == 10 and answer["need"] == 10 and set(answer["probabilities"]) == {"success", "slip",
                                                                                             "drop", "fly"}
    assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1
    passing = post(client, "/check", {"kind": "pass_through", "danger_hexes": 3, "rolls": {"check": [6, 6, 5]}})
    assert passing.get_json()["tl"] == 16 and passing.get_json()["roll"] == {"total": 17, "margin": 1,
                                                                               "outcome": "success"}
    assert fields_of(post(client, "/check", {"kind": "restrict"})) == ["tl"]
    assert fields_of(post(client, "/check", {"kind": "task", "tl": 5, "danger_hexes": 2})) == ["danger_hexes"]
    assert fields_of(post(client, "/check", {"kind": "task", "tl": 5, "rolls": {"nope": [1]}})) == ["rolls.nope"]


def test_damage_matches_the_documents_example(client):
    answer = post(client, "/damage", DamageRequestSchema.EXAMPLE).get_json()
    assert (answer["impact_dice"], answer["impact_expression"], answer["critical"], answer["critical_dice"]) == \
        ("3d6-2", "4d6-2", True, 1)
    assert answer["roll"] == {"impact": 14, "effective_impact": 14, "penetrating": True, "severity": "critical",
                              "wound_type": "cut", "effects": ["disabled"], "action_penalty": -7}
    assert answer["thresholds"] == {"impaired": 5, "disabled": 9, "destroyed": 18}
    assert answer["absorption"] == 0 and answer["penetration_limit"] is None
    assert sum(Fraction(v) for v in answer["probabilities_exact"].values()) == 1


def test_damage_of_a_non_strike_attack_names_its_combat_option(client):
    body = {"attacker": {"strength": 10}, "attack_type": "disarm", "location": "right_arm", "target": {"size": 10},
            "rolls": {"impact": [4, 3]}}  # 2d6-1 = 6, past Impaired 5: the light column
    answer = post(client, "/damage", body).get_json()
    assert answer["impact_cap"] == 10 and answer["combat_option"] == {"column": "light", "effect": "fumble",
                                                                      "tl": 10, "check_attribute": "dex"}
    assert answer["probabilities_exact"]["none"] == "1/1" and answer["roll"]["severity"] == "none"
    assert sum(Fraction(v) for v in answer["combat_option_probabilities_exact"].values()) == 1


@pytest.mark.parametrize("body, field", [
    ({"impact_cap": 10, "attacker": {"strength": 5}, "location": "head", "target": {"size": 5}}, "impact_cap"),
    ({"location": "head", "target": {"size": 5}}, "impact_cap"),
    ({"impact_cap": 10, "location": "arm", "target": {"size": 5}}, "location"),
    ({"impact_cap": 10, "location": "head", "target": {"size": 5}, "rolls": {"impact": [1, 1, 1]}}, "rolls.impact.2"),
    ({"impact_cap": 0, "location": "head", "target": {"size": 5}, "rolls": {"impact": [4]}}, "rolls.impact.0"),
    ({"impact_cap": 10, "location": "head", "target": {"size": 5}, "rolls": {"critical": [4]}}, "rolls.critical.0"),
    ({"impact_cap": 10, "location": "head", "target": {"size": 5}, "margin": 0}, "margin"),
])
def test_damage_refuses_bad_bodies(client, body, field):
    assert field in fields_of(post(client, "/damage", body))


def test_attack_is_one_exact_distribution(client):
    answer = post(client, "/attack", AttackRequestSchema.EXAMPLE).get_json()
    exact = {k: Fraction(v) for k, v in answer["probabilities_exact"].items()}
    assert sum(exact.values()) == 1 and len(exact) == 11
    assert Fraction(answer["chance_exact"]) == 1 - exact["miss"] - exact["glance"]
    hit = post(client, "/to-hit", {k: v for k, v in AttackRequestSchema.EXAMPLE.items()
                                   if k in ("attacker", "defender", "seed")} | {"defence_bonus": {"head": 1}})
    assert hit.get_json()["chance_exact"] == answer["chance_exact"]
    assert fields_of(post(client, "/attack", {**AttackRequestSchema.EXAMPLE, "defence_bonus": {"head": 1}})) == \
        ["defence_bonus"]
    assert fields_of(post(client, "/attack", {**AttackRequestSchema.EXAMPLE,
                                              "attacker": {"skill": 1, "strength": 3}})) == ["impact_cap"]


def test_wounds_combatant_and_movement(client):
    wounds = post(client, "/wounds", WoundsRequestSchema.EXAMPLE).get_json()
    assert (wounds["action_penalty"], wounds["movement"], wounds["defence"], wounds["defeated"]) == \
        (-4, "half", 10, False)
    assert len(wounds["per_location"]) == 7 and wounds["per_location"]["head"] == {"worst": None, "penalty": 0}
    knocked = post(client, "/wounds", {"wounds": [{"location": "head", "severity": "critical"}]}).get_json()
    assert knocked["unconscious"] and knocked["coup_de_grace_eligible"] and not knocked["can_act"]
    sheet = post(client, "/combatant", CombatantRequestSchema.EXAMPLE).get_json()
    assert sheet["defence"] == 18 and sheet["actions_per_flurry"] == 3 and sheet["defence_by_state"]["flank"] == 14
    assert sheet["weapons"] == [{"name": "sword", "attack_bonus": 7, "impact_cap": 14, "impact_dice": "3d6-2"},
                                {"name": "bow", "attack_bonus": 4, "impact_cap": 10, "impact_dice": "2d6-1"}]
    moved = post(client, "/movement", MovementRequestSchema.EXAMPLE).get_json()
    assert [s["phase"] for s in moved["steps"]] == [1, 2, 2, 3] and moved["total_cost"] == 9
    got = client.get(BASE + "/movement?pace=walk&legs_impaired=2").get_json()
    assert (got["hexes_per_round"], got["hexes_per_phase"], got["feet_per_round_exact"]) == (2, 1, "5000/381")
    assert client.get(BASE + "/movement?pace=fly").status_code == 422


def test_the_catalogue_serves_options_assumptions_and_tables(client):
    about = client.get("/v1/rulesets/war-and-combat").get_json()
    assert about["options"]["no_defence_def"] == {"default": 5, "minimum": 0, "maximum": 20, "tag": "DEF",
                                                  "summary": about["options"]["no_defence_def"]["summary"]}
    assert all({"tag", "summary", "default"} <= set(o) for o in about["options"].values())
    options = {a["option"] for a in about["assumptions"]}
    assert {"tie_succeeds", "limb_side", "hit_swap_rule"} <= options and None in options
    assert {t["name"] for t in about["tables"]} >= {"impact-dice", "damage-thresholds", "hit-location", "pace",
                                                    "terrain", "missile-range", "missile-target", "wound-effects",
                                                    "combat-options", "armor", "weapons"}
    table = client.get("/v1/rulesets/war-and-combat/tables/impact-dice").get_json()
    assert table["data"][3] == {"cap_min": 8, "cap_max": 12, "dice": "2d6-1"}
    listed = [r["id"] for r in client.get("/v1/rulesets").get_json()["rulesets"]]
    assert {"tactical", "war-and-combat"} <= set(listed) and listed == sorted(listed)


def test_a_round_is_reproducible_and_takes_supplied_dice(client):
    first = post(client, "/rounds/resolve", rounds.EXAMPLE)
    assert first.status_code == 200, first.get_json()
    again = post(client, "/rounds/resolve", rounds.EXAMPLE)
    assert first.data == again.data
    answer = first.get_json()
    assert answer["round"] == 1 == answer["state"]["round"] and answer["seed"] == 5
    assert answer["initiative"][0] == {"combatant": "sigrid", "dice": [6, 5, 4], "total": 21}
    assert answer["order"][0] == "sigrid" and answer["flurries"][0]["combatants"]
    assert [e["seq"] for e in answer["events"]] == list(range(1, len(answer["events"]) + 1))
    assert answer["events"][-1]["type"] == "round_ended"
    nxt = post(client, "/rounds/resolve", {**rounds.EXAMPLE, "state": answer["state"]}).get_json()
    assert nxt["round"] == 2


@pytest.mark.parametrize("change, field", [
    ({"rolls": [{"combatant": "sigrid", "role": "attack", "faces": [7]}]}, "rolls.0.faces.0"),
    ({"rolls": [{"combatant": "sigrid", "role": "nope", "faces": [1]}]}, "rolls.0.role"),
    ({"rolls": [{"combatant": "nobody", "role": "attack", "faces": [1]}]}, "rolls.0.combatant"),
    ({"declarations": [{"combatant": "nobody"}]}, "declarations.0.combatant"),
    ({"declarations": [{"combatant": "sigrid", "target": "sigrid"}]}, "declarations.0.target"),
    ({"declarations": [{"combatant": "sigrid", "action": "shoot", "target": "ulf"}]}, "declarations.0.weapon"),
    ({"declarations": [{"combatant": "sigrid", "action": "move", "path": [{"q": 5, "r": 5}]}]},
     "declarations.0.path.0"),
])
def test_a_round_refuses_bad_dice_and_declarations(client, change, field):
    assert field in fields_of(post(client, "/rounds/resolve", {**rounds.EXAMPLE, **change}))


def test_a_bad_state_names_its_field(client):
    state = {**rounds.EXAMPLE["state"], "combatants": [{**rounds.EXAMPLE["state"]["combatants"][0], "size": -1}]}
    assert "state.combatants.0.size" in fields_of(post(client, "/rounds/resolve", {**rounds.EXAMPLE, "state": state}))
    state = {**rounds.EXAMPLE["state"], "options": {"max_rounds": 0}}
    assert "state.options.max_rounds" in fields_of(post(client, "/rounds/resolve", {**rounds.EXAMPLE,
                                                                                    "state": state}))


@pytest.mark.parametrize("options, field", [
    ({"stun_rounds": "d0"}, "options.stun_rounds"), ({"stun_rounds": "999d6"}, "options.stun_rounds"),
    ({"weapon_pack": [{"name": "club", "impact_mod": "x"}]}, "options.weapon_pack.0.impact_mod"),
    ({"initiative_tie_break": ["coin", "coin"]}, "options.initiative_tie_break.1"),
])
def test_bad_options_are_named(client, options, field):
    assert field in fields_of(post(client, "/check", {"tl": 10, "options": options}))


def test_a_weapon_pack_supplies_statistics_by_name(client):
    state = {**rounds.EXAMPLE["state"], "options": {"weapon_pack": [{"name": "club", "impact_mod": 5,
                                                                      "damage_type": "blunt"}]},
             "combatants": [{**rounds.EXAMPLE["state"]["combatants"][0], "weapons": [{"name": "club", "skill": 3}]},
                            rounds.EXAMPLE["state"]["combatants"][1]]}
    answer = post(client, "/rounds/resolve", {**rounds.EXAMPLE, "state": state}).get_json()
    assert answer["state"]["combatants"][0]["weapons"][0]["impact_mod"] == 5
