"""POST /v1/tactical/to-hit and /v1/tactical/range: the public contract, numbers included."""
from __future__ import annotations

import pytest

PROBLEM = "application/problem+json"


def post(client, path, body):
    return client.post(f"/v1/tactical/{path}", json=body)


def fields_of(response):
    assert response.status_code == 422 and response.mimetype == PROBLEM
    return {e["field"] for e in response.get_json()["errors"]}


def test_melee_to_hit_without_dice(client):
    body = post(client, "to-hit", {"av": 55, "dv": 45}).get_json()
    assert (body["av"], body["dv"], body["chance_percent"]) == (55, 45, 55)
    assert (body["heroic_max_roll"], body["bumble_min_roll"]) == (6, 95)
    assert body["probabilities"] == {"heroic": 0.06, "success": 0.49, "failure": 0.39, "bumble": 0.06}
    assert body["range"] is None
    assert "roll" not in body and "outcome" not in body
    assert body["trace"][-1]["rule"] == "RULINGS 6"


def test_supplied_roll_and_outcome(client):
    body = post(client, "to-hit", {"av": 32, "dv": 68, "roll": 93}).get_json()
    assert body["chance_percent"] == 32 and body["bumble_min_roll"] == 93
    assert body["roll"] == {"expression": "d100", "dice": [93], "total": 93, "supplied": True}
    assert body["outcome"] == "bumble" and body["seed"] is None


def test_seeded_roll_is_reproducible(client):
    first = post(client, "to-hit", {"av": 40, "dv": 40, "seed": 11}).get_json()
    second = post(client, "to-hit", {"av": 40, "dv": 40, "seed": 11}).get_json()
    assert first["roll"] == second["roll"] and first["seed"] == 11
    assert first["roll"]["supplied"] is False and first["outcome"] in {"heroic", "success", "failure", "bumble"}


def test_adjustments_and_options(client):
    body = post(client, "to-hit", {"av": 41, "dv": 40, "attack_use": 2, "attacker_stun_penalty": 3,
                                   "defence_use": 2, "reprisal_same_weapon": True, "surprise_penalty": 4,
                                   "defender_stun_penalty": 1, "options": {"heroic": False, "bumble": False}})
    body = body.get_json()
    assert (body["av"], body["dv"], body["chance_percent"]) == (18, 5, 78)
    assert (body["heroic_max_roll"], body["bumble_min_roll"]) == (0, 101)
    assert body["probabilities"]["bumble"] == 0 and body["probabilities"]["heroic"] == 0


@pytest.mark.parametrize(("method", "expected"), [("ratio", 30), ("linear", 10)])
def test_task_resolution_methods(client, method, expected):
    body = post(client, "to-hit", {"av": 30, "dv": 70, "task_resolution": {"method": method}}).get_json()
    assert body["chance_percent"] == expected


def test_caller_table(client):
    table = {"av": [0, 50], "dv": [0, 50], "chances": [[40, 10], [90, 100]]}
    body = post(client, "to-hit", {"av": 60, "dv": 55, "task_resolution": {"method": "table", "table": table}})
    body = body.get_json()
    assert (body["chance_percent"], body["heroic_max_roll"], body["bumble_min_roll"]) == (100, 10, 101)


@pytest.mark.parametrize(("body", "field"), [
    ({"av": 10}, "dv"),
    ({"av": 10, "dv": 5, "ranged": {"weapon": "bow", "distance": 10}}, "ranged"),
    ({"av": 10, "dv": 5, "task_resolution": {"method": "table"}}, "task_resolution.table"),
    ({"av": 10, "dv": 5, "task_resolution": {"table": {"av": [0], "dv": [0], "chances": [[5]]}}},
     "task_resolution.table"),
    ({"av": 10, "dv": 5, "task_resolution": {"method": "table",
                                             "table": {"av": [0, 1, 2], "dv": [0], "chances": [[1], [2], [1, 2]]}}},
     "task_resolution.table.chances.2"),
    ({"av": 10, "ranged": {"weapon": "light-crossbow", "distance": 250}}, "ranged.distance"),
    ({"av": 10, "ranged": {"weapon": "catapult", "distance": 25}}, "ranged.weapon"),
    ({"av": 10, "dv": 5, "roll": 0}, "roll"),
    ({"av": 10.5, "dv": 5}, "av"),
    ({"av": 10**9, "dv": 5}, "av"),
    ({"av": 10, "dv": 5, "attack_use": 0}, "attack_use"),
    ({"av": 10, "dv": 5, "surprise": 3}, "surprise"),
])
def test_bad_requests_name_the_field(client, body, field):
    assert field in fields_of(post(client, "to-hit", body))


def test_ranged_to_hit_the_seed_example(client):
    body = post(client, "to-hit", {"av": 21, "ranged": {"weapon": "bow", "distance": 85,
                                                        "target": {"aware": False}}}).get_json()
    assert (body["dv"], body["chance_percent"]) == (21, 50)
    assert body["range"]["dv_modifier"] == 21 and "trace" not in body["range"]
    assert body["range"]["limits"] == {"point_blank": 15, "short": 60, "medium": 80, "long": 100, "maximum": None}


def test_ranged_aware_moving_target(client):
    body = post(client, "to-hit", {"av": 30, "ranged": {
        "weapon": "hurled-hafted", "distance": 20, "strength": 15, "elevation": 2,
        "target": {"dodge_dv": 10, "moving_mph": 3.5, "shield_bonus": 2}}}).get_json()
    # limits 50+2-2 = 50: PB 13; share (20-13)/5 = 1.4 -> 1; DV 10 + 2 + 1 + 3.5 = 16.5 -> 17
    assert (body["range"]["band"], body["range"]["dv_modifier"], body["dv"]) == ("short", 1, 17)


def test_range_endpoint(client):
    response = post(client, "range", {"weapon": "bow", "distance": 85})
    body = response.get_json()
    assert response.status_code == 200
    assert (body["weapon"], body["unit"], body["band"], body["dv_modifier"]) == ("bow", "yd", "long", 21)
    assert body["band_shares"] == [{"band": "short", "share": 9}, {"band": "medium", "share": 7},
                                   {"band": "long", "share": 5}]
    assert body["trace"][-1]["rule"] == "A9"


@pytest.mark.parametrize("weapon, distance, too_close", [
    ("hurled-hilted", 4, True), ("hurled-hilted", 4.99, True), ("hurled-hilted", 5, False),
    ("bow", 1, True), ("bow", 1.5, True), ("bow", 5 / 3, False), ("light-crossbow", 2, False)])
def test_shots_from_under_five_feet_are_flagged(client, weapon, distance, too_close):
    """Firing/Hurling Ranged Attacks: ranged combat needs 5 ft between the figures (yards x 3 for bows)."""
    body = post(client, "range", {"weapon": weapon, "distance": distance}).get_json()
    assert body["too_close"] is too_close
    assert (body["trace"][-1]["value"] == 5) is too_close
    aimed = post(client, "to-hit", {"av": 50, "ranged": {"weapon": weapon, "distance": distance}}).get_json()
    assert aimed["range"]["too_close"] is too_close


def test_thrown_object_limits_are_rounded_half_up_at_the_end(client):
    body = post(client, "range", {"weapon": "hurled-hafted", "distance": 40, "object": {
        "size": 1, "height": 6, "weight_pounds": 1, "light_enc": 50}}).get_json()
    assert body["limits"] == {"point_blank": 9, "short": 38, "medium": 50, "long": 63, "maximum": None}
    assert body["object_factor"] == 0.75 and body["dv_modifier"] == 7


def test_crossbow_limits_and_strength_ignored(client):
    body = post(client, "range", {"weapon": "heavy-crossbow", "distance": 225, "strength": 18}).get_json()
    assert body["limits"]["maximum"] == 225 and body["limits"]["short"] == 60
    assert body["band"] == "extreme" and body["dv_modifier"] == 36 + 250


@pytest.mark.parametrize(("body", "field"), [
    ({"weapon": "light-crossbow", "distance": 200.5}, "distance"),
    ({"weapon": "bow", "distance": -1}, "distance"),
    ({"weapon": "bow"}, "distance"),
    ({"weapon": "bow", "distance": 10, "object": {"size": 1, "height": 6, "weight_pounds": 1, "light_enc": 50}},
     "object"),
    ({"weapon": "hurled-hilted", "distance": 10, "object": {"size": 1, "height": 6, "weight_pounds": 60,
                                                            "light_enc": 50}}, "object.weight_pounds"),
    ({"weapon": "hurled-hilted", "distance": 10, "object": {"size": 0, "height": 6, "weight_pounds": 1,
                                                            "light_enc": 50}}, "object.size"),
    ({"weapon": "sling", "distance": 10, "strength": 1000}, "strength"),
])
def test_range_bad_requests(client, body, field):
    assert field in fields_of(post(client, "range", body))
