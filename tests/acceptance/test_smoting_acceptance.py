"""Acceptance tests of `smoting` through the public HTTP API only: the contract of the rules document §12
and the seed's own examples and tables (003_ef89a6ad2b11b110.txt), with the numbers they state.

Probabilities are checked against an independent exact model of the d6 pool written here from the
document's §2 (5+ succeeds, every 6 rolls again and chains), never the service's own rules code."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from tests.acceptance.contract import assert_exact_pairs as assert_pairs
from tests.acceptance.contract import exact_fraction, poster

BASE = "/v1/smoting"
SIXTH = Fraction(1, 6)


# --- an independent exact model of one d6 pool (document §2) ----------------------------------------------


@cache
def die_count(k: int, explode: bool = True) -> Fraction:
    """P(one die, with its chain of re-rolled 6s, scores exactly k successes)."""
    if k < 0:
        return Fraction(0)
    if not explode:
        return {0: Fraction(2, 3), 1: Fraction(1, 3)}.get(k, Fraction(0))
    if k == 0:
        return Fraction(2, 3)
    return SIXTH * (k == 1) + SIXTH * die_count(k - 1)


@cache
def pool_count(n: int, k: int, explode: bool = True) -> Fraction:
    """P(n dice score exactly k successes)."""
    if n <= 0:
        return Fraction(int(k == 0))
    return sum((die_count(j, explode) * pool_count(n - 1, k - j, explode) for j in range(k + 1)), Fraction(0))


def at_least(n: int, k: int, explode: bool = True) -> Fraction:
    return 1 - sum((pool_count(n, j, explode) for j in range(k)), Fraction(0))


frac = exact_fraction
post = poster(BASE)


def assert_exact_pairs(body: dict) -> None:
    """Exact twins as everywhere; an entry may be null where the document allows (an unbounded sum)."""
    assert_pairs(body, null_entries=True)


def exact_sum_is_one(mapping: dict) -> None:
    assert sum(frac(v) for v in mapping.values()) == 1


def assert_dice(body: dict) -> None:
    assert body["dice"], "a random answer lists its dice"
    for die in body["dice"]:
        assert {"role", "expression", "dice", "total", "supplied"} <= set(die)
        assert all(1 <= face <= 6 for face in die["dice"])


def problem_fields(answer) -> set[str]:
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    return {error["field"] for error in answer.get_json()["errors"]}


# --- §2 pools: POST /v1/smoting/check ----------------------------------------------------------------------


def test_georegs_attack_faces_score_three_successes(client):
    """*Damage*: 1,3,5,5,6 and the 6 re-rolled as a 4 are 3 successes (only 5+ fits)."""
    body = post(client, "/check", {"dice": 5, "rolls": {"pool": [1, 3, 5, 5, 6, 4]}})
    assert body["pool"] == 5 and body["explode"] is True
    assert body["roll"] == {"faces": [1, 3, 5, 5, 6, 4], "successes": 3, "outcome": "success"}
    assert body["dice"][0]["supplied"] is True and body["dice"][0]["dice"] == [1, 3, 5, 5, 6, 4]
    assert body["seed"] is None


@pytest.mark.parametrize("dice", [1, 4, 5, 8])
def test_check_distribution_is_the_exploding_5_plus_pool(client, dice):
    body = post(client, "/check", {"dice": dice, "need": 2})
    assert_exact_pairs(body)
    table = body["success_probabilities_exact"]
    assert set(table) == {str(k) for k in range(2 * dice + 1)} | {"more"}
    for k in range(2 * dice + 1):
        assert frac(table[str(k)]) == pool_count(dice, k)
    exact_sum_is_one(table)
    assert frac(body["chance_exact"]) == at_least(dice, 2)
    assert frac(body["expected_successes_exact"]) == Fraction(2 * dice, 5)
    exact_sum_is_one(body["probabilities_exact"])


def test_check_without_re_rolls(client):
    body = post(client, "/check", {"dice": 4, "explode": False})
    assert body["explode"] is False
    assert frac(body["chance_exact"]) == 1 - Fraction(2, 3) ** 4
    assert frac(body["expected_successes_exact"]) == Fraction(4, 3)
    assert frac(body["success_probabilities_exact"]["more"]) == 0


@pytest.mark.parametrize("extra, pool", [({"running": True}, 5), ({"stunned": True}, 2),
                                         ({"running": True, "stunned": True}, 3), ({"modifiers": -9}, 1)])
def test_check_pool_modifiers_move_rolls(client, extra, pool):
    """*Move rolls*: +1d running, -2d stunned; a pool with a base keeps one die."""
    body = post(client, "/check", {"dice": 4, **extra})
    assert body["pool"] == pool
    assert frac(body["chance_exact"]) == at_least(pool, 1)


def test_zone_move_needs_two_successes_one_puts_you_on_the_boundary(client):
    """*Move rolls*: 2 successes arrive, exactly 1 the boundary line, 0 stay."""
    body = post(client, "/check", {"dice": 4, "kind": "zone_move", "need": 5})
    probabilities = {k: frac(v) for k, v in body["probabilities_exact"].items()}
    assert probabilities == {"arrive": at_least(4, 2), "boundary": pool_count(4, 1), "stay": pool_count(4, 0)}
    assert frac(body["chance_exact"]) == at_least(4, 2)
    rolled = post(client, "/check", {"dice": 4, "kind": "zone_move", "rolls": {"pool": [5, 1, 2, 3]}})
    assert rolled["roll"]["outcome"] == "boundary"


@pytest.mark.parametrize("dice, roll_needed", [(3, True), (4, False), (6, False)])
def test_battle_move_rolled_only_below_four_dice(client, dice, roll_needed):
    """*Move rolls*: a Trivial or Battle move is rolled only with fewer than 4 dice, any success will do."""
    body = post(client, "/check", {"dice": dice, "kind": "battle_move"})
    assert body["roll_needed"] is roll_needed
    assert frac(body["probabilities_exact"]["success"]) == (at_least(dice, 1) if roll_needed else 1)


def test_attribute_roll_is_four_plus_level_one_success(client):
    """*OoA and KIA* "BODY dice (4+level)", *Fatigue* "(4d+level)": one success passes, `need` ignored."""
    body = post(client, "/check", {"dice": 6, "kind": "attribute", "need": 3})
    assert frac(body["probabilities_exact"]["success"]) == at_least(6, 1)


def test_check_seed_repeats_and_is_echoed(client):
    first = client.post(BASE + "/check", json={"dice": 6, "seed": 42})
    again = client.post(BASE + "/check", json={"dice": 6, "seed": 42})
    assert first.data == again.data
    body = first.get_json()
    assert body["seed"] == 42
    assert_dice(body)
    assert body["roll"]["faces"] == body["dice"][0]["dice"]
    odds_only = post(client, "/check", {"dice": 6})
    assert odds_only["roll"] is None and odds_only["seed"] is None
    partial = post(client, "/check", {"dice": 6, "rolls": {"pool": [2, 5]}})  # the rest drawn from a random seed
    assert isinstance(partial["seed"], int) and partial["roll"]["faces"][:2] == [2, 5]
    again = post(client, "/check", {"dice": 6, "rolls": {"pool": [2, 5]}, "seed": partial["seed"]})
    assert again == partial


def test_check_errors_name_their_fields(client):
    for body, field in [({"dice": 31}, "dice"), ({"dice": 4, "colour": "red"}, "colour"),
                        ({"dice": 4, "kind": "sprint"}, "kind"), ({"dice": 4, "options": {"success_min": 7}},
                                                                   "options.success_min"),
                        ({"dice": 4, "options": {"no_such_option": 1}}, "options.no_such_option"),
                        ({"dice": 2, "rolls": {"pool": [1, 7]}}, "rolls.pool.1"), ({}, "dice")]:
        assert field in problem_fields(client.post(BASE + "/check", json=body)), body


def test_success_min_option_changes_the_die(client):
    body = post(client, "/check", {"dice": 1, "explode": False, "options": {"success_min": 4}})
    assert frac(body["chance_exact"]) == Fraction(1, 2)


# --- §4 chance to hit: POST /v1/smoting/to-hit ---------------------------------------------------------------


def test_georegs_attack_hits_with_two_extra_successes(client):
    """*Damage*: the first success makes the hit, the two extras buy specials."""
    body = post(client, "/to-hit", {"attack_dice": 5, "rolls": {"attack": [1, 3, 5, 5, 6, 4]}})
    roll = body["roll"]
    assert (roll["attack_successes"], roll["net"], roll["extra_successes"], roll["outcome"]) == (3, 3, 2, "hit")
    assert body["attack_dice"] == 5 and body["defence_dice"] is None


def test_undefended_attack_extra_success_table(client):
    body = post(client, "/to-hit", {"attack_dice": 4})
    assert_exact_pairs(body)
    assert frac(body["chance_exact"]) == at_least(4, 1)
    extras = body["extra_success_probabilities_exact"]
    assert set(extras) == {str(k) for k in range(9)} | {"more"}
    for k in range(9):
        assert frac(extras[str(k)]) == pool_count(4, k + 1)
    assert sum(frac(v) for v in extras.values()) == frac(body["chance_exact"])
    exact_sum_is_one(body["probabilities_exact"])
    assert frac(body["probabilities_exact"]["defender_specials"]) == 0


@pytest.mark.parametrize("attack, dodge", [(5, 3), (3, 4), (1, 2)])
def test_fresh_dodge_removes_attack_dice_before_the_roll(client, attack, dodge):
    """*Defences › Dodge*: dodge successes remove attack dice; a surplus is defender specials."""
    body = post(client, "/to-hit", {"attack_dice": attack, "defence": {"type": "dodge", "dice": dodge}})
    assert_exact_pairs(body)
    hit = sum((pool_count(dodge, d) * at_least(attack - d, 1) for d in range(attack)), Fraction(0))
    specials = 1 - sum((pool_count(dodge, d) for d in range(attack + 1)), Fraction(0))
    probabilities = {k: frac(v) for k, v in body["probabilities_exact"].items()}
    assert probabilities == {"hit": hit, "defender_specials": specials, "miss": 1 - hit - specials}
    assert frac(body["chance_exact"]) == hit and body["defence_dice"] == dodge


def test_dodge_against_fired_missiles_loses_two_dice_and_a_running_defender_one(client):
    fired = post(client, "/to-hit", {"attack_dice": 4, "attack_type": "fired", "range_zones": 1,
                                     "defence": {"type": "dodge", "dice": 5, "running": True}})
    assert fired["defence_dice"] == 2
    melee = post(client, "/to-hit", {"attack_dice": 4, "defence": {"type": "dodge", "dice": 5}})
    assert melee["defence_dice"] == 5


@pytest.mark.parametrize("pool", [0, 1, 2, 4])
def test_live_parry_pool_subtracts_its_successes(client, pool):
    """*Maintaining a Defence Pool*: a live pool is a parry that came up with p successes, then loses one."""
    body = post(client, "/to-hit", {"attack_dice": 4, "defence": {"type": "parry", "pool": pool}})
    probabilities = {k: frac(v) for k, v in body["probabilities_exact"].items()}
    below = sum((pool_count(4, a) for a in range(pool)), Fraction(0))
    assert probabilities == {"hit": at_least(4, pool + 1), "miss": pool_count(4, pool), "defender_specials": below}
    assert body["defence_applied"] == pool and body["defence_pool_after"] == max(pool - 1, 0)
    for k in range(9):
        assert frac(body["extra_success_probabilities_exact"][str(k)]) == pool_count(4, pool + 1 + k)


@pytest.mark.parametrize("pool", [1, 3, 4, 6])
def test_live_dodge_pool_removes_dice(client, pool):
    body = post(client, "/to-hit", {"attack_dice": 4, "defence": {"type": "dodge", "pool": pool}})
    probabilities = {k: frac(v) for k, v in body["probabilities_exact"].items()}
    hit = at_least(4 - pool, 1) if pool < 4 else Fraction(0)
    assert probabilities["hit"] == hit
    assert probabilities["defender_specials"] == (1 if pool > 4 else 0)
    assert body["defence_pool_after"] == pool - 1


def test_fresh_parry_has_no_exact_fraction_but_an_accurate_number(client):
    """§2: a fresh parry against an exploding pool is an unbounded sum: `*_exact` null, number to 1e-12."""
    body = post(client, "/to-hit", {"attack_dice": 4, "defence": {"type": "parry", "dice": 3}})
    assert body["chance_exact"] is None and body["probabilities_exact"] is None
    top = 40
    hit = sum(float(pool_count(4, a) * pool_count(3, d)) for a in range(top) for d in range(top) if a - d >= 1)
    specials = sum(float(pool_count(4, a) * pool_count(3, d)) for a in range(top) for d in range(top) if d > a)
    assert body["chance"] == pytest.approx(hit, abs=1e-12)
    assert body["probabilities"]["defender_specials"] == pytest.approx(specials, abs=1e-12)
    assert sum(body["probabilities"].values()) == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("cover, dice, explode", [("none", 5, True), ("hard_light", 4, True),
                                                  ("hard_heavy", 3, False), ("soft_light", 4, True),
                                                  ("soft_medium", 3, True), ("soft_heavy", 2, True)])
def test_cover_table(client, cover, dice, explode):
    """*Cover*: hard light -1d, heavy -2d no rerolls; soft light -1d, medium -2d, heavy -3d."""
    body = post(client, "/to-hit", {"attack_dice": 5, "attack_type": "fired", "range_zones": 0, "cover": cover})
    assert body["attack_dice"] == dice and body["explode"] is explode
    assert frac(body["chance_exact"]) == at_least(dice, 1, explode)


@pytest.mark.parametrize("extra, dice", [
    ({"attack_type": "thrown", "target_running": True}, 4), ({"attack_type": "melee", "target_running": True}, 5),
    ({"attack_type": "fired", "target_flying_speed": 2}, 3), ({"pressure": 2}, 3), ({"effort": 1}, 6),
    ({"advantage": True}, 6), ({"attack_type": "fired", "range_zones": 3}, 2), ({"modifiers": -20}, 1),
    ({"attack_type": "spell", "range_zones": 7}, 1)])
def test_attack_pool_modifiers_and_the_one_die_floor(client, extra, dice):
    """*Running*, *Flying*, *Initiative dice of 1* (pressure, effort), advantage, range; *Attacks*: one die minimum."""
    body = post(client, "/to-hit", {"attack_dice": 5, **extra})
    assert body["attack_dice"] == dice


def test_surprised_defender_has_no_defence(client):
    body = post(client, "/to-hit", {"attack_dice": 3, "surprised": True, "defence": {"type": "dodge", "dice": 6}})
    assert frac(body["chance_exact"]) == at_least(3, 1)


def test_to_hit_errors_name_their_fields(client):
    for body, field in [({"attack_dice": 0}, "attack_dice"),
                        ({"attack_dice": 4, "range_zones": 1}, "range_zones"),
                        ({"attack_dice": 4, "attack_type": "thrown", "range_zones": 2}, "range_zones"),
                        ({"attack_dice": 4, "cover": "fog"}, "cover"),
                        ({"attack_dice": 4, "defence": {"type": "parry", "dice": 2, "pool": 1}}, "defence"),
                        ({"attack_dice": 4, "defence": {"type": "parry", "dice": 2, "colour": 1}}, "defence.colour"),
                        ({"attack_dice": 4, "options": {"dodge_floor": "two"}}, "options.dodge_floor"),
                        ({"attack_dice": 2, "rolls": {"attack": [0, 5]}}, "rolls.attack.0")]:
        assert field in problem_fields(client.post(BASE + "/to-hit", json=body)), body


def test_dodge_floor_one_keeps_a_die(client):
    body = post(client, "/to-hit", {"attack_dice": 2, "defence": {"type": "dodge", "pool": 3},
                                    "options": {"dodge_floor": "one"}})
    assert frac(body["chance_exact"]) == at_least(1, 1)
    assert frac(body["probabilities_exact"]["defender_specials"]) == 1 - at_least(1, 1)


# --- §5 damage: POST /v1/smoting/damage --------------------------------------------------------------------

GEREG_DAMAGE = [2, 4, 5, 5, 2, 4, 5, 6, 1]  # sword 4d + the extra 4d, then the 6's re-roll


def bands(pool: int, threshold: int, massive: bool = True) -> dict[str, Fraction]:
    """Physical bands by damage D (document §5 step 5): 0, 1..T, T+1..2T, 2T+1..3T, above."""
    cut = [pool_count(pool, d) for d in range(3 * threshold + 1)]
    answer = {"no_damage": cut[0], "defeat": sum(cut[1:threshold + 1], Fraction(0)),
              "trauma": sum(cut[threshold + 1:2 * threshold + 1], Fraction(0)),
              "killing_blow": sum(cut[2 * threshold + 1:], Fraction(0))}
    answer["massive"] = 1 - sum(answer.values(), Fraction(0))
    if not massive:
        answer["killing_blow"] += answer["massive"]
        answer["massive"] = Fraction(0)
    return answer


def test_georegs_damage_stuns_the_rank_6_ginat(client):
    """*Damage*: 2,4,5,5 and 2,4,5,6 = 4 damage; rank 6: only a stun (the stun taken instead of the defeat)."""
    body = post(client, "/damage", {"damage_dice": 4, "extra_successes": 2, "target": {"rank": 6},
                                    "rolls": {"damage": GEREG_DAMAGE}})
    assert body["pool"] == 8 and body["threshold"] == 6
    roll = body["roll"]
    assert (roll["damage"], roll["final"], roll["band"]) == (4, 4, "defeat")
    assert roll["stunned"] is True and roll["rank_lost"] is False and roll["trauma"] is False
    assert_dice(body)


def test_georegs_damage_on_a_stunned_ginat_takes_a_rank(client):
    body = post(client, "/damage", {"damage_dice": 4, "extra_successes": 2,
                                    "target": {"rank": 6, "stunned": True}, "rolls": {"damage": GEREG_DAMAGE}})
    assert body["roll"]["stunned"] is False and body["roll"]["rank_lost"] is True


@pytest.mark.parametrize("rank, pool", [(6, 8), (1, 4), (3, 6)])
def test_damage_bands_exact(client, rank, pool):
    """*Damage/Defeat*: D >= 1 defeat, D > T trauma, D > 2T killing blow, D > 3T massive."""
    body = post(client, "/damage", {"damage_dice": pool, "target": {"rank": rank}})
    assert_exact_pairs(body)
    assert {k: frac(v) for k, v in body["probabilities_exact"].items()} == bands(pool, rank)
    for k in range(2 * pool + 1):
        assert frac(body["damage_probabilities_exact"][str(k)]) == pool_count(pool, k)
    exact_sum_is_one(body["damage_probabilities_exact"])


def test_massive_off_folds_into_the_killing_blow(client):
    body = post(client, "/damage", {"damage_dice": 6, "target": {"rank": 1}, "options": {"massive_kia": False}})
    assert {k: frac(v) for k, v in body["probabilities_exact"].items()} == bands(6, 1, massive=False)


@pytest.mark.parametrize("faces, band", [([5, 5, 5, 5, 5, 1], "trauma"), ([5, 5, 5, 5, 1, 1], "defeat")])
def test_bonus_rank_raises_the_trauma_threshold(client, faces, band):
    """*Real Ranks vs Bonus Ranks*: rank 3 with a bonus rank to 4 needs 5 damage for a trauma."""
    body = post(client, "/damage", {"damage_dice": 6, "target": {"rank": 3, "bonus_ranks": 1, "stunned": True},
                                    "rolls": {"damage": faces}})
    assert body["threshold"] == 4 and body["roll"]["band"] == band
    assert body["roll"]["trauma"] is (band == "trauma")


def test_bonus_rank_panic_threshold_in_the_mental_domain(client):
    body = post(client, "/damage", {"damage_dice": 6, "domain": "mental", "target": {"rank": 3, "bonus_ranks": 1},
                                    "rolls": {"damage": [5, 5, 5, 5, 5, 1]}})
    assert body["roll"]["band"] == "panicked"
    cut = [pool_count(6, d) for d in range(9)]
    assert {k: frac(v) for k, v in body["probabilities_exact"].items()} == {
        "no_damage": cut[0], "defeat": sum(cut[1:5]), "panicked": sum(cut[5:9]), "crushed": 1 - sum(cut)}


@pytest.mark.parametrize("request_part, pool", [
    ({"strength": 2, "extra_successes": 1}, 8), ({"armor_resist": 3}, 1), ({"armor_resist": 6}, 0),
    ({"bonus_dice": -2}, 2)])
def test_damage_pool(client, request_part, pool):
    """*Damage*, *Defences › Block*: weapon + STR + 2 per special - Armor Resist - block successes - factor."""
    body = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 2}, **request_part})
    assert body["pool"] == pool
    if pool == 0:
        assert frac(body["probabilities_exact"]["no_damage"]) == 1


def test_a_live_block_pool_and_the_shield_factor_remove_damage_dice(client):
    """*Defences › Block*: each block success and the blocking factor remove one damage die (4 - 2 - 1 = 1)."""
    body = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 2}, "block": {"pool": 2, "factor": 1}})
    distribution = body["damage_probabilities_exact"]
    for k in range(3):
        assert frac(distribution[str(k)]) == pool_count(1, k)


def test_a_hit_on_an_out_of_action_target_is_a_body_roll(client):
    """*OoA and KIA*: BODY dice (4 + level), one success or KIA, whatever the damage."""
    body = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 3, "out_of_action": True, "bod": 1}})
    assert {k: frac(v) for k, v in body["probabilities_exact"].items()} == {
        "survives": at_least(5, 1), "kia": pool_count(5, 0)}


def test_soak_is_for_heroes_and_cancels_damage(client):
    """*Soak Rolls*: heroic only; each soak success removes a point of damage."""
    refused = client.post(BASE + "/damage", json={"target": {"rank": 4, "soak_dice": 3}, "soak": True})
    assert "soak" in problem_fields(refused)
    body = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 4, "heroic": True, "soak_dice": 3},
                                    "soak": True, "rolls": {"damage": [5, 5, 5, 1], "soak": [5, 2, 1]}})
    assert (body["roll"]["damage"], body["roll"]["soaked"], body["roll"]["final"]) == (3, 1, 2)
    assert sum(body["probabilities"].values()) == pytest.approx(1, abs=1e-12)
    top = 40
    no_damage = sum(float(pool_count(4, d) * pool_count(3, s)) for d in range(top) for s in range(top) if s >= d)
    assert body["probabilities"]["no_damage"] == pytest.approx(no_damage, abs=1e-12)


def test_damage_errors_name_their_fields(client):
    for body, field in [({"target": {"rank": 10}}, "target.rank"), ({"target": {}}, "target.rank"),
                        ({"target": {"rank": 3}, "domain": "spiritual"}, "domain"),
                        ({"target": {"rank": 3}, "block": {"dice": 1, "pool": 1}}, "block"),
                        ({"target": {"rank": 3}, "options": {"crossover_every": 5}}, "options.crossover_every"),
                        ({"target": {"rank": 3}, "rolls": {"damage": [6, 6, 9]}}, "rolls.damage.2")]:
        assert field in problem_fields(client.post(BASE + "/damage", json=body)), body


# --- §4 + §5 one attack: POST /v1/smoting/attack -----------------------------------------------------------


def test_georegs_whole_attack(client):
    body = post(client, "/attack", {"attack_dice": 5, "damage_dice": 4, "target": {"rank": 6},
                                    "rolls": {"attack": [1, 3, 5, 5, 6, 4], "damage": GEREG_DAMAGE}})
    roll = body["roll"]
    assert (roll["attack_successes"], roll["extra_successes"], roll["damage_pool"], roll["damage"]) == (3, 2, 8, 4)
    assert roll["band"] == "defeat" and roll["stunned"] is True and roll["rank_lost"] is False
    assert {d["role"] for d in body["dice"]} == {"attack", "damage"}


def test_attack_outcomes_are_exclusive_and_match_the_model(client):
    """Extra successes feed the damage pool (+2 dice each): an unbounded sum, accurate to 1e-12."""
    body = post(client, "/attack", {"attack_dice": 3, "damage_dice": 4, "target": {"rank": 2}})
    expected = {"defender_specials": 0.0, "miss": float(pool_count(3, 0))}
    for key in ("no_damage", "defeat", "trauma", "killing_blow", "massive"):
        expected[key] = 0.0
    for a in range(1, 40):
        for key, value in bands(4 + 2 * (a - 1), 2).items():
            expected[key] += float(pool_count(3, a) * value)
    assert set(body["probabilities"]) == set(expected)
    for key, value in expected.items():
        assert body["probabilities"][key] == pytest.approx(value, abs=1e-12), key
    assert body["chance"] == pytest.approx(float(at_least(3, 1)), abs=1e-12)
    assert sum(body["probabilities"].values()) == pytest.approx(1, abs=1e-12)
    if body["probabilities_exact"] is not None:
        exact_sum_is_one(body["probabilities_exact"])


def test_attack_seed_repeats(client):
    request = {"attack_dice": 4, "target": {"rank": 3}, "seed": 7}
    first = client.post(BASE + "/attack", json=request)
    assert first.data == client.post(BASE + "/attack", json=request).data
    assert first.get_json()["seed"] == 7
    assert_dice(first.get_json())


# --- §5 injury: POST /v1/smoting/injury -------------------------------------------------------------------

FACE_MAP = {1: "left_leg", 2: "right_leg", 3: "left_arm", 4: "right_arm", 5: "chest", 6: "head"}


def injury_model() -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """*Injury Table*: 4d6, the face shown most; ties to the highest face; a triple shifts 1, four of a kind 2."""
    faces, shifts = Counter(), Counter()
    for roll in product(range(1, 7), repeat=4):
        counts = Counter(roll)
        most = max(counts.values())
        faces[max(f for f, c in counts.items() if c == most)] += Fraction(1, 1296)
        shifts[max(most - 2, 0)] += Fraction(1, 1296)
    return faces, shifts


def test_injury_example_four_four_four_six(client):
    """*Injury Table*: 4,4,4,6 hits the right arm and the triple lets the attacker shift one area."""
    body = post(client, "/injury", {"rolls": {"location": [4, 4, 4, 6], "effect": [2]}})
    roll = body["roll"]
    assert (roll["face"], roll["location"], roll["shift"]) == (4, "right_arm", 1)
    assert roll["effect_roll"] == 2 and roll["effect"] == "flesh_wound"
    assert [d["role"] for d in body["dice"]] == ["location", "effect"]


def test_injury_probabilities_from_enumerating_4d6(client):
    body = post(client, "/injury", {})
    assert_exact_pairs(body)
    faces, shifts = injury_model()
    assert {int(k): frac(v) for k, v in body["face_probabilities_exact"].items()} == faces
    assert {FACE_MAP[f]: p for f, p in faces.items()} == {
        k: frac(v) for k, v in body["location_probabilities_exact"].items()}
    assert {int(k): frac(v) for k, v in body["shift_probabilities_exact"].items()} == shifts
    assert body["roll"] is None


def test_killing_blow_adds_one_to_the_effect_roll(client):
    """*KILLING BLOW*: +1 to the Effects Table roll."""
    body = post(client, "/injury", {"killing_blow": True, "rolls": {"location": [6, 6, 1, 2], "effect": [6]}})
    assert body["roll"]["location"] == "head" and body["roll"]["effect_roll"] == 7
    assert body["roll"]["effect"] == "kill"


def test_injury_ties_go_to_the_highest_face(client):
    two_pairs = post(client, "/injury", {"rolls": {"location": [1, 1, 3, 3], "effect": [1]}})
    singles = post(client, "/injury", {"rolls": {"location": [1, 2, 3, 5], "effect": [1]}})
    assert (two_pairs["roll"]["face"], singles["roll"]["face"]) == (3, 5)
    assert two_pairs["roll"]["effect"] == "stun"
    bad = client.post(BASE + "/injury", json={"rolls": {"location": [4, 4, 4, 6, 6]}})
    assert problem_fields(bad) & {"rolls.location", "rolls.location.4"}


# --- combatant: POST /v1/smoting/combatant -----------------------------------------------------------------


def test_georegs_soak_pool_is_three_dice(client):
    """*Soak Rolls*: +1d STR, +2 AGL, 0 BOD: 3 dice; only heroes soak."""
    hero = post(client, "/combatant", {"physical_rank": 4, "mental_rank": 4, "heroic": True,
                                       "attributes": {"str": 1, "agl": 2, "bod": 0, "will": 1}})
    assert hero["soak_dice"] == {"physical": 3, "mental": 1}
    assert hero["movement_pool"] == 6  # 4 + AGL (*Move rolls*)
    normal = post(client, "/combatant", {"physical_rank": 4, "mental_rank": 4,
                                         "attributes": {"str": 1, "agl": 2}})
    assert normal["soak_dice"] == {"physical": 0, "mental": 0}


@pytest.mark.parametrize("group, physical, mental, dice, attacks", [
    ("none", 0, 0, 0, 1), ("mob", 1, 0, 1, 2), ("crowd", 1, 1, 2, 3), ("horde", 2, 1, 3, 4),
    ("company", 3, 2, 4, 4), ("unit", 4, 2, 4, 6)])
def test_mobs_crowds_and_hordes(client, group, physical, mental, dice, attacks):
    """*Mobs, Crowds and Hordes*: humans of rank 3/3 become a mob 4, a crowd 5/4, a horde 6/5."""
    body = post(client, "/combatant", {"physical_rank": 3, "mental_rank": 3, "group": group})
    assert body["group_bonus"] == {"physical": physical, "mental": mental, "dice": dice, "attacks": attacks}
    assert body["thresholds"] == {"physical": 3 + physical, "mental": 3 + mental}
    assert body["action_dice"]["rolled"] == 4 + dice


@pytest.mark.parametrize("modifier, rolled, kept, reroll_ones", [(0, 4, 4, False), (-3, 1, 1, False),
                                                                  (-6, 1, 1, True), (5, 9, 8, False)])
def test_action_dice_bounds(client, modifier, rolled, kept, reroll_ones):
    """*Initiative & Actions*: base 4; at most 8 kept; below 1 still roll 1 and re-roll a 1."""
    body = post(client, "/combatant", {"physical_rank": 3, "mental_rank": 3, "action_dice_modifier": modifier})
    assert body["action_dice"] == {"rolled": rolled, "kept": kept, "reroll_ones": reroll_ones}


def test_bonus_ranks_raise_thresholds_and_heroes_fall_to_minus_three(client):
    """*Real Ranks vs Bonus Ranks*, *OoA and KIA*, *CrossOver Damage* (every 2nd loss crosses over)."""
    normal = post(client, "/combatant", {"physical_rank": 3, "mental_rank": 5, "bonus_physical": 1})
    assert normal["thresholds"] == {"physical": 4, "mental": 5}
    assert normal["defeats_to_out_of_action"]["physical"] == 3  # bonus ranks absorb nothing
    assert normal["crossover_mental_losses_at"] == [2]
    fragile_mind = post(client, "/combatant", {"physical_rank": 6, "mental_rank": 2})
    assert fragile_mind["defeats_to_out_of_action"]["physical"] == 4  # mental 2 - 2 crossovers = 0
    hero = post(client, "/combatant", {"physical_rank": 6, "mental_rank": 2, "heroic": True})
    assert hero["defeats_to_out_of_action"]["physical"] == 9
    assert hero["crossover_mental_losses_at"] == [2, 4, 6, 8]
    third = post(client, "/combatant", {"physical_rank": 6, "mental_rank": 6, "options": {"crossover_every": 3}})
    assert third["crossover_mental_losses_at"] == [3, 6]


def test_combatant_errors(client):
    for body, field in [({"mental_rank": 3}, "physical_rank"), ({"physical_rank": 0, "mental_rank": 3},
                                                                "physical_rank"),
                        ({"physical_rank": 3, "mental_rank": 3, "group": "legion"}, "group"),
                        ({"physical_rank": 3, "mental_rank": 3, "attributes": {"luck": 1}}, "attributes.luck")]:
        assert field in problem_fields(client.post(BASE + "/combatant", json=body)), body


# --- §7 movement: POST and GET /v1/smoting/movement ---------------------------------------------------------


def test_movement_humans_move_one_zone_a_round(client):
    """*Movement Speeds*: MR 1, 4d; a zone 50 m, a round 20 s: 2.5 m/s = 9 km/h."""
    body = client.get(BASE + "/movement").get_json()
    assert body["pool"] == 4 and body["zones_per_round"] == 1
    assert frac(body["metres_per_second_exact"]) == Fraction(5, 2) and frac(body["km_per_hour_exact"]) == 9
    assert {k: frac(v) for k, v in body["zone_move_exact"].items()} == {
        "arrive": at_least(4, 2), "boundary": pool_count(4, 1), "stay": pool_count(4, 0)}
    assert body["battle_move"]["roll_needed"] is False and frac(body["battle_move_exact"]["success"]) == 1


def test_movement_post_and_get_agree(client):
    query = {"agl": -2, "mr": 2, "running": "true"}
    got = client.get(BASE + "/movement", query_string=query)
    assert got.status_code == 200, got.get_json()
    posted = post(client, "/movement", {"agl": -2, "mr": 2, "running": True})
    assert got.get_json() == posted
    assert posted["pool"] == 3 and posted["battle_move"]["roll_needed"] is True
    assert frac(posted["battle_move_exact"]["success"]) == at_least(3, 1)
    assert frac(posted["km_per_hour_exact"]) == 18
    stunned = post(client, "/movement", {"stunned": True})
    assert stunned["pool"] == 2


def test_movement_errors(client):
    assert "agl" in problem_fields(client.get(BASE + "/movement", query_string={"agl": "quick"}))
    assert "options.metres_per_zone" in problem_fields(
        client.post(BASE + "/movement", json={"options": {"metres_per_zone": "far"}}))


# --- GET /v1/rulesets/smoting ---------------------------------------------------------------------------------


def test_ruleset_options_tags_and_assumptions(client):
    body = client.get("/v1/rulesets/smoting").get_json()
    assert body["id"] == "smoting"
    options = body["options"]
    for name, default in [("success_min", 5), ("explode", True), ("min_attack_dice", 1), ("dodge_floor", "none"),
                          ("action_dice_base", 4), ("crossover_every", 2), ("massive_kia", True),
                          ("metres_per_zone", 50), ("seconds_per_round", 20), ("take_stun", True),
                          ("soak_attributes", ["str", "agl", "dex", "bod"]), ("closing_trigger", "no_die_ge_2"),
                          ("tie_break", "seeded"), ("advantage_dice", 1)]:
        assert options[name]["default"] == default, name
        assert options[name]["tag"] in {"DOC", "INF", "DEF"} and options[name]["summary"], name
    assert options["success_min"]["tag"] == "INF" and options["action_dice_base"]["tag"] == "DOC"
    assert set(options["dodge_floor"]["choices"]) == {"none", "one"}
    assumptions = body["assumptions"]
    assert all({"id", "tag", "summary", "option", "source"} <= set(a) for a in assumptions)
    assert {a["option"] for a in assumptions} >= {"success_min", "explode", "dodge_floor"}
    assert {t["name"] for t in body["tables"]} >= {"cover", "groups", "injury-locations", "injury-effects",
                                                     "armor-resist", "shields", "weapons"}


def table(client, name):
    answer = client.get(f"/v1/rulesets/smoting/tables/{name}")
    assert answer.status_code == 200, name
    body = answer.get_json()
    assert body["ruleset"] == "smoting" and body["name"] == name
    return body["data"]


def test_cover_table_data(client):
    rows = {row["cover"]: (row["dice"], row["rerolls"]) for row in table(client, "cover")}
    assert rows["hard_light"] == (-1, True) or rows["hard_light"] == (1, True)
    assert {k: (abs(v[0]), v[1]) for k, v in rows.items() if k != "none"} == {
        "hard_light": (1, True), "hard_heavy": (2, False), "soft_light": (1, True), "soft_medium": (2, True),
        "soft_heavy": (3, True)}


def test_groups_and_weapons_tables(client):
    groups = table(client, "groups")
    text = str(groups)
    assert "horde" in text and "unit" in text
    weapons = table(client, "weapons")
    assert "one_handed" in str(weapons) and "dagger" in str(weapons)
    assert client.get("/v1/rulesets/smoting/tables/nothing").status_code == 404


# --- §8 one round: POST /v1/smoting/rounds/resolve ----------------------------------------------------------

COUNTDOWN_DICE = {"p1": [6, 2, 2, 2, 1, 1], "p2": [6, 2, 2, 1, 1], "p3": [6, 5, 4, 3], "p4": [2, 2, 1, 1],
                  "m1": [2, 2, 2, 1], "m2": [2, 1, 1], "m3": [2, 2, 1], "m4": [2, 1, 2]}


def countdown_round(closing: int, action: str = "idle") -> dict:
    """*Actions*: four players (6, 5, 4, 4 dice) and four monsters (4, 3, 3, 3)."""
    combatants = []
    for ident, faces in COUNTDOWN_DICE.items():
        pc = ident.startswith("p")
        combatants.append({"id": ident, "side": "players" if pc else "monsters", "pc": pc,
                           "physical_rank": 4, "mental_rank": 4, "zone": "field",
                           "action_dice_modifier": len(faces) - 4})
    rolls = [{"combatant": ident, "role": "action", "faces": faces} for ident, faces in COUNTDOWN_DICE.items()]
    rolls.append({"role": "closing", "faces": [closing]})
    return {"state": {"ruleset": "smoting", "round": 0, "zones": [{"id": "field", "adjacent": []}],
                      "combatants": combatants},
            "declarations": [{"combatant": ident, "action": action} for ident in COUNTDOWN_DICE],
            "rolls": rolls}


def resolve(client, body, status=200):
    answer = client.post(BASE + "/rounds/resolve", json=body)
    assert answer.status_code == status, answer.get_json()
    return answer


def test_countdown_example_closing_die_three_closes_after_call_six(client):
    """*Actions*: the 6s act first; at call 6 player 3 spends his last die, closing is called, the GM rolls
    a 3, the highest die left, and the round closes with nobody else acting."""
    body = resolve(client, countdown_round(3)).get_json()
    assert body["action_dice"] == COUNTDOWN_DICE
    calls = [(entry["combatant"], entry["die"]) for entry in body["countdown"]]
    assert calls == [("p1", 6), ("p2", 6), ("p3", 6), ("p3", 5), ("p3", 4), ("p3", 3)]
    assert all(entry["action"] == "idle" for entry in body["countdown"])
    assert body["actions_taken"] == 6 and body["closing_called_after"] == 6
    assert body["closing_die"] == 3 and body["closed_by"] == "closing_die"
    assert body["round"] == 1 == body["state"]["round"]
    types = [event["type"] for event in body["events"]]
    assert "closing_called" in types and types[-1] == "round_closed"
    assert [event["seq"] for event in body["events"]] == list(range(1, len(types) + 1))


def test_countdown_a_low_closing_die_lets_the_twos_act(client):
    """The closing die has the lowest priority: on a 2 the holders of 2s still act before it."""
    body = resolve(client, countdown_round(2)).get_json()
    assert body["actions_taken"] > 6 and body["closed_by"] in {"closing_die", "no_candidates"}
    assert all(entry["die"] >= 2 for entry in body["countdown"])


def test_countdown_highest_die_then_most_dice_then_players(client):
    """*The Countdown*: highest single die, then the most dice, then players before NPCs."""
    body = countdown_round(1)
    body["rolls"][0]["faces"] = [5, 2, 2, 2, 1, 1]  # p1: a 5 and six dice
    body["rolls"][4]["faces"] = [5, 2, 2, 1]  # m1: a 5 and four dice, after p1
    first = [entry["combatant"] for entry in resolve(client, body).get_json()["countdown"]][:5]
    assert first == ["p2", "p3", "p1", "m1", "p3"]


def test_pass_discards_the_lowest_die_and_an_exact_tie_is_broken_in_state_order(client):
    body = countdown_round(3, action="pass")
    body["state"]["options"] = {"tie_break": "state_order"}
    answer = resolve(client, body).get_json()
    assert answer["seed"] is None  # every die supplied, no seeded tie-break needed
    assert [entry["die"] for entry in answer["countdown"]][:2] == [1, 1]  # p1 passes with its 1s first


def test_a_round_replays_byte_for_byte_and_a_seed_repeats(client):
    body = countdown_round(3)
    first = resolve(client, body)
    assert first.get_json()["seed"] is None
    assert resolve(client, body).data == first.data
    seeded = {"state": body["state"], "declarations": body["declarations"], "seed": 12345}
    one = resolve(client, seeded)
    assert one.data == resolve(client, seeded).data and one.get_json()["seed"] == 12345
    following = resolve(client, {**seeded, "state": one.get_json()["state"]}).get_json()
    assert following["round"] == 2


def test_a_duel_round_attacks_and_lists_its_dice(client):
    """A Georeg-like attacker (speed 4 sword) against a Ginat: the 6 attacks, the damage converts per §5."""
    state = {"ruleset": "smoting", "round": 0, "zones": [{"id": "field", "adjacent": []}],
             "combatants": [{"id": "georeg", "side": "heroes", "pc": True, "heroic": True, "physical_rank": 4,
                             "mental_rank": 4, "xposures": {"attack": 5}, "zone": "field",
                             "status": "in_contact", "engaged_with": ["ginat"]},
                            {"id": "ginat", "side": "giants", "physical_rank": 6, "mental_rank": 3,
                             "xposures": {"attack": 4}, "zone": "field", "status": "in_contact",
                             "engaged_with": ["georeg"]}]}
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 2, 2, 2]},
             {"combatant": "ginat", "role": "action", "faces": [3, 3, 2, 1]},
             {"combatant": "georeg", "role": "attack", "faces": [1, 3, 5, 5, 6, 4]},
             {"combatant": "georeg", "role": "damage", "faces": GEREG_DAMAGE},
             {"role": "closing", "faces": [6]}]
    body = resolve(client, {"state": state, "rolls": rolls, "seed": 5, "declarations": [
        {"combatant": "georeg", "action": "attack", "target": "ginat"},
        {"combatant": "ginat", "action": "pass"}]}).get_json()
    first = body["countdown"][0]
    assert (first["combatant"], first["die"], first["action"]) == ("georeg", 6, "attack")
    hit = next(event for event in body["events"] if event["type"] == "hit")
    assert hit["extra_successes"] == 2
    damage = next(event for event in body["events"] if event["type"] == "damage_rolled")
    assert (damage["target"], damage["dice"], damage["damage"]) == ("ginat", 8, 4)
    assert [event["combatant"] for event in body["events"] if event["type"] == "stunned"] == ["ginat"]
    assert not any(event["type"] == "rank_lost" for event in body["events"])
    ginat = next(c for c in body["state"]["combatants"] if c["id"] == "ginat")
    assert ginat.get("lost_physical", 0) == 0


def test_round_errors_name_their_fields(client):
    body = countdown_round(3)
    body["rolls"][0]["faces"] = [6, 2, 0]
    assert "rolls.0.faces.2" in problem_fields(client.post(BASE + "/rounds/resolve", json=body))
    body = countdown_round(3)
    body["declarations"][0]["target"] = "nobody"
    body["declarations"][0]["action"] = "attack"
    assert any(f.startswith("declarations.0") for f in problem_fields(
        client.post(BASE + "/rounds/resolve", json=body)))
    body = countdown_round(3)
    body["state"]["combatants"][0]["physical_rank"] = 12
    assert "state.combatants.0.physical_rank" in problem_fields(client.post(BASE + "/rounds/resolve", json=body))
    body = countdown_round(3)
    body["state"]["options"] = {"tie_break": "coin"}
    assert "state.options.tie_break" in problem_fields(client.post(BASE + "/rounds/resolve", json=body))


def duel_state(georeg: dict | None = None, ginat: dict | None = None) -> dict:
    return {"ruleset": "smoting", "round": 0, "zones": [{"id": "field", "adjacent": []}],
            "combatants": [{"id": "georeg", "side": "heroes", "pc": True, "physical_rank": 4, "mental_rank": 4,
                            "xposures": {"attack": 5}, "zone": "field", "status": "in_contact",
                            "engaged_with": ["ginat"], **(georeg or {})},
                           {"id": "ginat", "side": "giants", "physical_rank": 6, "mental_rank": 3,
                            "xposures": {"attack": 4}, "zone": "field", "status": "in_contact",
                            "engaged_with": ["georeg"], **(ginat or {})}]}


def duel(client, georeg_faces, ginat_faces, closing, georeg=None, ginat=None, extra_rolls=(), state=None):
    rolls = [{"combatant": "georeg", "role": "action", "faces": georeg_faces},
             {"combatant": "ginat", "role": "action", "faces": ginat_faces},
             {"role": "closing", "faces": [closing]}, *extra_rolls]
    return resolve(client, {"state": state or duel_state(georeg, ginat), "rolls": rolls, "seed": 3, "declarations": [
        {"combatant": "georeg", "action": "attack", "target": "ginat"},
        {"combatant": "ginat", "action": "pass"}]}).get_json()


def test_action_cost_a_one_adds_to_reach_the_weapon_speed(client):
    """*Action Costs*, *Initiative dice of 1*: a 4 and a 1 pay for a speed 5 weapon in one call."""
    body = duel(client, [4, 1, 2, 2], [3, 1, 1, 1], 6, georeg={"weapon": {"speed": 5}},
                extra_rolls=[{"combatant": "georeg", "role": "attack", "faces": [1, 1, 1, 1, 1]}])
    first = body["countdown"][0]
    assert (first["combatant"], first["die"], first["action"], first["plus_one"]) == ("georeg", 4, "attack", True)


def test_action_cost_dice_accumulate_in_the_discard_pool(client):
    """*Action Costs*: below the weapon speed, dice go to the discard pool until it reaches the speed."""
    body = duel(client, [4, 3, 2, 2], [2, 2, 2, 2], 1, georeg={"weapon": {"speed": 5}},
                extra_rolls=[{"combatant": "georeg", "role": "attack", "faces": [1, 1, 1, 1, 1]}])
    georeg = [(e["die"], e["action"], e["pool"]) for e in body["countdown"] if e["combatant"] == "georeg"]
    assert georeg[:2] == [(4, "accumulate", 4), (3, "attack", 0)]


def test_action_dice_below_one_roll_one_and_reroll_a_one_above_eight_keep_eight(client):
    """*Initiative & Actions*: minimum 1 die that cannot be a 1; at most 8 (the best kept)."""
    body = duel(client, [1, 4], [6, 6, 5, 5, 4, 4, 3, 3, 2], 1, georeg={"action_dice_modifier": -5},
                ginat={"action_dice_modifier": 5})
    assert body["action_dice"]["georeg"] == [4]
    assert sorted(body["action_dice"]["ginat"], reverse=True) == [6, 6, 5, 5, 4, 4, 3, 3]


def test_the_closing_die_loses_ties(client):
    """*The Countdown*: the closing dice comes last, so a die equal to it still acts."""
    body = duel(client, [6], [3, 3, 2], 3, georeg={"action_dice_modifier": -3},
                ginat={"action_dice_modifier": -1},
                extra_rolls=[{"combatant": "georeg", "role": "attack", "faces": [1, 1, 1, 1, 1]}])
    assert body["closing_called_after"] == 1 and body["closing_die"] == 3
    # ginat passes (lowest die first) while its highest die, a 3, ties the closing 3; then nobody holds a die
    assert [(e["combatant"], e["die"]) for e in body["countdown"]] == [
        ("georeg", 6), ("ginat", 2), ("ginat", 3), ("ginat", 3)]
    assert body["actions_taken"] == 4 and body["closed_by"] == "no_candidates"
    lower = duel(client, [6], [3, 3, 2], 4, georeg={"action_dice_modifier": -3},
                 ginat={"action_dice_modifier": -1},
                 extra_rolls=[{"combatant": "georeg", "role": "attack", "faces": [1, 1, 1, 1, 1]}])
    assert lower["actions_taken"] == 1 and lower["closed_by"] == "closing_die"


def test_surprise_closes_the_round_immediately(client):
    """*Surprise*: the surprised roll no dice and the closing die is rolled before the first call."""
    state = duel_state()
    state["surprise"] = ["giants"]
    body = resolve(client, {"state": state, "seed": 9, "declarations": [
        {"combatant": "georeg", "action": "idle"}],
        "rolls": [{"combatant": "georeg", "role": "action", "faces": [6, 5, 2, 1]},
                  {"role": "closing", "faces": [4]}]}).get_json()
    assert "ginat" not in body["action_dice"]
    assert body["closing_called_after"] == 0 and body["closing_die"] == 4
    assert [(e["combatant"], e["die"]) for e in body["countdown"]] == [("georeg", 6), ("georeg", 5)]
    assert body["closed_by"] == "closing_die"


def test_a_parry_roll_stays_as_a_live_pool_and_loses_a_success_per_use(client):
    """*Maintaining a Defence Pool*: 2 parry successes meet the first attack, 1 the second."""
    state = duel_state(georeg={"xposures": {"attack": 5, "parry": 3}})
    rolls = [{"combatant": "georeg", "role": "action", "faces": [3, 2, 2, 2]},
             {"combatant": "ginat", "role": "action", "faces": [6, 5, 1, 1]},
             {"role": "closing", "faces": [6]},
             {"combatant": "georeg", "role": "defence", "faces": [5, 5, 1]},
             {"combatant": "ginat", "role": "attack", "faces": [5, 5, 5, 1, 5, 5, 1, 1]},
             {"combatant": "ginat", "role": "damage", "faces": [1] * 8}]
    body = resolve(client, {"state": state, "rolls": rolls, "declarations": [
        {"combatant": "georeg", "action": "pass", "defence": "parry"},
        {"combatant": "ginat", "action": "attack", "target": "georeg"}]}).get_json()
    defences = [e for e in body["events"] if e["type"] == "defence_rolled"]
    assert len(defences) == 1 and defences[0]["successes"] == 2
    attacks = [(e["successes"], e["net"]) for e in body["events"] if e["type"] == "attack_rolled"]
    assert attacks == [(3, 1), (2, 1)]
    assert body["closing_called_after"] == 2  # ginat holds only 1s: "all used up"
    assert body["seed"] is None


@pytest.mark.parametrize("faces, flags", [([5, 5, 5, 1], (True, False, "killing_blow")),
                                          ([5, 5, 5, 5], (True, True, "massive")),
                                          ([5, 5, 1, 1], (False, False, "trauma"))])
def test_killing_blow_and_massive_flags(client, faces, flags):
    """*KILLING BLOW* (D > 2T: OoA), *MASSIVE* (D > 3T: KIA) against rank 1."""
    roll = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 1}, "rolls": {"damage": faces}})["roll"]
    assert (roll["out_of_action"], roll["killed"], roll["band"]) == flags
    assert roll["trauma"] is True


def test_without_the_stun_option_a_defeat_marks_a_rank(client):
    roll = post(client, "/damage", {"damage_dice": 4, "target": {"rank": 2}, "options": {"take_stun": False},
                                    "rolls": {"damage": [5, 1, 1, 1]}})["roll"]
    assert roll["rank_lost"] is True and roll["stunned"] is False


def test_supplied_faces_beyond_what_the_roll_uses_are_refused(client):
    """Contract: a list longer than its role could use (4 dice without a 6 use 4 faces) answers 422."""
    refused = client.post(BASE + "/damage", json={"damage_dice": 4, "target": {"rank": 1},
                                                  "rolls": {"damage": [5, 5, 5, 5, 1]}})
    assert problem_fields(refused) & {"rolls.damage", "rolls.damage.4"}


def georeg_hits_ginat(client, ginat: dict, damage_faces: list[int], more_rolls=()) -> dict:
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 2, 2, 2]},
             {"combatant": "ginat", "role": "action", "faces": [3, 1, 1, 1]},
             {"role": "closing", "faces": [6]},
             {"combatant": "georeg", "role": "attack", "faces": [5, 1, 1, 1, 1, 1, 1, 1, 1, 1]},
             {"combatant": "georeg", "role": "damage", "faces": damage_faces}, *more_rolls]
    return resolve(client, {"state": duel_state(ginat=ginat), "rolls": rolls, "seed": 5, "declarations": [
        {"combatant": "georeg", "action": "attack", "target": "ginat"},
        {"combatant": "ginat", "action": "pass"}]}).get_json()


def test_every_second_physical_loss_crosses_over_to_a_mental_rank(client):
    """*STUN* (already stunned: the defeat marks a rank), *CrossOver Damage* (the 2nd loss costs a mental rank)."""
    body = georeg_hits_ginat(client, {"lost_physical": 1, "crossover_physical": 1, "flags": {"stunned": True}},
                             [5, 1, 1, 1])
    types = [e["type"] for e in body["events"]]
    assert types.index("rank_lost") < types.index("crossover")
    ginat = body["state"]["combatants"][1]
    assert (ginat["lost_physical"], ginat["lost_mental"]) == (2, 1)


def test_a_hit_on_an_out_of_action_creature_rolls_body_or_kia(client):
    """*OoA and KIA*: a BODY roll (4 + level dice) with no success kills, whatever the damage."""
    body = georeg_hits_ginat(client, {"lost_physical": 6, "flags": {"ooa": True}}, [6, 6, 6, 6, 6],
                             [{"combatant": "ginat", "role": "body", "faces": [1, 2, 3, 4]}])
    assert "ginat" not in body["action_dice"]  # the OoA roll no action dice
    assert [e["type"] for e in body["events"]].count("killed") == 1
    assert not any(e["type"] == "damage_rolled" and e["target"] == "ginat" for e in body["events"])
    assert body["state"]["combatants"][1]["flags"]["kia"] is True
    survives = georeg_hits_ginat(client, {"lost_physical": 6, "flags": {"ooa": True}}, [6, 6, 6, 6, 6],
                                 [{"combatant": "ginat", "role": "body", "faces": [1, 2, 3, 5]}])
    assert survives["state"]["combatants"][1]["flags"]["kia"] is False


def test_the_last_real_rank_lost_puts_a_normal_creature_out_of_action(client):
    body = georeg_hits_ginat(client, {"lost_physical": 5, "flags": {"stunned": True}}, [5, 1, 1, 1])
    assert "out_of_action" in [e["type"] for e in body["events"]]
    ginat = body["state"]["combatants"][1]
    assert ginat["lost_physical"] == 6 and ginat["flags"]["ooa"] is True


# the seed's *Injury Table* effect descriptions: (extra physical ranks, mental ranks, dice burned)
SEED_EFFECTS = {"flesh_wound": (1, 0, 0), "broken": (1, 0, 0), "sever": (2, 0, 2), "puncture": (1, 0, 1),
                "sight": (0, 1, 0), "sound": (0, 1, 0), "balance": (0, 1, 2), "wind": (0, 1, 2), "kill": (0, 2, 0),
                "maim": (0, 1, 1), "hand": (0, 0, 1), "foot": (0, 0, 1), "stun": (0, 0, 1), "unconscious": (0, 0, 1),
                "fracture": (0, 0, 0), "bleeder": (0, 0, 0), "paralysis": (0, 0, 0)}


def test_injury_effects_table_follows_the_seeds_descriptions(client):
    data = table(client, "injury-effects")
    for name, (physical, mental, burn) in SEED_EFFECTS.items():
        effect = data["effects"][name]
        assert (effect["physical"], effect["mental"], effect["burn"]) == (physical, mental, burn), name
    assert data["effects"]["kill"]["save"] == {"attribute": "bod", "dice": -2}  # Body roll at -2d or OoA
    assert data["effects"]["paralysis"]["save"]["attribute"] == "bod"
    assert data["effects"]["unconscious"]["save"]["attribute"] == "will"
    locations = table(client, "injury-locations")
    assert locations["faces"]["4"] == "right_arm" and locations["faces"]["5"] == "chest"  # the 4,4,4,6 example
    assert set(locations["optional"]) == {"neck", "groin"}


def test_groups_table_matches_the_seed(client):
    """*Mobs, Crowds and Hordes*."""
    rows = {row["group"]: (row["physical"], row["mental"], row["dice"], row["attacks"]) for row in
            table(client, "groups")}
    assert rows["mob"] == (1, 0, 1, 2) and rows["crowd"] == (1, 1, 2, 3) and rows["horde"] == (2, 1, 3, 4)
    assert rows["company"] == (3, 2, 4, 4) and rows["unit"] == (4, 2, 4, 6)


def test_held_action_jumps_in_after_an_enemy_action_and_carries_over(client):
    """*Held Actions*: the best die set aside, used right after an enemy's action; unused at the close, kept."""
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 3, 2, 2]},
             {"combatant": "ginat", "role": "action", "faces": [5, 4, 2, 1]},
             {"role": "closing", "faces": [2]}]
    body = resolve(client, {"state": duel_state(), "rolls": rolls, "declarations": [
        {"combatant": "georeg", "action": "hold"}, {"combatant": "ginat", "action": "idle"}]}).get_json()
    calls = [(e["combatant"], e["die"], e["action"]) for e in body["countdown"]]
    assert calls[:3] == [("georeg", 6, "hold"), ("ginat", 5, "idle"), ("georeg", 6, "held_action")]
    assert body["state"]["combatants"][0]["held_die"] == calls[-1][1] == 2, calls
    following = resolve(client, {"state": body["state"], "declarations": [
        {"combatant": "georeg", "action": "hold"}, {"combatant": "ginat", "action": "idle"}],
        "rolls": [{"combatant": "georeg", "role": "action", "faces": [2, 2, 2, 2]},
                  {"combatant": "ginat", "role": "action", "faces": [5, 4, 2, 1]},
                  {"role": "closing", "faces": [6]}]}).get_json()
    assert next(e for e in following["events"] if e["type"] == "action_dice_rolled")["held"] == 2
    assert [(e["combatant"], e["action"]) for e in following["countdown"]][:2] == [
        ("ginat", "idle"), ("georeg", "held_action")]


def georeg_is_hit_for_three(client, georeg_faces):
    state = duel_state(georeg={"heroic": True, "attributes": {"str": 1, "agl": 2, "bod": 0}})
    rolls = [{"combatant": "georeg", "role": "action", "faces": georeg_faces},
             {"combatant": "ginat", "role": "action", "faces": [6, 1, 1, 1]},
             {"role": "closing", "faces": [6]},
             {"combatant": "ginat", "role": "attack", "faces": [5, 1, 1, 1]},
             {"combatant": "ginat", "role": "damage", "faces": [5, 5, 5, 1]},
             {"combatant": "georeg", "role": "soak", "faces": [5, 1, 1]}]
    return resolve(client, {"state": state, "rolls": rolls, "declarations": [
        {"combatant": "georeg", "action": "pass"},
        {"combatant": "ginat", "action": "attack", "target": "georeg"}]}).get_json()


def test_georeg_soaks_three_damage_with_three_dice(client):
    """*Soak Rolls*: Georeg suffers 3 damage, pays with a die and rolls STR 1 + AGL 2 + BOD 0 = 3 dice."""
    body = georeg_is_hit_for_three(client, [3, 2, 2, 1])
    soaked = [e for e in body["events"] if e["type"] == "soaked"]
    assert len(soaked) == 1 and soaked[0]["dice"] == 3 and soaked[0]["soaked"] == 1
    assert body["seed"] is None
    # without a 1 to pay with, the default AI keeps its dice when the damage is within the rank (§8)
    keeps = georeg_is_hit_for_three(client, [3, 2, 2, 2])
    assert not any(e["type"] == "soaked" for e in keeps["events"])


@cache
def die_count_min(k: int, success_min: int) -> Fraction:
    """One exploding die where faces success_min..6 succeed and a 6 rolls again."""
    if k < 0:
        return Fraction(0)
    if k == 0:
        return Fraction(success_min - 1, 6)
    return Fraction(6 - success_min, 6) * (k == 1) + SIXTH * die_count_min(k - 1, success_min)


@pytest.mark.parametrize("success_min", [2, 4, 6])
def test_success_min_option_with_re_rolls(client, success_min):
    """Option `success_min` (§10): the distribution and the mean pool x (7 - success_min)/5."""
    body = post(client, "/check", {"dice": 2, "options": {"success_min": success_min}})
    for k in range(5):
        expected = sum((die_count_min(j, success_min) * die_count_min(k - j, success_min) for j in range(k + 1)),
                       Fraction(0))
        assert frac(body["success_probabilities_exact"][str(k)]) == expected
    assert frac(body["expected_successes_exact"]) == Fraction(2 * (7 - success_min), 5)


def test_pool_faces_order_and_count(client):
    """§2 order of faces: the pool dice, then one face per 6 shown; a face more is refused, a face less drawn."""
    refused = client.post(BASE + "/check", json={"dice": 5, "rolls": {"pool": [1, 3, 5, 5, 6, 4, 2]}})
    assert problem_fields(refused) & {"rolls.pool", "rolls.pool.6"}
    completed = post(client, "/check", {"dice": 5, "seed": 1, "rolls": {"pool": [1, 3, 5, 5, 6]}})
    faces = completed["roll"]["faces"]
    assert faces[:5] == [1, 3, 5, 5, 6] and len(faces) >= 6 and completed["dice"][0]["supplied"] is False
    chained = post(client, "/check", {"dice": 2, "rolls": {"pool": [6, 6, 6, 1, 2]}})
    assert chained["roll"]["successes"] == 3  # breadth first: 6, 6 | 6, 1 | 2


@pytest.mark.parametrize("faces, result, zone, status", [([5, 5, 1, 1], "arrive", "wood", "alone"),
                                                          ([5, 1, 1, 1], "boundary", "field", "boundary"),
                                                          ([1, 1, 1, 1], "stay", "field", "alone")])
def test_zone_move_in_a_round(client, faces, result, zone, status):
    """*Move rolls*: a zone move is always rolled: 2 successes arrive, 1 the boundary line, 0 stay."""
    state = duel_state(georeg={"status": "alone", "engaged_with": []}, ginat={"status": "alone", "engaged_with": []})
    state["zones"] = [{"id": "field", "adjacent": ["wood"]}, {"id": "wood", "adjacent": ["field"]}]
    rolls = [{"combatant": "georeg", "role": "action", "faces": [6, 1, 1, 1]},
             {"combatant": "ginat", "role": "action", "faces": [2, 2, 2, 2]},
             {"role": "closing", "faces": [6]},
             {"combatant": "georeg", "role": "move", "faces": faces}]
    body = resolve(client, {"state": state, "rolls": rolls, "declarations": [
        {"combatant": "georeg", "action": "move", "move": {"kind": "zone", "to": "wood"}},
        {"combatant": "ginat", "action": "idle"}]}).get_json()
    moved = [e for e in body["events"] if e["type"] == "moved"]
    assert [(e["result"], e["successes"]) for e in moved] == [(result, faces.count(5))]
    georeg = body["state"]["combatants"][0]
    assert (georeg["zone"], georeg["status"]) == (zone, status)
