"""The chapter's calculators through HTTP: answers, exact fractions and 422s naming the field."""
from __future__ import annotations

import pytest


def post(client, path, body):
    return client.post(f"/v1/tactical/{path}", json=body)


def test_combination_in_concert(client):
    body = post(client, "combination", {"kind": "in-concert", "values": [45, 30], "combination_sl": 12,
                                        "against": 40, "pots": [18, 9]}).get_json()
    assert body["values"] == [57] and body["pot"] == 27 and body["chances"] == [59]
    assert body["chances_exact"] == ["59/100"]


def test_combination_defensive_answers_the_attacks_chance(client):
    body = post(client, "combination", {"kind": "defensive", "values": [20, 15], "combination_sl": 10,
                                        "against": 30}).get_json()
    assert body["values"] == [30] and body["chances"] == [50]


def test_body_check_odds_sum_to_one(client):
    body = post(client, "body-check", {
        "attacker": {"agl_mod": 2, "modified_sta": 16, "str_mod": 2, "strength": 15, "speed_mph": 8,
                     "armor_layers": 2},
        "defender": {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}}).get_json()
    assert body["attacker_av"] == 31 and body["defender_dv"] == 14 and body["defence"] == "stand"
    from fractions import Fraction
    assert sum(Fraction(v) for v in body["probabilities_exact"].values()) == 1
    assert body["defender_bounce_feet"] == 8 + 3


def test_body_check_dodge_gets_the_sta_bonus(client):
    body = post(client, "body-check", {
        "attacker": {"agl_mod": 0, "modified_sta": 18, "str_mod": 0, "strength": 15},
        "defender": {"agl_mod": 0, "modified_sta": 13, "str_mod": 0, "strength": 12, "dodge": 20}}).get_json()
    assert body["defender_dv"] == 25 and body["defence"] == "dodge"


def test_intimidation_guard_drop(client):
    body = post(client, "intimidation", {"presence_av": 30, "intimidate_sl": 14, "pot_through": 6,
                                         "target_dv": 20, "target_hrt_mod": 2}).get_json()
    assert body["av"] == 36 and body["dv"] == 20 and body["guard_drop"] == 12
    assert body["probabilities"]["backs_off"] == 0 and body["probabilities"]["surrenders"] > 0


def test_stray_fire_lists_the_line_and_who_is_beyond(client):
    body = post(client, "stray-fire", {"av": 40, "target_modified_sta": 14, "band_end": 60, "bystanders": [
        {"id": "boy", "modified_sta": 9, "dv": 12, "distance": 55},
        {"id": "far", "modified_sta": 14, "dv": 10, "distance": 90}]}).get_json()
    assert [t["id"] for t in body["targets"]] == ["boy"] and body["beyond_band"] == ["far"]
    assert body["targets"][0]["size_modifier"] == 15 and body["targets"][0]["dv"] == 27


def test_missile_flight(client):
    body = post(client, "missile-flight", {"distance_feet": 2400, "kind": "missile"}).get_json()
    assert body["seconds_exact"] == "12/1" and body["delayed"]


def test_knock_back_into_a_wall(client):
    body = post(client, "knock-back", {"pot": 24, "modified_sta": 14, "barrier_feet": 4, "agl_av": 30}).get_json()
    assert (body["feet"], body["travelled_feet"], body["barrier_bonus"], body["effective_pot"]) == (10, 4, 6, 30)
    assert body["keep_feet_dv"] == 55 and body["keep_feet_chance"] is not None


def test_melee_spacing(client):
    body = post(client, "melee-spacing", {"foe_weapon_size": 7, "foe_height": 6, "attacker_weapon_size": 4}).get_json()
    assert body["mode"] == "common" and body["spacing_mm"] == 20 and body["body_blocked"]


def test_dodge_reports_exhaustion_not_zero(client):
    body = post(client, "dodge", {"dodge": 4, "use": 5}).get_json()
    assert body["state"] == "exhausted" and body["dv"] is None


def test_task_rummage_and_missing_fields(client):
    body = post(client, "task", {"kind": "rummage", "items": 5, "av": 25}).get_json()
    assert (body["actions"], body["dv"], body["check"]) == (6, 15, "CRD")
    bad = post(client, "task", {"kind": "untie"})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "tier_str"


def test_catch_says_what_the_catcher_suffers(client):
    body = post(client, "catch", {"distance_feet": 30, "weight_pounds": 150, "catcher": {
        "modified_sta": 15, "str_mod": 2, "crd_mod": 1, "armor_dr": 2, "cnd": 14, "crd_av": 40}}).get_json()
    assert (body["catch_dv"], body["capacity"], body["excess_pot"], body["wounds"]) == (35, 20, 15, 4)
    assert body["level"] == "grievous"


def test_surprise_check_concealed_trap_uses_the_craft_av(client):
    body = post(client, "surprise-check", {"kind": "concealed-trap", "target_av": 30, "spirit_sl": 6,
                                           "craft_av": 45}).get_json()
    assert body["target_av"] == 36 and body["dv"] == 45
    assert body["probabilities"]["none"] == body["target_chance"] / 100
    assert body["probabilities"]["stunned"] == 0


def test_surprise_check_contested_needs_the_aggressor(client):
    bad = post(client, "surprise-check", {"kind": "ambush", "target_av": 30, "dv": 30})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "aggressor_chance"


def test_mortal_wound_tenth_wound(client):
    body = post(client, "mortal-wound", {"wounds": 9, "feet": 3, "str_mod": 2, "cnd_mod": 1, "cnd": 14,
                                         "p_res_av": 30}).get_json()
    assert body["status"] == "collapsed" and body["death_check_dv"] == 55 and body["minutes_to_live"] == 14


def test_after_battle_and_healing(client):
    assert post(client, "after-battle", {"strength": 15, "wounds": 5}).get_json()["strength"] == 4
    assert post(client, "healing", {"wounds": 3, "healer_sl": 8}).get_json()["schedule_days"] == [7, 6, 5]
    both = post(client, "healing", {"wounds": 3, "damage": 4})
    assert both.status_code == 422


@pytest.mark.parametrize("path", ["combination", "body-check", "intimidation", "stray-fire", "missile-flight",
                                  "knock-back", "melee-spacing", "dodge", "task", "catch", "surprise-check",
                                  "mortal-wound", "after-battle", "healing"])
def test_unknown_fields_are_refused(client, path):
    bad = post(client, path, {"nonsense": 1})
    assert bad.status_code == 422 and any(e["field"] == "nonsense" for e in bad.get_json()["errors"])


def test_chapter_calculators_run_in_a_batch(client):
    body = client.post("/v1/tactical/batch", json={"items": [
        {"id": "a", "op": "dodge", "body": {"dodge": 20, "use": 2}},
        {"id": "b", "op": "healing", "body": {"wounds": 2}}]}).get_json()
    assert [r["status"] for r in body["results"]] == [200, 200]
    assert body["results"][0]["body"]["dv"] == 10 and body["results"][1]["body"]["schedule_days"] == [14, 7]


def test_batch_offers_every_operation_it_can_run():
    from service.api.tactical.calculators.batch import OPS as RUNNABLE
    from service.api.tactical.schemas.batch import OPS as DOCUMENTED
    assert set(RUNNABLE) == set(DOCUMENTED)


def test_body_check_a_defender_with_a_speed_is_moving(client):
    """F40: both moving, the speeds add, whether or not the caller also set `moving`."""
    attacker = {"agl_mod": 0, "modified_sta": 14, "str_mod": 0, "strength": 13, "speed_mph": 6}
    defender = {"agl_mod": 0, "modified_sta": 12, "str_mod": 0, "strength": 13, "speed_mph": 4}
    body = post(client, "body-check", {"kind": "body-check", "attacker": attacker, "defender": defender})
    assert body.status_code == 200 and body.get_json()["defender_bounce_feet"] == 6 + 4 + 2
