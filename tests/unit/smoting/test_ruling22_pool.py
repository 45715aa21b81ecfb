"""RULINGS 22: /damage's `pool` is the damage dice actually rolled, after Armor Resist, the block's successes
and the shield factor, the same number as /attack's `roll.damage_pool`. The ruling's example: 4 dice + 2 extras
= 8, Armor Resist 1 -> 7, a live block of 2 successes with factor 1 -> 4; the round resolver throws as many
dice for the same blow (both through service.rules.smoting.damage)."""
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


def test_the_round_resolver_rolls_as_many_dice_for_the_same_blow(client):
    """Georeg (4 damage dice, STR 0) lands 2 extra successes on Ginat (Armour Resist 1, a live block pool of
    2, shield factor 1): the resolver's `damage_rolled` throws 4 dice, as /damage's `pool` says."""
    state = {"round": 0, "zones": [{"id": "field", "adjacent": []}], "combatants": [
        {"id": "georeg", "side": "heroes", "physical_rank": 4, "mental_rank": 4, "attributes": {"str": 0},
         "xposures": {"attack": 5}, "weapon": {"damage_dice": 4, "speed": 4}, "zone": "field"},
        {"id": "ginat", "side": "giants", "physical_rank": 6, "mental_rank": 3, "armor_resist": 1,
         "shield": {"block_factor": 1}, "defence_pool": {"type": "block", "successes": 2}, "zone": "field"}]}
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 1, 1, 2]},
             {"combatant": "ginat", "role": "action", "faces": [1, 1, 1, 5]},
             {"role": "closing", "faces": [1]},
             {"combatant": "georeg", "role": "attack", "faces": GEOREG},
             {"combatant": "georeg", "role": "damage", "faces": [1, 1, 1, 1]}]
    declarations = [{"combatant": "georeg", "action": "attack", "target": "ginat"},
                    {"combatant": "ginat", "action": "idle", "defence": "block"}]
    events = post(client, "rounds/resolve", {"state": state, "declarations": declarations, "rolls": rolls})["events"]
    hit = next(e for e in events if e["type"] == "hit")
    thrown = next(e for e in events if e["type"] == "damage_rolled")
    landed = post(client, "damage", {**BLOW, "extra_successes": hit["extra_successes"]})
    assert hit["extra_successes"] == 2 and thrown["dice"] == landed["pool"] == 4
