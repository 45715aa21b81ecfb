"""Acceptance tests of `ars-magica` through the public HTTP API only: the contract of the rules document §12
and the seed's own examples and tables (002_477d4803bb5147c1.txt), with the exact numbers they state.

Probabilities are checked against an independent exact computation of the stress die written from the
document's §2 recursion (not the service's code)."""
from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from math import ceil

import pytest

from tests.acceptance.contract import assert_exact_pairs, exact_fraction, poster

BASE = "/v1/ars-magica"
EXPRESSION = re.compile(r"^[+-]?(\d+d\d+|\d+)([+-](\d+d\d+|\d+))*$")


# --- an independent exact model of the stress die (document §2) -------------------------------------------


@cache
def tail_t(x: int) -> Fraction:
    """P(T >= x), T the value after a first 1: faces 2..9 and 0 (as 10), a further 1 doubles."""
    if x <= 2:
        return Fraction(1)
    return Fraction(sum(1 for v in range(2, 11) if v >= x), 10) + tail_t(-(-x // 2)) / 10


def tail_s(x: int, botch_dice: int = 1) -> Fraction:
    """P(stress die >= x, unbotched), a botched roll excluded."""
    if x <= 0:  # every face but a botched 0
        return 1 - Fraction(1, 10) * (1 - Fraction(9, 10) ** botch_dice)
    return Fraction(sum(1 for v in range(2, 10) if v >= x), 10) + tail_t(-(-x // 2)) / 10


def missile_chance(attack: int, ef: int, botch_dice: int = 1) -> Fraction:
    """P(attack + stress >= EF), a botch missing."""
    need = ef - attack
    if need <= 0:
        return 1 - Fraction(1, 10) * (1 - Fraction(9, 10) ** botch_dice)
    return tail_s(need, botch_dice)


TENTH = Fraction(1, 10)
CHAIN = range(2, 11)  # what a re-roll after a 1 counts (0 reads 10)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@cache
def pair_chain(k: int) -> Fraction:
    """P(T1 - T2 > k) for two independent chains (§2: E(K) = c(K) + E(floor(K/2))/100)."""
    c = sum(Fraction(1, 100) for v1 in CHAIN for v2 in CHAIN if v1 - v2 > k)
    c += sum(Fraction(1, 100) * tail_t((k + v2) // 2 + 1) for v2 in CHAIN)  # 2*T1 > k + v2
    c += sum(Fraction(1, 100) * (1 - tail_t(ceil_div(v1 - k, 2))) for v1 in CHAIN)  # v1 - 2*T2 > k
    if k // 2 == k:
        return c * 100 / 99
    return c + pair_chain(k // 2) / 100


def beat(attack: int, defence: int | None, margin: int, botch_attack: int = 1, botch_defence: int = 1) -> Fraction:
    """P(attack roll - defence roll > margin); a botched attack fails, a botched defence reads 0 (§2).
    `defence` None: the defender has no die (a bare total is given as `margin` offset by the caller)."""
    clean_a = TENTH * Fraction(9, 10) ** botch_attack
    clean_d = TENTH * Fraction(9, 10) ** botch_defence
    a_points = [(attack + f, TENTH) for f in range(2, 10)] + [(attack, clean_a)]
    d_points = [(defence + f, TENTH) for f in range(2, 10)] + [(defence, clean_d), (0, TENTH - clean_d)]
    total = Fraction(0)
    for x, px in a_points:
        for y, py in d_points:
            total += px * py * (x - y > margin)
        total += px * TENTH * (1 - tail_t(ceil_div(x - defence - margin, 2)))  # x - (D + 2T) > m
    for y, py in d_points:
        total += TENTH * py * tail_t((y + margin - attack) // 2 + 1)  # A + 2T - y > m
    total += Fraction(1, 100) * pair_chain((defence + margin - attack) // 2)
    return total


frac = exact_fraction
post = poster(BASE)


def assert_dice(body: dict) -> None:
    for die in body["dice"]:
        assert set(die) == {"role", "expression", "dice", "total", "supplied"}
        assert EXPRESSION.match(die["expression"]), die["expression"]
        assert all(0 <= face <= 9 for face in die["dice"])


# --- POST /v1/ars-magica/to-hit ------------------------------------------------------------------------------


def test_to_hit_melee_response_shape_and_exact_fractions(client):
    body = post(client, "/to-hit", {"attack": 10, "defence": 8})
    for key in ("mode", "attack_total", "defence_total", "ease_factor", "chance", "chance_exact", "probabilities",
                "probabilities_exact", "botch_probabilities", "botch_probabilities_exact", "roll", "dice", "seed",
                "assumptions", "trace"):
        assert key in body, key
    assert body["mode"] == "melee" and body["ease_factor"] is None and body["roll"] is None
    assert set(body["probabilities"]) == {"miss", "hit", "exceptional"}
    assert set(body["botch_probabilities"]) == {"attack", "defence"}
    assert_exact_pairs(body)
    assert sum(frac(v) for v in body["probabilities_exact"].values()) == 1
    assert frac(body["chance_exact"]) == frac(body["probabilities_exact"]["hit"]) + frac(
        body["probabilities_exact"]["exceptional"])
    assert body["botch_probabilities_exact"] == {"attack": "1/100", "defence": "1/100"}
    for step in body["trace"]:
        assert set(step) >= {"rule", "detail", "value"}


def test_to_hit_against_a_defence_total_is_a_single_stress_die(client):
    # defence_mode total: hit iff attack + S > defence, i.e. S >= defence - attack + 1
    for attack, defence in ((10, 8), (5, 12), (0, 20), (3, 3)):
        body = post(client, "/to-hit", {"attack": attack, "defence": defence, "defence_mode": "total"})
        assert frac(body["chance_exact"]) == tail_s(defence - attack + 1)
        assert body["botch_probabilities_exact"]["defence"] == "0/1"
        exceptional = tail_s(defence - attack + 15)
        assert frac(body["probabilities_exact"]["exceptional"]) == exceptional


@pytest.mark.parametrize(("attack", "defence", "botches"), [
    (10, 8, (1, 1)), (5, 12, (1, 1)), (0, 0, (1, 1)), (12, 3, (2, 0)), (3, 25, (1, 3)), (20, 20, (0, 0))])
def test_to_hit_melee_roll_against_roll_exactly(client, attack, defence, botches):
    body = post(client, "/to-hit", {"attack": attack, "defence": defence,
                                    "botch_dice": {"attack": botches[0], "defence": botches[1]}})
    assert frac(body["chance_exact"]) == beat(attack, defence, 0, *botches)
    assert frac(body["probabilities_exact"]["exceptional"]) == beat(attack, defence, 14, *botches)
    tie = post(client, "/to-hit", {"attack": attack, "defence": defence, "options": {"attack_tie": "attacker"},
                                   "botch_dice": {"attack": botches[0], "defence": botches[1]}})
    assert frac(tie["chance_exact"]) == beat(attack, defence, -1, *botches)


def test_to_hit_surprised_has_no_defence_total(client):
    body = post(client, "/to-hit", {"attack": 7, "defence": 9, "defence_mode": "surprised", "seed": 3})
    assert body["defence_total"] is None
    body = post(client, "/to-hit", {"attack": 7, "defence": 9, "defence_mode": "surprised",
                                    "rolls": {"attack": [5], "defence": [6]}})
    assert body["roll"]["defence_roll"] == 6 and body["roll"]["attack_roll"] == 12 and body["roll"]["margin"] == 6


def test_to_hit_stress_die_one_doubles(client):
    # §12: [1, 1, 4] is 16
    body = post(client, "/to-hit", {"attack": 10, "defence": 8, "defence_mode": "total",
                                    "rolls": {"attack": [1, 1, 4]}})
    assert body["roll"]["attack_roll"] == 26 and body["roll"]["defence_roll"] == 8
    assert body["roll"]["margin"] == 18 and body["roll"]["outcome"] == "exceptional"
    attack_die = [d for d in body["dice"] if d["role"] == "attack"][0]
    assert attack_die == {"role": "attack", "expression": attack_die["expression"], "dice": [1, 1, 4], "total": 16,
                          "supplied": True}
    assert_dice(body)
    # a 0 on a re-roll counts 10 and does not botch: [1, 0] is 20
    body = post(client, "/to-hit", {"attack": 0, "defence": 0, "defence_mode": "total", "rolls": {"attack": [1, 0]}})
    assert body["roll"]["attack_roll"] == 20 and body["roll"]["attack_botches"] == 0


def test_to_hit_exceptional_blow_at_fifteen_over_defence(client):
    base = {"attack": 10, "defence": 0, "defence_mode": "total"}
    assert post(client, "/to-hit", dict(base, rolls={"attack": [5]}))["roll"]["outcome"] == "exceptional"
    assert post(client, "/to-hit", dict(base, rolls={"attack": [4]}))["roll"]["outcome"] == "hit"
    changed = dict(base, rolls={"attack": [5]}, options={"exceptional_margin": 16})
    assert post(client, "/to-hit", changed)["roll"]["outcome"] == "hit"


def test_to_hit_ties_go_to_the_defender_by_default(client):
    base = {"attack": 10, "defence": 12, "rolls": {"attack": [6], "defence": [4]}}
    roll = post(client, "/to-hit", base)["roll"]
    assert roll["attack_roll"] == roll["defence_roll"] == 16 and roll["outcome"] == "miss"
    assert post(client, "/to-hit", dict(base, options={"attack_tie": "attacker"}))["roll"]["outcome"] == "hit"


def test_to_hit_botched_rolls_count_zero(client):
    body = post(client, "/to-hit", {"attack": 10, "defence": 8, "rolls": {"attack": [1, 1, 4], "defence": [0],
                                                                           "defence_botch": [0]}})
    assert body["roll"]["defence_roll"] == 0 and body["roll"]["defence_botches"] == 1
    body = post(client, "/to-hit", {"attack": 30, "defence": 0, "rolls": {"attack": [0], "attack_botch": [0],
                                                                           "defence": [2]}})
    assert body["roll"]["attack_roll"] == 0 and body["roll"]["outcome"] == "miss"
    # a 0 without a botch counts 0
    body = post(client, "/to-hit", {"attack": 30, "defence": 0, "rolls": {"attack": [0], "attack_botch": [5],
                                                                           "defence": [2]}})
    assert body["roll"]["attack_roll"] == 30 and body["roll"]["attack_botches"] == 0


@pytest.mark.parametrize(("botch_dice", "exact"), [(0, "0/1"), (1, "1/100"), (2, "19/1000"), (3, "271/10000")])
def test_botch_odds_follow_the_botch_dice(client, botch_dice, exact):
    body = post(client, "/to-hit", {"attack": 5, "defence": 5, "botch_dice": {"attack": botch_dice, "defence": 1}})
    assert body["botch_probabilities_exact"] == {"attack": exact, "defence": "1/100"}
    body = post(client, "/to-hit", {"attack": 5, "defence": 5, "options": {"botch_dice": botch_dice}})
    assert body["botch_probabilities_exact"] == {"attack": exact, "defence": exact}


@pytest.mark.parametrize(("modifiers", "attack_total"), [
    ({"high_ground": True}, 13), ({"side": True}, 11), ({"behind": True}, 13), ({"mounted_vs_foot": True}, 13),
    ({"all_out": True}, 13), ({"darkness": 2}, 8), ({"high_ground": True, "side": True, "darkness": 3}, 11)])
def test_attack_modifiers_other_modifiers_table(client, modifiers, attack_total):
    body = post(client, "/to-hit", {"attack": 10, "defence": 5, "attack_modifiers": modifiers})
    assert body["attack_total"] == attack_total


@pytest.mark.parametrize(("modifiers", "defence_total"), [
    ({"high_ground": True}, 8), ({"mounted_vs_foot": True}, 8), ({"desperate": True}, 11), ({"hold_ground": True}, 3),
    ({"desperate": True, "hold_ground": True}, 9)])
def test_defence_modifiers(client, modifiers, defence_total):
    body = post(client, "/to-hit", {"attack": 10, "defence": 5, "defence_modifiers": modifiers})
    assert body["defence_total"] == defence_total


@pytest.mark.parametrize(("missile", "ease_factor"), [
    ({"distance_yd": 0}, 3), ({"distance_yd": 15}, 3), ({"distance_yd": 15.5}, 6), ({"distance_yd": 50}, 6),
    ({"distance_yd": 51}, 12), ({"distance_yd": 200}, 12), ({"distance_yd": 201}, 18),
    ({"distance_yd": 10, "spell": True}, 6), ({"distance_yd": 30, "spell": True}, 9),
    ({"distance_yd": 100, "spell": True}, 12), ({"distance_yd": 300, "spell": True}, 18),
    ({"distance_yd": 30, "obscured": True}, 9), ({"distance_yd": 30, "target_movement": "walking"}, 6),
    ({"distance_yd": 30, "target_movement": "hustling"}, 9),
    ({"distance_yd": 30, "target_movement": "sprinting", "target_qik": 2}, 14),
    ({"distance_yd": 30, "target_size": 1}, 5), ({"distance_yd": 30, "target_size": -2}, 8),
    ({"distance_yd": 30, "target_dodge": 4}, 10), ({"distance_yd": 30, "shield_defence": 3}, 9),
    ({"distance_yd": 30, "into_melee": True}, 9)])
def test_missile_fire_table_ease_factors(client, missile, ease_factor):
    body = post(client, "/to-hit", {"attack": 4, "missile": missile})
    assert body["mode"] == "missile" and body["ease_factor"] == ease_factor and body["defence_total"] is None
    assert set(body["probabilities"]) == {"miss", "friend", "hit", "exceptional"}
    assert frac(body["chance_exact"]) == missile_chance(4, ease_factor)
    assert body["botch_probabilities_exact"]["defence"] == "0/1"
    assert_exact_pairs(body)


def test_missile_exceptional_hit_at_ten_over_the_ease_factor(client):
    body = post(client, "/to-hit", {"attack": 10, "missile": {"distance_yd": 30}})  # EF 6
    assert frac(body["probabilities_exact"]["exceptional"]) == tail_s(6)
    assert body["probabilities_exact"]["exceptional"] == "49/100"
    roll = post(client, "/to-hit", {"attack": 10, "missile": {"distance_yd": 30}, "rolls": {"attack": [6]}})["roll"]
    assert roll["outcome"] == "exceptional" and roll["margin"] == 10 and roll["defence_roll"] is None
    roll = post(client, "/to-hit", {"attack": 10, "missile": {"distance_yd": 30}, "rolls": {"attack": [5]}})["roll"]
    assert roll["outcome"] == "hit" and roll["margin"] == 9


def test_missile_into_melee_hits_a_friend_when_only_the_three_makes_it_miss(client):
    shot = {"attack": 0, "missile": {"distance_yd": 30, "into_melee": True}}  # EF 9; friend iff 6 <= roll < 9
    for face, outcome in ((5, "miss"), (6, "friend"), (8, "friend"), (9, "hit")):
        assert post(client, "/to-hit", dict(shot, rolls={"attack": [face]}))["roll"]["outcome"] == outcome
    body = post(client, "/to-hit", shot)
    assert frac(body["probabilities_exact"]["friend"]) == tail_s(6) - tail_s(9)
    assert frac(body["chance_exact"]) == tail_s(9)


def test_to_hit_errors_name_their_fields(client):
    body = post(client, "/to-hit", {"attack": 10, "defence": 5, "missile": {"distance_yd": 3}}, 422)
    assert body["errors"] and all("field" in e for e in body["errors"])
    body = post(client, "/to-hit", {"attack": 10.5, "defence": True, "missile_x": 1,
                                    "attack_modifiers": {"darkness": 4}, "rolls": {"attack": [10]}}, 422)
    fields = {e["field"] for e in body["errors"]}
    assert {"attack", "defence", "attack_modifiers.darkness"} <= fields
    assert any(f.startswith("rolls.attack") for f in fields)
    answer = client.post(BASE + "/to-hit", json={"attack": 1})
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"


def test_seed_is_echoed_and_repeatable(client):
    one = post(client, "/to-hit", {"attack": 10, "defence": 8, "seed": 12345})
    two = post(client, "/to-hit", {"attack": 10, "defence": 8, "seed": 12345})
    assert one == two and one["seed"] == 12345 and one["roll"] is not None and one["dice"]
    assert_dice(one)
    # rolls only, some dice still needed: a random seed is echoed
    three = post(client, "/to-hit", {"attack": 10, "defence": 8, "rolls": {"attack": [4]}})
    assert isinstance(three["seed"], int)


# --- POST /v1/ars-magica/damage -----------------------------------------------------------------------------


@pytest.mark.parametrize(("damage_face", "soak_face", "levels"), [
    (4, 9, 0), (4, 4, 0), (5, 4, 1), (9, 4, 1), (9, 3, 2), ([1, 0], 9, 3), ([1, 1, 0], 2, 8)])
def test_damage_levels_every_five_or_fraction(client, damage_face, soak_face, levels):
    faces = damage_face if isinstance(damage_face, list) else [damage_face]
    body = post(client, "/damage", {"damage": 10, "soak": 10, "rolls": {"damage": faces, "soak": [soak_face]}})
    roll = body["roll"]
    assert roll["margin"] == roll["damage_roll"] - roll["soak_roll"]
    assert roll["levels"] == levels == max(0, ceil(roll["margin"] / 5))
    assert roll["body_levels"] == levels and roll["fatigue_levels"] == 0
    assert roll["severity"] is None and roll["effect"] is None


def test_damage_response_shape_and_level_distribution(client):
    body = post(client, "/damage", {"damage": 12, "soak": 10})
    assert set(body["probabilities"]) == {"0", "1", "2", "3", "4", "5", "6+"}
    assert sum(frac(v) for v in body["probabilities_exact"].values()) == 1
    assert frac(body["chance_exact"]) == 1 - frac(body["probabilities_exact"]["0"])
    assert body["severity_probabilities"] is None and body["severity_probabilities_exact"] is None
    assert body["damage_total"] == 12 and body["soak_total"] == 10
    assert_exact_pairs(body)


def test_damage_totals_mounted_charge_and_from_behind(client):
    assert post(client, "/damage", {"damage": 10, "soak": 5, "mounted_charge": True})["damage_total"] == 16
    assert post(client, "/damage", {"damage": 10, "soak": 5, "from_behind": True})["damage_total"] == 13
    assert post(client, "/damage", {"damage": 10, "soak": 5, "from_behind": True,
                                    "mounted_charge": True})["damage_total"] == 19


def test_all_out_attack_doubles_the_margin(client):
    body = post(client, "/damage", {"damage": 10, "soak": 10, "all_out": True, "rolls": {"damage": [6],
                                                                                         "soak": [3]}})
    assert body["roll"]["margin"] == 3 and body["roll"]["levels"] == 2  # ceil(6/5)
    body = post(client, "/damage", {"damage": 10, "soak": 10, "all_out": True, "options": {"all_out_doubles": "levels"},
                                    "rolls": {"damage": [6], "soak": [3]}})
    assert body["roll"]["levels"] == 2  # 1 level doubled
    body = post(client, "/damage", {"damage": 10, "soak": 10, "all_out": True, "rolls": {"damage": [9], "soak": [3]}})
    assert body["roll"]["margin"] == 6 and body["roll"]["levels"] == 3  # ceil(12/5)


@pytest.mark.parametrize(("damage_face", "fatigue", "body_levels"), [(4, 1, 0), (8, 1, 0), (9, 1, 1)])
def test_brawling_alternates_fatigue_and_body(client, damage_face, fatigue, body_levels):
    # seed *Brawling*: exceeding soak by 1-5 costs one fatigue level; by 6-10 one fatigue and one body level
    body = post(client, "/damage", {"damage": 10, "soak": 11, "brawling": True,
                                    "rolls": {"damage": [damage_face], "soak": [2]}})
    roll = body["roll"]
    assert roll["fatigue_levels"] == fatigue and roll["body_levels"] == body_levels
    assert roll["levels"] == fatigue + body_levels


def test_brawling_margin_eleven_to_fifteen(client):
    roll = post(client, "/damage", {"damage": 10, "soak": 0, "brawling": True,
                                    "rolls": {"damage": [3], "soak": [2]}})["roll"]
    assert roll["margin"] == 11 and roll["levels"] == 3 and roll["fatigue_levels"] == 2 and roll["body_levels"] == 1


@pytest.mark.parametrize(("location", "damage", "severity", "effect"), [
    ("leg", 8, "minor", "movement_half"),          # seed: one level to a leg, movement 50%
    ("head", 13, "major", "unconscious_15_min"),    # two levels to the head, unconscious 15 minutes
    ("arm", 18, "grave", "arm_maimed_penalty_5")])  # three to an arm, cut off or maimed
def test_exceptional_blow_table_examples(client, location, damage, severity, effect):
    body = post(client, "/damage", {"damage": damage, "soak": 14, "protection": 4, "exceptional": True,
                                    "location": location, "rolls": {"damage": [5], "soak": [2]}})
    assert body["soak_total"] == 10
    roll = body["roll"]
    assert roll["soak_roll"] == 12 and roll["margin"] == damage - 7
    assert roll["severity"] == severity and roll["effect"] == effect
    assert set(body["severity_probabilities"]) == {"none", "minor", "major", "grave"}
    assert sum(frac(v) for v in body["severity_probabilities_exact"].values()) == 1
    assert_exact_pairs(body)


def test_exceptional_needs_a_location(client):
    body = post(client, "/damage", {"damage": 10, "soak": 5, "exceptional": True}, 422)
    assert "location" in {e["field"] for e in body["errors"]}


def test_botched_damage_does_nothing(client):
    roll = post(client, "/damage", {"damage": 30, "soak": 0, "rolls": {"damage": [0], "damage_botch": [0],
                                                                       "soak": [2]}})["roll"]
    assert roll["damage_roll"] == 0 and roll["damage_botches"] == 1 and roll["levels"] == 0


# --- POST /v1/ars-magica/check --------------------------------------------------------------------------------


def test_ease_factor_check(client):
    body = post(client, "/check", {"total": 5, "ease_factor": 6})
    assert body["total"] == 5 and body["ease_factor"] == 6 and body["botch_dice"] == 1
    assert body["probabilities_exact"] == {"success": "9/10", "failure": "9/100", "botch": "1/100"}
    assert body["chance_exact"] == "9/10"
    roll = post(client, "/check", {"total": 5, "ease_factor": 6, "rolls": {"roll": [1, 0]}})["roll"]
    assert roll == {"roll": 25, "botches": 0, "outcome": "success"}
    roll = post(client, "/check", {"total": 5, "ease_factor": 6, "rolls": {"roll": [0], "botch": [0]}})["roll"]
    assert roll["botches"] == 1 and roll["outcome"] == "botch"


def test_fatigue_roll_document_example(client):
    # §5: Stm +2, Enc 1 and a Medium wound (-3) give 2 - 1 - 3 against EF 6
    body = post(client, "/check", {"kind": "fatigue", "stamina": 2, "encumbrance": 1, "wound_level": "medium"})
    assert body["total"] == -2 and body["ease_factor"] == 6
    assert frac(body["chance_exact"]) == tail_s(8) == Fraction(7, 25)
    same = post(client, "/check", {"kind": "fatigue", "stamina": 2, "encumbrance": 1, "wound_penalty": -3})
    assert same["total"] == -2
    hot = post(client, "/check", {"kind": "fatigue", "stamina": 2, "encumbrance": 1, "wound_level": "medium",
                                  "fatigue_level": "tired", "heat": 2})
    assert hot["total"] == -7


@pytest.mark.parametrize(("voice", "gesture", "modifier"), [
    ("booming", "vigorous", 2), ("firm", "bold", 0), ("soft", "subtle", -7), ("none", "none", -15)])
def test_formulaic_words_and_gestures(client, voice, gesture, modifier):
    body = post(client, "/check", {"kind": "formulaic", "level": 20, "technique": 8, "form": 7, "stamina": 2,
                                   "encumbrance": 1, "voice": voice, "gesture": gesture})
    assert body["total"] == 16 + modifier and body["ease_factor"] == 20
    assert set(body["probabilities"]) == {"success", "success_fatigue", "failure", "botch"}


def test_formulaic_casting_outcomes_and_botch_dice(client):
    base = {"kind": "formulaic", "level": 15, "technique": 5, "form": 5}  # total 10
    assert post(client, "/check", dict(base, rolls={"roll": [5]}))["roll"]["outcome"] == "success"
    assert post(client, "/check", dict(base, rolls={"roll": [4]}))["roll"]["outcome"] == "success_fatigue"
    assert post(client, "/check", dict(base, rolls={"roll": [0], "botch": [3]}))["roll"]["outcome"] \
        == "success_fatigue"
    low = dict(base, level=25)
    assert post(client, "/check", dict(low, rolls={"roll": [4]}))["roll"]["outcome"] == "failure"
    assert post(client, "/check", dict(low, rolls={"roll": [5]}))["roll"]["outcome"] == "success_fatigue"
    # vis: +5 per pawn and one botch die more; extra care: Concentration added and one botch die fewer
    vis = post(client, "/check", dict(base, vis_pawns=2))
    assert vis["total"] == 20 and vis["botch_dice"] == 3
    careful = post(client, "/check", dict(base, careful=True, concentration=4))
    assert careful["total"] == 14 and careful["botch_dice"] == 0
    assert careful["probabilities_exact"]["botch"] == "0/1"
    chance = post(client, "/check", base)
    assert frac(chance["probabilities_exact"]["success"]) == tail_s(5)
    assert frac(chance["chance_exact"]) == tail_s(0) - Fraction(0)


# --- POST /v1/ars-magica/combatant ------------------------------------------------------------------------------


def test_combatant_totals_melee_totals_table(client):
    body = post(client, "/combatant", {
        "characteristics": {"dex": 2, "qik": 1, "str": 3, "stm": 2}, "size": 1,
        "abilities": {"weapon": 5, "dodge": 3}, "encumbrance": 2,
        "weapon": {"init": 2, "attack": 4, "defence": 2, "damage": 6}, "armor": {"protection": 8}})
    assert body["initiative"] == 1 + 5 + 2 - 2
    assert body["attack"] == 2 + 5 + 4
    assert body["defence"] == 5 + 2 - 1 - 2  # weapon defence 2 beats Qik 1
    assert body["damage"] == 3 + 1 + 5 + 6
    assert body["dodge"] == 1 + 3 - 1 - 2
    assert body["soak"] == 2 + 1 + 8
    assert body["penalty"] == 0 and body["two_weapons"] is None
    assert set(body["missile_rate"]) == {"first_phase_every", "second_phase_every"}


def test_combatant_missile_damage_drops_str_and_size_and_negative_size_not_added(client):
    bow = post(client, "/combatant", {"characteristics": {"str": 3, "per": 2, "dex": 1}, "size": 1,
                                      "abilities": {"weapon": 4}, "weapon": "short_bow"})
    assert bow["damage"] == 4 + 7 and bow["attack"] == 2 + 4 + 3
    small = post(client, "/combatant", {"characteristics": {"str": 3}, "size": -2, "abilities": {"weapon": 4},
                                        "weapon": {"damage": 5}})
    assert small["damage"] == 3 + 4 + 5


def test_combatant_penalties_apply_to_initiative_attack_defence_dodge(client):
    base = {"characteristics": {"qik": 2, "dex": 2, "stm": 1}, "abilities": {"weapon": 5, "dodge": 2},
            "weapon": "longsword"}
    fresh = post(client, "/combatant", base)
    hurt = post(client, "/combatant", dict(base, wound_level="medium", fatigue_level="weary"))
    assert hurt["penalty"] == -4
    for key in ("initiative", "attack", "defence", "dodge"):
        assert hurt[key] == fresh[key] - 4
    for key in ("damage", "soak"):
        assert hurt[key] == fresh[key]


def test_two_shortswords_irishman_example(client):
    # seed *Two weapons*: two shortswords, attack and defend: +1 attack roll, +2 defence roll
    body = post(client, "/combatant", {"abilities": {"weapon": 5}, "weapon": "shortsword", "off_hand": "shortsword",
                                       "two_weapons": "attack_and_defend"})
    assert body["two_weapons"] == {"attack_bonus": 1, "defence_bonus": 2, "main_penalty": -1, "off_penalty": -3}
    twice = post(client, "/combatant", {"abilities": {"weapon": 5}, "weapon": "shortsword", "off_hand": "shortsword",
                                        "two_weapons": "attack_twice", "ambidextrous": True})
    assert twice["two_weapons"] == {"attack_bonus": 0, "defence_bonus": 0, "main_penalty": 0, "off_penalty": 0}


def test_mounted_caps_skill_at_ride_and_drops_encumbrance(client):
    body = post(client, "/combatant", {"abilities": {"weapon": 8, "ride": 3}, "encumbrance": 4, "mounted": True,
                                       "characteristics": {"qik": 1}, "weapon": {}})
    assert body["initiative"] == 1 + 3 and body["dodge"] == 1


@pytest.mark.parametrize(("initiative", "first", "second"), [
    (-25, 3, None), (-20, 3, None), (-19, 2, None), (-10, 2, None), (-9, 1, None), (0, 1, None), (1, 1, 2),
    (10, 1, 2), (11, 1, 1), (25, 1, 1)])
def test_missile_rate_table(client, initiative, first, second):
    body = post(client, "/combatant", {"weapon": {"init": initiative if abs(initiative) <= 20 else 0},
                                       "characteristics": {"qik": 0 if abs(initiative) <= 20 else
                                                           (5 if initiative > 0 else -5)},
                                       "abilities": {"weapon": 0 if abs(initiative) <= 20 else
                                                     (20 if initiative > 0 else 0)},
                                       "encumbrance": 0 if initiative >= -20 else 20})
    assert body["missile_rate"] == {"first_phase_every": first, "second_phase_every": second}, body["initiative"]


# --- movement -----------------------------------------------------------------------------------------------------


def test_movement_yards_per_round(client):
    body = post(client, "/movement", {"qik": 2, "encumbrance": 1, "athletics": 3, "ride": 2,
                                      "wound_level": "light", "fatigue_level": "weary"})
    assert body["yards_per_round"] == {"walk": 10, "hustle": 16, "sprint": 32, "ride": 52}
    assert body["yards_per_round_acting"] == {"walk": 5, "hustle": 8, "sprint": 16, "ride": 26}
    assert body["round_seconds"] == 6
    assert body["metres_per_round_exact"]["walk"] == "1143/125"  # 10 yd x 0.9144
    assert frac(body["metres_per_second_exact"]["walk"]) == Fraction(1143, 125) / 6
    assert_exact_pairs(body)
    got = client.get(BASE + "/movement?qik=2&encumbrance=1&athletics=3&wound_penalty=-1")
    assert got.status_code == 200
    assert got.get_json()["yards_per_round"] == {"walk": 10, "hustle": 16, "sprint": 33, "ride": 50}
    empty = client.get(BASE + "/movement").get_json()
    assert empty["yards_per_round"] == {"walk": 9, "hustle": 15, "sprint": 30, "ride": 50}


def test_movement_round_seconds_option_and_errors(client):
    body = post(client, "/movement", {"options": {"round_seconds": 10}})
    assert body["round_seconds"] == 10
    assert frac(body["metres_per_second_exact"]["walk"]) == Fraction(9 * 1143, 1250) / 10
    bad = post(client, "/movement", {"encumbrance": -1, "options": {"nope": 1}}, 422)
    fields = {e["field"] for e in bad["errors"]}
    assert "encumbrance" in fields and any(f.startswith("options") for f in fields)


# --- GET /v1/rulesets/ars-magica and tables ---------------------------------------------------------------------


OPTIONS = {"botch_dice": 1, "botched_total": "zero", "attack_tie": "defender", "exceptional_margin": 15,
           "missile_exceptional_margin": 10, "defence_uses": "best", "defence_size_sign": "subtract",
           "missile_attack_characteristic": "per", "penalties_apply": True, "spell_tie": "no_fatigue",
           "all_out_doubles": "margin", "round_seconds": 6, "movement_halving": "floor",
           "declaration_order": "lowest_initiative_first", "initiative_tie": "higher_total_then_reroll",
           "missile_schedule_start": "first_round", "botch_index": "stress_zero_ten", "multiple_botches": "worst",
           "botch_effects": "table", "desperate_defence_rolls": "each_attack", "ai_stance": "normal",
           "two_weapon_penalties_on": ["attack", "defence"], "size_adds_levels": False,
           "melee_order": "initiative_roll", "max_rounds": 50}


def test_ruleset_options_and_assumptions(client):
    body = client.get("/v1/rulesets/ars-magica").get_json()
    assert body["id"] == "ars-magica"
    for key in ("name", "source", "summary", "href", "tables", "rulings", "options", "assumptions"):
        assert key in body
    for name, default in OPTIONS.items():
        assert body["options"][name]["default"] == default, name
    for name in ("exceptional_effects", "body_levels", "fatigue_levels", "armor_pack", "weapon_pack"):
        assert name in body["options"]
    for option in body["options"].values():
        assert option["tag"] in {"DOC", "INF", "CORE", "DEF"} and option["summary"]
    assert "choices" in body["options"]["attack_tie"] and set(body["options"]["attack_tie"]["choices"]) == {
        "defender", "attacker"}
    for item in body["assumptions"]:
        assert set(item) >= {"id", "tag", "summary", "option", "source"}
    names = {t["name"] for t in body["tables"]}
    assert names == {"melee-totals", "missile-rate", "missile-fire", "exceptional-blow", "brawling-maneuvers",
                     "movement", "body-levels", "fatigue-levels", "botch-attack-defence", "botch-damage-soak",
                     "words-and-gestures", "distraction", "armor", "weapons"}
    for table in body["tables"]:
        answer = client.get(table["href"])
        assert answer.status_code == 200 and answer.headers.get("ETag")
        data = answer.get_json()
        assert data["ruleset"] == "ars-magica" and data["name"] == table["name"] and "title" in data
        again = client.get(table["href"], headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304


def table(client, name):
    return client.get(f"/v1/rulesets/ars-magica/tables/{name}").get_json()["data"]


def test_missile_rate_table_data(client):
    rows = table(client, "missile-rate")
    assert rows == [
        {"min": None, "max": -20, "first_phase_every": 3, "second_phase_every": None},
        {"min": -19, "max": -10, "first_phase_every": 2, "second_phase_every": None},
        {"min": -9, "max": 0, "first_phase_every": 1, "second_phase_every": None},
        {"min": 1, "max": 10, "first_phase_every": 1, "second_phase_every": 2},
        {"min": 11, "max": None, "first_phase_every": 1, "second_phase_every": 1}]


def test_ladders_and_small_tables(client):
    body = client.get("/v1/rulesets/ars-magica").get_json()["options"]
    ladder = body["body_levels"]["default"]
    assert [(r["name"], r["penalty"]) for r in ladder][:5] == [
        ("unhurt", 0), ("hurt", 0), ("light", -1), ("medium", -3), ("heavy", -5)]
    assert [r["name"] for r in ladder][5:] == ["incapacitated", "dead"]
    fatigue = body["fatigue_levels"]["default"]
    assert [(r["name"], r["penalty"]) for r in fatigue][:5] == [
        ("fresh", 0), ("winded", 0), ("weary", -1), ("tired", -3), ("dazed", -5)]
    assert fatigue[5]["name"] == "unconscious"
    assert body["armor_pack"]["default"]["leather"] == {"protection": 4}
    assert body["armor_pack"]["default"]["partial_chain"] == {"protection": 8}
    assert body["armor_pack"]["default"]["full_chain"] == {"protection": 12}
    assert body["armor_pack"]["default"]["plate"] == {"protection": 15}
    weapons = body["weapon_pack"]["default"]
    for name, stats in {"shortsword": (1, 2, 3, 5), "longsword": (2, 4, 2, 6), "mace": (0, 3, 1, 7),
                        "spear": (3, 2, 2, 5), "short_bow": (-5, 3, 0, 7)}.items():
        assert tuple(weapons[name][k] for k in ("init", "attack", "defence", "damage")) == stats, name
    assert weapons["shield"]["defence"] == 3 and weapons["short_bow"]["missile"] is True
    assert weapons["spear"]["range"] == "close"
    words = table(client, "words-and-gestures")
    assert words["voice"] == {"booming": 1, "firm": 0, "soft": -5, "none": -10}
    assert words["gesture"] == {"vigorous": 1, "bold": 0, "subtle": -2, "none": -5}
    distraction = {r["distraction"]: r["ease_factor"] for r in table(client, "distraction")["rows"]}
    assert distraction == {"walking": 6, "running": 12, "dodging": 15, "jostled": 9, "sudden_noise": 9,
                           "knocked_down": 15, "damaged": 21, "personal_threat": 12, "maintaining_other_spell": 15}
    recovers = {r["name"]: r["recovers_in_minutes"] for r in table(client, "fatigue-levels")["rows"]}
    assert recovers == {"fresh": None, "winded": 2, "weary": 10, "tired": 30, "dazed": 60, "unconscious": 120}


# --- POST /v1/ars-magica/rounds/resolve -------------------------------------------------------------------------


def fighters(**extra):
    one = {"id": "irishman", "side": "red", "characteristics": {"dex": 1, "qik": 2, "str": 1, "stm": 1},
           "abilities": {"weapon": 6}, "weapon": "shortsword", "engaged_with": ["saxon"]}
    two = {"id": "saxon", "side": "blue", "characteristics": {"dex": 1, "str": 2, "stm": 2},
           "abilities": {"weapon": 5}, "weapon": "mace", "engaged_with": ["irishman"], "position_yd": 1}
    one.update(extra.get("one", {}))
    two.update(extra.get("two", {}))
    return {"ruleset": "ars-magica", "round": 0, "options": {}, "combatants": [one, two]}


def test_round_answers_and_state_round_trip(client):
    request = {"state": fighters(), "seed": 7,
               "declarations": [{"combatant": "irishman", "action": "attack", "target": "saxon"},
                                {"combatant": "saxon", "action": "attack", "target": "irishman"}]}
    body = post(client, "/rounds/resolve", request)
    for key in ("round", "seed", "initiative", "melee_order", "missile_phases", "events", "state"):
        assert key in body
    assert body["round"] == 1 and body["state"]["round"] == 1 and body["seed"] == 7
    assert set(body["missile_phases"]) == {"first", "second"}
    assert [e["seq"] for e in body["events"]] == list(range(1, len(body["events"]) + 1))
    for entry in body["initiative"]:
        assert set(entry) == {"combatant", "total", "roll", "value"} and entry["value"] == entry["total"] + entry["roll"]
    assert post(client, "/rounds/resolve", request) == body
    again = post(client, "/rounds/resolve", {"state": body["state"], "seed": 8, "declarations": []})
    assert again["round"] == 2


def test_round_initiative_winner_pushes_the_loser_back_one_yard(client):
    rolls = [{"combatant": "irishman", "role": "initiative", "faces": [9]},
             {"combatant": "saxon", "role": "initiative", "faces": [2]}]
    declarations = [{"combatant": "irishman", "action": "attack", "target": "saxon"},
                    {"combatant": "saxon", "action": "attack", "target": "irishman"}]
    body = post(client, "/rounds/resolve", {"state": fighters(), "seed": 1, "rolls": rolls,
                                            "declarations": declarations})
    assert body["initiative"][0]["combatant"] == "irishman"
    assert body["initiative"][0]["total"] == 2 + 6 + 1 and body["initiative"][0]["roll"] == 9
    assert body["melee_order"][0] == "irishman"
    pushed = [e for e in body["events"] if e["type"] == "pushed_back"]
    assert pushed and pushed[0]["combatant"] == "saxon"
    held = [dict(d, hold_ground=True) if d["combatant"] == "saxon" else d for d in declarations]
    body = post(client, "/rounds/resolve", {"state": fighters(), "seed": 1, "rolls": rolls, "declarations": held})
    assert not [e for e in body["events"] if e["type"] == "pushed_back"]
    saxon = [c for c in body["state"]["combatants"] if c["id"] == "saxon"][0]
    assert saxon["position_yd"] == 1


def test_round_errors(client):
    body = post(client, "/rounds/resolve", {"state": fighters(), "declarations": [
        {"combatant": "nobody", "action": "attack", "target": "saxon"}]}, 422)
    assert any(e["field"].startswith("declarations.0") for e in body["errors"])
    body = post(client, "/rounds/resolve", {"state": fighters(), "rolls": [
        {"combatant": "irishman", "role": "initiative", "faces": [10]}]}, 422)
    assert any(e["field"].startswith("rolls.0") for e in body["errors"])
    post(client, "/rounds/resolve", {"declarations": []}, 422)


def test_round_missile_rate_schedules(client):
    # MISSILE RATE TABLE: init 8 (+1..+10) first every round, second 1, 3, 5...; init 15 both every round;
    # init -15 every second round (1, 3, 5...); init -20 every third round (1, 4, 7)
    def shooter(ident, qik, init):
        return {"id": ident, "side": "red", "characteristics": {"per": -10, "qik": qik},
                "abilities": {"weapon": 10 if init > -10 else 0},
                "weapon": {"init": init, "attack": 3, "damage": 7, "missile": True}}
    people = [shooter("archer", 3, -5), shooter("fast", 10, -5), shooter("slow", -5, -15), shooter("mid", -5, -10),
              {"id": "foe", "side": "blue", "characteristics": {"stm": 10}, "weapon": "mace", "armor": "plate",
               "position_yd": 1000}]
    state = {"ruleset": "ars-magica", "round": 0, "options": {}, "combatants": people}
    declarations = [{"combatant": c, "action": "missile", "target": "foe"} for c in ("archer", "fast", "slow", "mid")]
    seen = []
    for number in range(7):
        body = post(client, "/rounds/resolve", {"state": state, "seed": number, "declarations": declarations})
        seen.append((set(body["missile_phases"]["first"]), set(body["missile_phases"]["second"])))
        state = body["state"]
    first = [{"fast", "archer", "mid", "slow"}, {"fast", "archer"}, {"fast", "archer", "mid"},
             {"fast", "archer", "slow"}, {"fast", "archer", "mid"}, {"fast", "archer"},
             {"fast", "archer", "mid", "slow"}]
    second = [{"fast", "archer"}, {"fast"}] * 3 + [{"fast", "archer"}]
    assert [f for f, _ in seen] == first and [s for _, s in seen] == second


def test_round_all_out_attack_after_a_preparing_round(client):
    state = fighters(two={"armor": "plate"})
    body = post(client, "/rounds/resolve", {"state": state, "seed": 1, "declarations": [
        {"combatant": "irishman", "action": "all_out_prepare"}]})
    assert [e for e in body["events"] if e["type"] == "attack_rolled"] == []
    ready = body["state"]
    assert [c["stance"] for c in ready["combatants"] if c["id"] == "irishman"] == ["all_out_ready"]
    rolls = [{"combatant": "irishman", "role": "initiative", "faces": [9]},
             {"combatant": "saxon", "role": "initiative", "faces": [2]}]
    body = post(client, "/rounds/resolve", {"state": ready, "seed": 2, "rolls": rolls, "declarations": [
        {"combatant": "irishman", "action": "all_out_attack", "target": "saxon"},
        {"combatant": "saxon", "action": "attack", "target": "irishman", "hold_ground": True}]})
    attacks = {e["combatant"]: e for e in body["events"] if e["type"] == "attack_rolled"}
    assert attacks["irishman"]["attack_total"] == 1 + 6 + 2 + 3  # Dex + skill + shortsword + all-out
    assert attacks["saxon"]["defence_total"] == 5 + 1 - 2 or attacks["irishman"]["defence_total"] == 5 + 1 - 2
    assert attacks["saxon"]["defence_mode"] == "total"  # no defence roll for the all-out attacker
    damage = [e for e in body["events"] if e["type"] == "damage_rolled" and e["combatant"] == "irishman"]
    if damage:
        assert damage[0]["levels"] == max(0, ceil(2 * damage[0]["margin"] / 5))
    fatigue = [e for e in body["events"] if e["type"] == "fatigue_rolled" and e["combatant"] == "irishman"]
    assert fatigue and fatigue[0]["ease_factor"] == 6
    assert not [e for e in body["events"] if e["type"] == "pushed_back"]


def test_round_desperate_defence_rolls_against_every_attack(client):
    people = [{"id": "a", "side": "red", "abilities": {"weapon": 5}, "weapon": "mace", "engaged_with": ["d"]},
              {"id": "b", "side": "red", "abilities": {"weapon": 5}, "weapon": "mace", "engaged_with": ["d"]},
              {"id": "d", "side": "blue", "abilities": {"weapon": 5}, "weapon": "longsword", "armor": "plate",
               "characteristics": {"stm": 10}, "engaged_with": ["a", "b"]}]
    state = {"ruleset": "ars-magica", "round": 0, "options": {}, "combatants": people}
    attacks = [{"combatant": "a", "action": "attack", "target": "d"},
               {"combatant": "b", "action": "attack", "target": "d"}]
    plain = post(client, "/rounds/resolve", {"state": state, "seed": 5,
                                             "declarations": [*attacks, {"combatant": "d", "action": "defend"}]})
    modes = [e["defence_mode"] for e in plain["events"] if e["type"] == "attack_rolled"]
    assert sorted(modes) == ["roll", "total"]  # one defence roll a round, the other attack meets the total
    assert {e["defence_total"] for e in plain["events"] if e["type"] == "attack_rolled"} == {7}
    desperate = post(client, "/rounds/resolve", {"state": state, "seed": 5, "declarations": [
        *attacks, {"combatant": "d", "action": "desperate_defence"}]})
    rolled = [e for e in desperate["events"] if e["type"] == "attack_rolled"]
    assert [e["defence_mode"] for e in rolled] == ["roll", "roll"]
    assert {e["defence_total"] for e in rolled} == {13}


def test_round_knock_out_is_reported_once(client):
    archer = {"id": "archer", "side": "red", "characteristics": {"per": 10, "qik": 3}, "abilities": {"weapon": 10},
              "weapon": "short_bow"}
    foe = {"id": "foe", "side": "blue", "weapon": "mace", "position_yd": 30}
    state = {"ruleset": "ars-magica", "round": 0, "options": {}, "combatants": [archer, foe]}
    # attack 10 + 10 + 3 = 23 against EF 6: an exceptional hit to the head; damage 10 + 7 + 2 against soak 0 + 9:
    # two levels, major: unconscious (the fatigue ladder's last rung) - one out_of_fight event
    body = post(client, "/rounds/resolve", {"state": state, "declarations": [
        {"combatant": "archer", "action": "missile", "target": "foe", "location": "head"}],
        "rolls": [{"combatant": "archer", "role": "missile", "faces": [9]},
                  {"combatant": "archer", "role": "damage", "faces": [2]},
                  {"combatant": "foe", "role": "soak", "faces": [9]}], "seed": 3})
    fired = [e for e in body["events"] if e["type"] == "missile_fired"]
    assert fired[0]["outcome"] == "exceptional" and fired[0]["ease_factor"] == 6
    blow = [e for e in body["events"] if e["type"] == "exceptional_blow"]
    assert blow[0]["severity"] == "major" and blow[0]["effect"] == "unconscious_15_min"
    out = [e for e in body["events"] if e["type"] == "out_of_fight"]
    assert len(out) == 1 and out[0]["combatant"] == "foe"


def botched_attack(client, index_faces):
    state = fighters()
    rolls = [{"combatant": "irishman", "role": "initiative", "faces": [9]},
             {"combatant": "saxon", "role": "initiative", "faces": [2]},
             {"combatant": "irishman", "role": "attack", "faces": [0]},
             {"combatant": "irishman", "role": "botch", "faces": [0]},
             {"combatant": "irishman", "role": "botch_index", "faces": index_faces}]
    return post(client, "/rounds/resolve", {"state": state, "seed": 1, "rolls": rolls, "declarations": [
        {"combatant": "irishman", "action": "attack", "target": "saxon"}]})


def test_round_attack_botch_table_entries(client):
    # Combat Botch Result Table, read with a stress die whose 0 counts 10: [1, 1, 9] is 36 -> unconscious
    body = botched_attack(client, [1, 1, 9])
    attack = [e for e in body["events"] if e["type"] == "attack_rolled"][0]
    assert attack["attack_roll"] == 0 and attack["outcome"] == "miss"
    botched = [e for e in body["events"] if e["type"] == "botched"][0]
    assert botched["combatant"] == "irishman" and botched["index"] == 36
    out = [e for e in body["events"] if e["type"] == "out_of_fight"]
    assert out and out[0]["combatant"] == "irishman" and out[0]["status"] == "unconscious"
    # [1, 2] is 4: -3 attack and defence next round
    body = botched_attack(client, [1, 2])
    irishman = [c for c in body["state"]["combatants"] if c["id"] == "irishman"][0]
    assert sorted((e["kind"], e["value"], e["from"], e["until"]) for e in irishman["effects"]) == [
        ("attack", -3, 2, 2), ("defence", -3, 2, 2)]
    # a bare 0 on the index die counts 10 (no botch): the entry for 10
    assert [e for e in botched_attack(client, [0])["events"] if e["type"] == "botched"][0]["index"] == 10


def test_botch_tables_are_indexed_like_a_stress_die(client):
    indices = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 80]
    for name in ("botch-attack-defence", "botch-damage-soak"):
        assert [row["index"] for row in table(client, name)["rows"]] == indices


def test_missile_fire_and_brawling_tables(client):
    fire = table(client, "missile-fire")
    assert fire["base"] == 6 and fire["into_melee"] == 3 and fire["obscured"] == 3
    assert [(d["max_yd"], d["modifier"], d["spell_modifier"]) for d in fire["distance"]] == [
        (15, -3, 0), (50, 0, 3), (200, 6, 6), (None, 12, 12)]
    assert fire["target_movement"] == {"still": 0, "walking": 0, "hustling": 3, "sprinting": 6}
    brawl = {row["maneuver"]: row for row in table(client, "brawling-maneuvers")["rows"]}
    assert {name: (row["attacker"], row["resisting"], row["resisting_bonus"]) for name, row in brawl.items()} == {
        "throw": (["str", "size", "brawl"], ["dex", "size", "brawl"], 6),
        "tackle": (["str", "size", "brawl"], ["dex", "size", "brawl"], 0),
        "wrest_weapon": (["str", "size", "brawl"], ["str", "brawl"], 6),
        "immobilise": (["str", "size", "brawl"], ["str", "brawl"], 6)}


def test_ruleset_is_listed(client):
    listed = {r["id"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    about = listed["ars-magica"]
    assert set(about) >= {"id", "name", "source", "summary", "href"}
    assert client.get(about["href"]).status_code == 200
    assert client.get("/v1/rulesets/ars-magica/tables/nope").status_code == 404


def test_check_formulaic_tie_option_and_botch_dice(client):
    assert "level" in {e["field"] for e in post(client, "/check", {"kind": "formulaic", "technique": 5}, 422)["errors"]}
    base = {"kind": "formulaic", "level": 15, "technique": 5, "form": 5}
    tie = post(client, "/check", dict(base, rolls={"roll": [5]}, options={"spell_tie": "fatigue"}))
    assert tie["roll"] == {"roll": 15, "botches": 0, "outcome": "success_fatigue"}
    assert frac(tie["probabilities_exact"]["success"]) == tail_s(6)
    assert post(client, "/check", dict(base, rolls={"roll": [5]}))["roll"]["outcome"] == "success"
    fatigue = post(client, "/check", {"kind": "fatigue", "stamina": 1, "botch_dice": 2,
                                      "rolls": {"roll": [0], "botch": [4, 0]}})
    assert fatigue["botch_dice"] == 2 and fatigue["roll"] == {"roll": 0, "botches": 1, "outcome": "botch"}
    assert fatigue["probabilities_exact"]["botch"] == "19/1000"
    assert frac(fatigue["probabilities_exact"]["success"]) == tail_s(5)
