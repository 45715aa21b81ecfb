"""The smoting calculators through the Flask test client (smoting.md section 12), with the seed's worked
examples where it has them."""
from __future__ import annotations

from fractions import Fraction

import pytest


def post(client, path, body):
    return client.post(f"/v1/smoting/{path}", json=body)


def exact(text: str) -> Fraction:
    return Fraction(text)


def test_check_odds_are_exact_and_a_supplied_roll_has_no_seed(client):
    answer = post(client, "check", {"dice": 5, "rolls": {"pool": [1, 3, 5, 5, 6, 4]}}).get_json()
    assert answer["chance_exact"] == "211/243" and answer["expected_successes_exact"] == "2/1"
    assert sum(map(exact, answer["success_probabilities_exact"].values())) == 1
    assert answer["roll"] == {"faces": [1, 3, 5, 5, 6, 4], "successes": 3, "outcome": "success"}
    assert answer["seed"] is None and answer["dice"][0]["supplied"] is True


def test_zone_move_needs_two_successes(client):
    answer = post(client, "check", {"dice": 4, "kind": "zone_move", "seed": 9}).get_json()
    probs = {k: exact(v) for k, v in answer["probabilities_exact"].items()}
    assert set(probs) == {"arrive", "boundary", "stay"} and sum(probs.values()) == 1
    assert probs["stay"] == Fraction(16, 81) and answer["seed"] == 9


def test_georeg_hits_with_two_extra_successes(client):
    answer = post(client, "to-hit", {"attack_dice": 5, "rolls": {"attack": [1, 3, 5, 5, 6, 4]}}).get_json()
    assert answer["roll"]["outcome"] == "hit" and answer["roll"]["extra_successes"] == 2
    assert sum(map(exact, answer["probabilities_exact"].values())) == 1
    assert exact(answer["chance_exact"]) == 1 - Fraction(2, 3) ** 5


def test_a_fresh_parry_is_an_unbounded_sum(client):
    answer = post(client, "to-hit", {"attack_dice": 5, "defence": {"type": "parry", "dice": 3}}).get_json()
    assert answer["chance_exact"] is None and answer["probabilities_exact"] is None
    assert abs(sum(answer["probabilities"].values()) - 1) < 1e-12


def test_a_live_dodge_pool_removes_dice_and_shrinks(client):
    answer = post(client, "to-hit", {"attack_dice": 4, "defence": {"type": "dodge", "pool": 2}}).get_json()
    assert exact(answer["chance_exact"]) == 1 - Fraction(2, 3) ** 2
    assert answer["defence_applied"] == 2 and answer["defence_pool_after"] == 1


def test_georeg_damage_stuns_the_rank_six_ginat(client):
    body = {"damage_dice": 4, "extra_successes": 2, "target": {"rank": 6},
            "rolls": {"damage": [2, 4, 5, 5, 2, 4, 5, 6, 3]}}
    answer = post(client, "damage", body).get_json()
    assert answer["pool"] == 8 and answer["threshold"] == 6
    assert answer["roll"]["final"] == 4 and answer["roll"]["band"] == "defeat" and answer["roll"]["stunned"]
    assert sum(map(exact, answer["probabilities_exact"].values())) == 1
    stunned = post(client, "damage", {**body, "target": {"rank": 6, "stunned": True}}).get_json()
    assert stunned["roll"]["rank_lost"] and not stunned["roll"]["stunned"]


def test_bonus_ranks_raise_the_trauma_threshold(client):
    answer = post(client, "damage", {"target": {"rank": 3, "bonus_ranks": 1}, "rolls": {"damage": [5, 5, 5, 5]}}).get_json()
    assert answer["threshold"] == 4 and answer["roll"]["band"] == "defeat"


def test_soak_needs_a_heroic_target_and_is_unbounded(client):
    refused = post(client, "damage", {"target": {"rank": 4}, "soak": True})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "soak"
    answer = post(client, "damage", {"target": {"rank": 4, "heroic": True, "soak_dice": 3}, "soak": True}).get_json()
    assert answer["probabilities_exact"] is None and abs(sum(answer["probabilities"].values()) - 1) < 1e-12


def test_a_whole_attack_splits_every_outcome(client):
    answer = post(client, "attack", {"attack_dice": 4, "target": {"rank": 5}, "options": {"explode": False},
                                     "seed": 4}).get_json()
    probs = {k: exact(v) for k, v in answer["probabilities_exact"].items()}
    assert sum(probs.values()) == 1 and set(probs) == {"defender_specials", "miss", "no_damage", "defeat", "trauma",
                                                       "killing_blow", "massive"}
    assert answer["roll"]["outcome"] in ("hit", "miss", "defender_specials")


def test_the_seed_injury_example(client):
    answer = post(client, "injury", {"rolls": {"location": [4, 4, 4, 6], "effect": [3]}}).get_json()
    assert answer["roll"] == {"faces": [4, 4, 4, 6], "face": 4, "location": "right_arm", "shift": 1,
                              "effect_roll": 3, "effect": "hand"}
    assert sum(map(exact, answer["location_probabilities_exact"].values())) == 1


def test_combatant_derived_values_follow_georeg(client):
    answer = post(client, "combatant", {"physical_rank": 4, "mental_rank": 4, "heroic": True,
                                        "attributes": {"str": 1, "agl": 2}}).get_json()
    assert answer["soak_dice"] == {"physical": 3, "mental": 0}
    assert answer["defeats_to_out_of_action"]["physical"] == 7 and answer["crossover_mental_losses_at"][0] == 2
    mob = post(client, "combatant", {"physical_rank": 3, "mental_rank": 3, "group": "mob"}).get_json()
    assert mob["thresholds"] == {"physical": 4, "mental": 3} and mob["action_dice"]["rolled"] == 5


def test_movement_get_and_post_agree(client):
    got = client.get("/v1/smoting/movement?agl=1&mr=1").get_json()
    posted = post(client, "movement", {"agl": 1, "mr": 1}).get_json()
    assert got == posted and got["metres_per_second_exact"] == "5/2" and got["km_per_hour_exact"] == "9/1"


@pytest.mark.parametrize("path, body, field", [
    ("check", {"dice": 3, "options": {"nope": 1}}, "options.nope"),
    ("check", {"dice": 3, "options": {"success_min": 7}}, "options.success_min"),
    ("check", {"dice": 2.5}, "dice"),
    ("check", {"dice": True}, "dice"),
    ("to-hit", {"attack_dice": 3, "defence": {"type": "dodge", "dice": 2, "pool": 1}}, "defence"),
    ("to-hit", {"attack_dice": 3, "range_zones": 1}, "range_zones"),
    ("to-hit", {"attack_dice": 3, "rolls": {"attack": [7, 1, 1]}}, "rolls.attack.0"),
    ("to-hit", {"attack_dice": 3, "rolls": {"attack": [1, 1, 1, 1]}}, "rolls.attack"),
    ("damage", {"target": {}}, "target.rank"),
])
def test_bad_input_names_its_field(client, path, body, field):
    answer = post(client, path, body)
    assert answer.status_code == 422, answer.get_json()
    assert field in [e["field"] for e in answer.get_json()["errors"]]
