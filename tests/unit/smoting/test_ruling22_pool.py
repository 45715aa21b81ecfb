"""RULINGS 22: /damage's `pool` is the damage dice actually rolled, after Armor Resist, the block's successes
and the shield factor, the same number as /attack's `roll.damage_pool`. The ruling's example: 4 dice + 2 extras
= 8, Armor Resist 1 -> 7, a live block of 2 successes with factor 1 -> 4."""
from __future__ import annotations

from service.rules.smoting import damage

BLOW = {"damage_dice": 4, "armor_resist": 1, "block": {"pool": 2, "factor": 1}, "target": {"rank": 6}}
GEOREG = [1, 3, 5, 5, 6, 4]  # 5, 5, 6 succeed (the 6 re-rolled 4): two extra successes


def post(client, path, body):
    response = client.post(f"/v1/smoting/{path}", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_rule_takes_the_block_and_the_factor_off_never_below_zero():
    assert damage.dice_rolled(damage.base_pool(4, 0, 2, 0, 1), damage.Block(pool=2, factor=1), 2) == 4
    assert damage.dice_rolled(7, None) == 7 and damage.dice_rolled(3, damage.Block(pool=5, factor=1), 5) == 0


def test_damage_and_attack_count_the_same_dice(client):
    landed = post(client, "damage", {**BLOW, "extra_successes": 2, "rolls": {"damage": [1, 1, 1, 1]}})
    assert landed["pool"] == landed["roll"]["damage_pool"] == 4
    whole = post(client, "attack", {**BLOW, "attack_dice": 5, "rolls": {"attack": GEOREG, "damage": [1, 1, 1, 1]}})
    assert whole["roll"]["extra_successes"] == 2 and whole["roll"]["damage_pool"] == landed["pool"]


def test_a_fresh_block_roll_comes_off_once_rolled(client):
    body = {**BLOW, "block": {"dice": 2, "factor": 1}}
    landed = post(client, "damage", {**body, "extra_successes": 2, "rolls": {"block": [5, 2], "damage": [1] * 5}})
    assert landed["pool"] == 8 - 1 - 1 and landed["roll"]["damage_pool"] == 8 - 1 - 1 - 1
    whole = post(client, "attack", {**body, "attack_dice": 5,
                                    "rolls": {"attack": GEOREG, "block": [5, 2], "damage": [1] * 5}})
    assert whole["roll"]["damage_pool"] == landed["roll"]["damage_pool"]


def test_a_block_beyond_the_pool_leaves_no_dice(client):
    landed = post(client, "damage", {**BLOW, "block": {"pool": 9, "factor": 1}})
    assert landed["pool"] == 0 and landed["probabilities_exact"]["no_damage"] == "1/1"
