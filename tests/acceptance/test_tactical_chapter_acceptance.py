"""Acceptance tests of the tactical chapter's "rest of the rules" (issue 16) through the public HTTP API only.

Every expected number is worked out here from the seed chapter (000_0a8e87a30c2837cd.txt), the digest's
formulas (F-numbers) and RULINGS.md, never by calling the service's rules code. Rounding is half up
(RULINGS 2), "Progressive" is n(n+1)/2 (RULINGS 3) and the default Task Resolution Table is
round_half_up(100 AV / (AV + DV)) clamped to 1..99 (RULINGS 4)."""
from __future__ import annotations

import copy
from fractions import Fraction
from itertools import pairwise

import pytest

BASE = "/v1/tactical"


def rhu(x) -> int:
    """Round half up (RULINGS 2) on an exact value."""
    x = Fraction(x)
    return int((x + Fraction(1, 2)).__floor__())


def prog(n: int) -> int:
    return n * (n + 1) // 2


def trt(av: int, dv: int) -> int:
    """RULINGS 4: the Referee default chance."""
    if av <= 0:
        return 1
    if dv <= 0:
        return 99
    return min(99, max(1, rhu(Fraction(100 * av, av + dv))))


def contest(chance_a: int, chance_b: int) -> dict[str, Fraction]:
    """RULINGS 5, over all d100 pairs: only a success wins; two successes, the larger margin; else a tie or
    both fail."""
    tally = {"a": 0, "b": 0, "tie": 0, "both-fail": 0}
    for ra in range(1, 101):
        for rb in range(1, 101):
            ok_a, ok_b, ma, mb = ra <= chance_a, rb <= chance_b, chance_a - ra, chance_b - rb
            if ok_a and (not ok_b or ma > mb):
                tally["a"] += 1
            elif ok_b and (not ok_a or mb > ma):
                tally["b"] += 1
            else:
                tally["tie" if ok_a and ok_b else "both-fail"] += 1
    return {k: Fraction(v, 10000) for k, v in tally.items()}


def post(client, path, body, status=200):
    response = client.post(f"{BASE}/{path}", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def problem_fields(client, path, body):
    response = client.post(f"{BASE}/{path}", json=body)
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    return {e["field"] for e in response.get_json()["errors"]}


# --- Attack, Defense & Mixed Combinations (F38) ------------------------------------------------------------


@pytest.mark.parametrize("values, sl, against", [([45, 30], 12, 40), ([20, 10], 15, 30), ([30, 45], 5, 25)])
def test_in_concert_combination_av_lead_plus_sl_capped_at_both(client, values, sl, against):
    body = post(client, "combination", {"kind": "in-concert", "values": values, "combination_sl": sl,
                                        "against": against, "pots": [18, 9]})
    av = min(values[0] + sl, sum(values))  # the player chooses the lead: the first value
    assert body["values"] == [av]
    assert body["cap"] == sum(values)
    assert body["capped"] is (values[0] + sl > sum(values))
    assert body["chances"] == [trt(av, against)]
    assert body["pot"] == 18 + 9  # both blows' POT added before armor


def test_separate_but_simultaneous_each_av_plus_sl_capped(client):
    body = post(client, "combination", {"kind": "separate", "values": [45, 30], "combination_sl": 12,
                                        "against": 40})
    avs = [min(45 + 12, 75), min(30 + 12, 75)]
    assert body["values"] == avs
    assert body["chances"] == [trt(a, 40) for a in avs]


def test_defensive_combination_uses_the_same_cap(client):
    body = post(client, "combination", {"kind": "defensive", "values": [20, 15], "combination_sl": 30,
                                        "against": 40})
    assert body["values"] == [35] and body["capped"] is True


# --- Body checks, side-swipes, tackling (F39, F40) ---------------------------------------------------------


def test_body_check_av_dv_and_bounce(client):
    attacker = {"agl_mod": 2, "modified_sta": 16, "str_mod": 2, "strength": 15, "speed_mph": 8, "armor_layers": 2}
    defender = {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}
    body = post(client, "body-check", {"kind": "body-check", "attacker": attacker, "defender": defender})
    av = 2 + 16 + 2 + 0 + prog(2) + 8  # F39 with shield Size 0, progressive per armor layer, + mph
    dv = 1 + 13 + 0
    assert body["attacker_av"] == av == 31
    assert body["defender_dv"] == dv
    assert body["defender_bounce_feet"] == 8 + (16 - 13)  # F40: speed + STA difference
    assert body["attacker_chance"] == trt(av, dv) and body["defender_chance"] == trt(dv, av)
    odds = contest(trt(av, dv), trt(dv, av))
    exact = {k: Fraction(v) for k, v in body["probabilities_exact"].items()}
    assert exact == {"defender_bounced": odds["a"], "attacker_bounced": odds["b"],
                     "both_stop": odds["tie"] + odds["both-fail"]}


@pytest.mark.parametrize("flag", [{}, {"moving": True}])
def test_body_check_both_moving_adds_the_speeds(client, flag):
    attacker = {"agl_mod": 0, "modified_sta": 14, "str_mod": 0, "strength": 13, "speed_mph": 6}
    defender = {"agl_mod": 0, "modified_sta": 12, "str_mod": 0, "strength": 13, "speed_mph": 4, **flag}
    body = post(client, "body-check", {"kind": "body-check", "attacker": attacker, "defender": defender})
    assert body["defender_bounce_feet"] == 6 + 4 + (14 - 12)


# --- Demoralizing attacks, intimidating foes (F41) ---------------------------------------------------------


def test_intimidation_av_dv_and_guard_drop(client):
    body = post(client, "intimidation", {"presence_av": 30, "intimidate_sl": 14, "pot_through": 6,
                                         "target_dv": 35, "target_presence_sl": 4, "target_hrt_mod": 2,
                                         "allies_standing": 2, "allies_fallen": 1})
    assert body["av"] == 30 + 6
    assert body["dv"] == 35 + 4 + 2 - 1
    assert body["guard_drop"] == 14 - 2
    assert body["attacker_chance"] == trt(36, 40) and body["target_chance"] == trt(40, 36)
    assert body["surrender_check_dv"] == 6  # HRT vs the POT that got through
    odds = contest(trt(36, 40), trt(40, 36))
    exact = {k: Fraction(v) for k, v in body["probabilities_exact"].items()}
    # DV above AV: a won contest makes him back off; anything else leaves him unaffected
    assert exact == {"backs_off": odds["a"], "unaffected": 1 - odds["a"], "surrenders": 0, "guard_drops": 0}


def test_intimidation_with_the_larger_av_surrender_or_guard_drop(client):
    body = post(client, "intimidation", {"presence_av": 50, "intimidate_sl": 14, "pot_through": 6,
                                         "target_dv": 30, "target_hrt_mod": 1})
    odds = contest(trt(56, 30), trt(30, 56))
    exact = {k: Fraction(v) for k, v in body["probabilities_exact"].items()}
    assert exact == {"surrenders": odds["a"], "guard_drops": 1 - odds["a"], "backs_off": 0, "unaffected": 0}
    assert body["guard_drop"] == 14 - 1


def test_intimidation_by_reprisal_makes_the_pot_progressive(client):
    body = post(client, "intimidation", {"presence_av": 30, "intimidate_sl": 14, "pot_through": 6,
                                         "target_dv": 35, "reprisal": True})
    assert body["av"] == 30 + prog(6)


# --- Misses & stray fire -----------------------------------------------------------------------------------


def test_stray_fire_size_modifier_is_progressive_per_point_of_msta(client):
    body = post(client, "stray-fire", {"av": 40, "target_modified_sta": 14, "band_end": 60, "bystanders": [
        {"id": "mule", "modified_sta": 20, "dv": 6, "distance": 48},
        {"id": "boy", "modified_sta": 9, "dv": 12, "distance": 55},
        {"id": "far", "modified_sta": 14, "dv": 10, "distance": 61}]})
    by_id = {t["id"]: t for t in body["targets"]}
    assert by_id["mule"]["size_modifier"] == -prog(6) and by_id["mule"]["dv"] == 6 - 21
    assert by_id["boy"]["size_modifier"] == prog(5) and by_id["boy"]["dv"] == 12 + 15
    assert by_id["boy"]["chance"] == trt(40, 27) and by_id["mule"]["chance"] == trt(40, -15)
    assert "far" not in by_id and "far" in body["beyond_band"]
    # the first in line is rolled first; the next only when that missed
    p_mule = Fraction(trt(40, -15), 100)
    assert Fraction(by_id["boy"]["hit_probability_exact"]) == (1 - p_mule) * Fraction(trt(40, 27), 100)


# --- Resolving ranged attacks: flight time (A43) -----------------------------------------------------------


@pytest.mark.parametrize("kind, feet, speed, limit", [("missile", 2400, 200, 2000), ("missile", 2000, 200, 2000),
                                                     ("hurled", 600, 50, 500), ("hurled", 500, 50, 500)])
def test_missile_flight_time_and_delay(client, kind, feet, speed, limit):
    body = post(client, "missile-flight", {"distance_feet": feet, "kind": kind})
    assert Fraction(body["seconds_exact"]) == Fraction(feet, speed)
    assert body["delayed"] is (feet > limit)


def test_far_missile_lands_after_declarations_with_pulse_move(client):
    plain = post(client, "missile-flight", {"distance_feet": 2400, "kind": "missile"})
    pulsed = post(client, "missile-flight", {"distance_feet": 2400, "kind": "missile", "pulse_move": True})
    assert "before declarations" in plain["lands"]
    assert "after" in pulsed["lands"] and "declarations" in pulsed["lands"] and pulsed["lands"] != plain["lands"]


# --- Getting hit: knock-back (F16, F17, A25) ---------------------------------------------------------------


def test_knock_back_feet_footing_and_barrier(client):
    body = post(client, "knock-back", {"pot": 24, "modified_sta": 14, "barrier_feet": 4, "agl_av": 30})
    assert body["feet"] == 24 - 14
    assert body["keep_feet_dv"] == prog(10)
    assert body["keep_feet_chance"] == trt(30, 55)
    assert body["barrier_bonus"] == 10 - 4 and body["effective_pot"] == 24 + 6


def test_a_barrier_beyond_the_knock_back_adds_nothing(client):
    body = post(client, "knock-back", {"pot": 24, "modified_sta": 14, "barrier_feet": 12})
    assert body["feet"] == 10 and body["barrier_bonus"] == 0 and body["effective_pot"] == 24


def test_no_knock_back_when_pot_does_not_exceed_msta(client):
    body = post(client, "knock-back", {"pot": 14, "modified_sta": 14})
    assert body["feet"] == 0


# --- Modes of combat: common-melee spacing (F44, A44, RULINGS 15) -------------------------------------------


@pytest.mark.parametrize("scale, mm_per_foot", [("25mm", 5), ("10mm", 2), ("5mm", 1)])
def test_common_melee_spacing(client, scale, mm_per_foot):
    body = post(client, "melee-spacing", {"foe_weapon_size": 7, "foe_height": 6, "attacker_weapon_size": 4,
                                          "scale": scale})
    assert body["mode"] == "common"
    assert body["spacing_feet"] == 7 - 6 / 2
    assert Fraction(body["spacing_mm_exact"]) == (7 - 3) * mm_per_foot
    assert body["body_blocked"] is True  # the foe's weapon is 2+ Sizes larger


# --- Defenses: Dodge within one action (F37, A34, RULINGS 7) -----------------------------------------------


@pytest.mark.parametrize("dodge, sl, trained", [(20, 0, False), (20, 25, True), (7, 30, True), (3, 9, True)])
def test_dodge_halves_after_the_free_uses_until_zero(client, dodge, sl, trained):
    free = max(1, sl // 10) if trained else 1
    expected = [dodge if n <= free else rhu(Fraction(dodge, 2 ** (n - free))) for n in range(1, 9)]
    for use in range(1, 9):
        body = post(client, "dodge", {"dodge": dodge, "use": use, "sl": sl, "trained": trained})
        assert body["free"] == free
        if expected[use - 1] > 0:
            assert body["state"] == "available" and body["dv"] == expected[use - 1]
        else:
            assert body["dv"] is None and body["state"] != "available"
            break


# --- Table 4-1 and the tasks beside it ---------------------------------------------------------------------


@pytest.mark.parametrize("action, doff, actions", [
    ("Aketon/Coat", False, 3), ("Aketon/Coat", True, Fraction(3, 2)), ("Hat or Cap", True, Fraction(1, 4)),
    ("Plate Armor (any type), per limb, done by another", False, 8), ("Hose", True, 1),
    ("Ready mount: another's saddle on a stranger's mount", False, 16), ("Tie common knot", False, 1),
    ("Turn (up to 1/4)", False, Fraction(1, 4)), ("String bow", False, Fraction(1, 2)),
    ("Light torch with flint & fire iron", False, 3)])
def test_table_4_1_action_times(client, action, doff, actions):
    body = post(client, "task", {"kind": "action", "action": action, "doff": doff})
    assert Fraction(body["actions_exact"]) == actions


@pytest.mark.parametrize("items, mph, av", [(5, 0, 25), (0, 0, 25), (3, 4, 30)])
def test_rummaging_takes_items_plus_one_actions(client, items, mph, av):
    body = post(client, "task", {"kind": "rummage", "items": items, "mph": mph, "av": av})
    assert Fraction(body["actions_exact"]) == items + 1
    assert body["dv"] == prog(items) + mph
    assert body["chance"] == trt(av, prog(items) + mph)


@pytest.mark.parametrize("tier_str, sl, crd, untier_str", [(15, 25, 1, 16), (10, 0, 3, 10), (24, 35, 0, 12),
                                                          (13, 45, -1, 13)])
def test_untie_knot_f42(client, tier_str, sl, crd, untier_str):
    body = post(client, "task", {"kind": "untie", "tier_str": tier_str, "tier_trade_sl": sl,
                                 "untier_crd_mod": crd, "untier_str": untier_str})
    cs = max(rhu(Fraction(tier_str, 10)), rhu(Fraction(sl, 10))) - crd - max(0, untier_str - tier_str)
    assert Fraction(body["actions_exact"]) == max(Fraction(1, 4), cs)  # A46


def test_stringing_an_over_strength_bow_is_a_str_check_per_action(client):
    body = post(client, "task", {"kind": "string-bow", "bow_str": 16, "strength": 13, "av": 20})
    # the footnote: a STR check, 1 action a try, its DV Progressive per point of STR difference
    assert body["check"] == "STR" and body["dv"] == prog(16 - 13)
    assert body["per_attempt"] is True and Fraction(body["actions_exact"]) == 1
    assert body["chance"] == trt(20, prog(3))
    within = post(client, "task", {"kind": "string-bow", "bow_str": 13, "strength": 13})
    assert Fraction(within["actions_exact"]) == Fraction(1, 2) and within["dv"] is None


@pytest.mark.parametrize("crossbow, tool, dv", [("light", "goatsfoot", 13), ("light", "belt-hook", 13),
                                                ("light", "none", 20), ("heavy", "none", 30)])
def test_cocking_a_crossbow_str_check(client, crossbow, tool, dv):
    body = post(client, "task", {"kind": "cock-crossbow", "crossbow": crossbow, "tool": tool, "strength": 13,
                                 "av": 20})
    assert body["check"] == "STR" and body["dv"] == dv and body["chance"] == trt(20, dv)


@pytest.mark.parametrize("built_in, actions", [(False, 3), (True, 2)])
def test_crannequin_or_windlass_always_works(client, built_in, actions):
    body = post(client, "task", {"kind": "cock-crossbow", "crossbow": "heavy", "tool": "windlass",
                                 "built_in": built_in})
    assert body["chance"] is None and Fraction(body["actions_exact"]) == actions


# --- Falling objects (F33-F35, A38, A39) and wounds (F23, F24) ---------------------------------------------


@pytest.mark.parametrize("feet, pulses", [(15, 0), (16, 1), (63, 1), (64, 2), (143, 2), (144, 3), (256, 4),
                                          (400, 5), (580, 6), (760, 7), (940, 8), (1120, 9), (1300, 10),
                                          (2000, 10)])
def test_falling_catch_pulses_table(client, feet, pulses):
    body = post(client, "catch", {"distance_feet": feet, "weight_pounds": 10, "catcher": {
        "modified_sta": 15, "str_mod": 2, "crd_mod": 1, "cnd": 14}})
    assert body["pulses"] == pulses


@pytest.mark.parametrize("feet, pounds, armor", [(30, 150, 2), (64, 20, 0), (10, 20, 0), (45, 200, 5)])
def test_catching_a_falling_object_dv_capacity_and_wounds(client, feet, pounds, armor):
    catcher = {"modified_sta": 15, "str_mod": 2, "crd_mod": 1, "armor_dr": armor, "cnd": 14, "crd_av": 40}
    body = post(client, "catch", {"distance_feet": feet, "weight_pounds": pounds, "catcher": catcher})
    pot = rhu(Fraction(2 * feet, 3) + Fraction(pounds, 10))
    capacity = 15 + 2 + 1 + armor
    excess = max(0, pot - capacity)
    wt = Fraction(15 + 14, 8)
    wounds = sum(1 for k in range(1, 100) if excess > k * wt)
    assert body["catch_dv"] == body["impact_pot"] == pot
    assert body["capacity"] == capacity and body["excess_pot"] == excess
    assert Fraction(body["wound_threshold"]).limit_denominator(8) == wt
    assert body["wounds"] == wounds
    assert body["catch_chance"] == trt(40, pot)


# --- Surprise!! against traps -------------------------------------------------------------------------------


def test_concealed_trap_dv_is_the_craftsman_av(client):
    body = post(client, "surprise-check", {"kind": "concealed-trap", "target_av": 30, "spirit_sl": 6,
                                           "craft_av": 45})
    assert body["dv"] == 45 and body["target_av"] == 36
    assert body["target_chance"] == trt(36, 45)
    assert Fraction(body["probabilities_exact"]["none"]) == Fraction(trt(36, 45), 100)
    # a simple roll: every miss is surprise, lasting F5's max(1, round(fail margin / 10)) CS
    chance = trt(36, 45)
    expected = sum(Fraction(max(1, rhu(Fraction(roll - chance, 10))), 100) for roll in range(chance + 1, 101))
    assert Fraction(body["expected_duration_cs_exact"]) == expected


# --- Levels of wounding: moving while mortally wounded (F45), after the battle (A28), healing ---------------


@pytest.mark.parametrize("wounds, feet, str_mod, cnd_mod", [(9, 3, 2, 1), (7, 10, 2, 1), (7, 5, 1, 1),
                                                           (8, 4, 0, 0)])
def test_moving_while_mortally_wounded(client, wounds, feet, str_mod, cnd_mod):
    body = post(client, "mortal-wound", {"wounds": wounds, "feet": feet, "str_mod": str_mod, "cnd_mod": cnd_mod,
                                         "cnd": 14})
    per = max(1, str_mod + cnd_mod)
    added = Fraction(feet, per).__floor__()  # RULINGS 24: full stretches only (5 ft at 2 ft a wound: 2, not 3)
    total = wounds + added
    assert body["added_wounds"] == added and body["total_wounds"] == total
    if total == 10:
        assert body["status"] == "collapsed" and body["death_check_dv"] == 55 and body["minutes_to_live"] == 14
    elif total > 10:
        assert body["status"] == "dead"


LEVELS = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3, 7: 4, 8: 4, 9: 4, 10: 4}


@pytest.mark.parametrize("wounds", range(1, 11))
@pytest.mark.parametrize("strength", [13, 15, 18])
def test_strength_after_battle_drops_a_quarter_per_level(client, strength, wounds):
    body = post(client, "after-battle", {"strength": strength, "wounds": wounds})
    level = LEVELS[wounds]
    assert body["level_number"] == level
    assert body["strength"] == rhu(Fraction(strength) * (1 - Fraction(level, 4)))
    assert body["end_recovery_factor"] == 2 ** level


@pytest.mark.parametrize("wounds, sl", [(5, 0), (4, 4), (6, 9)])
def test_healing_weeks_by_wounds_less_one_per_four_sl(client, wounds, sl):
    body = post(client, "healing", {"wounds": wounds, "healer_sl": sl})
    weeks = wounds - sl // 4
    assert body["schedule_days"][0] == 7 * weeks  # the next wound heals in that many weeks
    assert body["schedule_days"][1] == 7 * (weeks - 1)  # one wound fewer: one week less
    assert body["bed_rest"] is (wounds >= 2)


def test_mortal_wounds_need_a_skilled_healer(client):
    body = post(client, "healing", {"wounds": 8, "healer_sl": 0})
    assert body["needs_skilled_healer"] is True


# --- 422 problem+json with field paths ---------------------------------------------------------------------


BAD = [
    ("combination", {"kind": "in-concert", "values": [45, 30], "against": 40}, "combination_sl"),
    ("combination", {"kind": "sideways", "values": [45, 30], "combination_sl": 1, "against": 40}, "kind"),
    ("body-check", {"attacker": {"agl_mod": 2, "modified_sta": "big", "str_mod": 2, "strength": 15},
                    "defender": {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}},
     "attacker.modified_sta"),
    ("intimidation", {"presence_av": 30, "intimidate_sl": 14, "target_dv": 35}, "pot_through"),
    ("stray-fire", {"av": 40, "target_modified_sta": 14, "band_end": 60,
                    "bystanders": [{"id": "boy", "modified_sta": "x", "dv": 12, "distance": 55}]},
     "bystanders.0.modified_sta"),
    ("missile-flight", {"distance_feet": 100, "kind": "boomerang"}, "kind"),
    ("knock-back", {"pot": "x", "modified_sta": 14}, "pot"),
    ("melee-spacing", {"foe_weapon_size": 7, "foe_height": 6, "attacker_weapon_size": 4, "scale": "1mm"}, "scale"),
    ("dodge", {"dodge": 20}, "use"),
    ("task", {"kind": "juggle"}, "kind"),
    ("catch", {"distance_feet": 30, "weight_pounds": 10, "catcher": {"modified_sta": "x", "str_mod": 2,
                                                                      "crd_mod": 1, "cnd": 14}},
     "catcher.modified_sta"),
    ("surprise-check", {"kind": "ambush"}, "target_av"),
    ("mortal-wound", {"wounds": 9, "str_mod": 2, "cnd_mod": 1}, "cnd"),
    ("after-battle", {"strength": 15}, "wounds"),
    ("healing", {"wounds": "many"}, "wounds"),
    # the Demoralizing Attack needs at least one point of POT through
    ("intimidation", {"presence_av": 30, "intimidate_sl": 14, "pot_through": 0, "target_dv": 35}, "pot_through"),
    ("dodge", {"dodge": 20, "use": 0}, "use"),
    ("catch", {"distance_feet": -5, "weight_pounds": 10, "catcher": {"modified_sta": 15, "str_mod": 2,
                                                                      "crd_mod": 1, "cnd": 14}}, "distance_feet"),
    ("combination", {"kind": "in-concert", "values": [45], "combination_sl": 1, "against": 40}, "values"),
    ("after-battle", {"strength": 13, "wounds": 11}, "wounds"),
]


@pytest.mark.parametrize("path, body, field", BAD, ids=[f"{p}-{f}" for p, _, f in BAD])
def test_bad_input_is_a_422_naming_the_field(client, path, body, field):
    assert field in problem_fields(client, path, body)


# --- Declarations in a Combat Segment: caller's dice reproduce exactly --------------------------------------


def fighter(ident, side, x, facing, weapons):
    return {"id": ident, "side": side, "attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11,
                                                      "P-RES": 30, "CRD": 12},
            "mods": {"AWA": 1, "HRT": 2}, "weapons": weapons, "dodge_dv": 0, "position": {"x": x, "y": 0},
            "facing": facing}


SWORD_AND_DAGGER = [{"name": "sword", "av": 45, "parry": 30, "size": 6, "weight_class": 2},
                    {"name": "dagger", "av": 30, "parry": 10, "size": 2, "weight_class": 0}]
CLUB = [{"name": "club", "av": 40, "parry": 20, "size": 4, "weight_class": 2}]


def segment_request(extra, d100, foe_d100=(100,) * 6, seed=None):
    state = {"segment": 0, "options": {"reprisals": False},
             "combatants": [fighter("ann", "red", 0, 90, SWORD_AND_DAGGER), fighter("bob", "blue", 5, 270, CLUB)]}
    body = {"state": state, "declarations": [
        {"combatant": "ann", "action": "attack", "target": "bob", "dice": {"initiative": 9, "d100": list(d100)},
         **extra},
        {"combatant": "bob", "action": "defend", "target": "ann",
         "dice": {"initiative": 1, "d100": list(foe_d100)}}]}
    if seed is not None:
        body["seed"] = seed
    return body


def resolve(client, body):
    return post(client, "segments/resolve", copy.deepcopy(body))


def of_type(answer, kind):
    return [e for e in answer["events"] if e["type"] == kind]


def test_combination_declared_in_a_segment_uses_f38_and_reproduces(client):
    request = segment_request({"combination": {"weapon": "dagger", "sl": 12}}, [20] + [100] * 5)
    first, second = resolve(client, request), resolve(client, {**request, "seed": 99})
    attacks = of_type(first, "attack")
    assert len(attacks) == 1 and attacks[0]["av"] == min(45 + 12, 45 + 30)
    assert first["events"] == second["events"]  # every die supplied: the seed changes nothing
    capped = of_type(resolve(client, segment_request({"combination": {"weapon": 1, "sl": 90}}, [100])), "attack")
    assert capped[0]["av"] == 75


def test_intimidate_declared_in_a_segment_lowers_the_guard_and_reproduces(client):
    request = segment_request({"intimidate": {"presence_av": 60, "sl": 14, "target_dv": 10}}, [20, 100] + [100] * 4,
                              (1, 1) + (100,) * 4)
    first, second = resolve(client, request), resolve(client, {**request, "seed": 5})
    assert first["events"] == second["events"]
    bob = next(c for c in first["state"]["combatants"] if c["id"] == "bob")
    assert bob["guard_down"]["against"] == {"ann": 14 - 2}  # F41: SL - HRT mod


def test_bad_declaration_is_a_422_naming_its_path(client):
    request = segment_request({"intimidate": {"presence_av": "x", "sl": 1, "target_dv": 1}}, [20])
    fields = problem_fields(client, "segments/resolve", request)
    assert any(f.startswith("declarations.0.intimidate") for f in fields), fields


def test_body_check_declared_in_a_segment_f39_f40_and_reproduces(client):
    ann = {"id": "ann", "side": "red", "attributes": {"STR": 15, "mSTA": 16, "AGL": 12, "HRT": 11},
           "mods": {"AGL": 2}, "weapons": CLUB, "armor": [{"type": "singlemail"}, {"type": "padded"}],
           "speed_mph": 8, "position": {"x": 0, "y": 0}, "facing": 90}
    bob = {"id": "bob", "side": "blue", "attributes": {"STR": 12, "mSTA": 13, "AGL": 12, "HRT": 11},
           "mods": {"AGL": 1}, "weapons": CLUB, "position": {"x": 20, "y": 0}, "facing": 270}
    request = {"state": {"combatants": [ann, bob], "options": {"reprisals": False}}, "declarations": [
        {"combatant": "ann", "action": "body-check", "target": "bob", "body_check": {"str_mod": 2},
         "dice": {"initiative": 9, "d100": [1] + [100] * 5}},
        {"combatant": "bob", "action": "defend", "target": "ann", "dice": {"initiative": 1, "d100": [100] * 6}}]}
    first, second = resolve(client, {**request, "seed": 1}), resolve(client, {**request, "seed": 2})
    assert first["events"] == second["events"]
    checked = of_type(first, "body_check")[0]
    assert checked["av"] == 2 + 16 + 2 + prog(2) + 8 and checked["dv"] == 1 + 13 + 0
    assert checked["outcome"] == "defender-bounced" and checked["bounce_feet"] == 8 + (16 - 13)


def archery(boy_msta, seed):
    bow = [{"name": "bow", "av": 50, "parry": 0, "size": 4, "ranged": "bow"}]
    people = [fighter("archer", "red", 0, 90, bow), fighter("mark", "blue", 60, 270, CLUB),
              fighter("boy", "blue", 90, 270, CLUB)]
    people[2]["attributes"]["mSTA"] = boy_msta
    return {"state": {"combatants": people, "options": {"reprisals": False, "stray_fire": True}}, "seed": seed,
            "declarations": [
                {"combatant": "archer", "action": "fire", "target": "mark",
                 "dice": {"initiative": 9, "d100": [100, 1] + [100] * 4}},
                {"combatant": "mark", "action": "defend", "target": "archer",
                 "dice": {"initiative": 1, "d100": [100] * 4}},
                {"combatant": "boy", "action": "defend", "target": "archer",
                 "dice": {"initiative": 2, "d100": [100] * 4}}]}


def test_stray_fire_in_a_segment_flies_on_with_the_progressive_size_modifier(client):
    small, again = resolve(client, archery(9, 1)), resolve(client, archery(9, 2))
    assert small["events"] == again["events"]
    attacks = of_type(small, "attack")
    assert [(a["defender"], a["mode"]) for a in attacks] == [("mark", "ranged"), ("boy", "stray")]
    same_size = of_type(resolve(client, archery(12, 1)), "attack")
    assert attacks[1]["dv"] - same_size[1]["dv"] == prog(12 - 9)  # 3 points smaller than the mark: +6


def test_a_failed_check_against_a_glamourie_trap_is_always_surprise(client):
    body = post(client, "surprise-check", {"kind": "glamourie-trap", "target_av": 30, "spirit_sl": 6, "dv": 40,
                                           "aggressor_chance": 60})
    assert body["target_av"] == 36 and body["target_chance"] == trt(36, 40)
    exact = {k: Fraction(v) for k, v in body["probabilities_exact"].items()}
    assert sum(exact.values()) == 1
    assert exact["stunned"] + exact["overwhelmed"] >= 1 - Fraction(trt(36, 40), 100)


def test_healing_below_a_week_goes_by_the_day_at_least_one_per_wound(client):
    body = post(client, "healing", {"wounds": 9, "healer_sl": 40})
    days = body["schedule_days"]
    assert len(days) == 9 and days[0] <= 7 and min(days) >= 1
    assert all(b == max(1, a - 1) for a, b in pairwise(days))  # one day less per healed wound
    assert body["total_days"] == sum(days) and body["needs_skilled_healer"] is True


@pytest.mark.parametrize("foe, attacker, height, mode, blocked", [
    (6, 4, 6, "common", True), (5, 4, 6, "common", False), (2, 0, 6, "close", False), (8, 9, 6, "common", False)])
def test_melee_mode_and_the_two_size_reach_rule(client, foe, attacker, height, mode, blocked):
    body = post(client, "melee-spacing", {"foe_weapon_size": foe, "foe_height": height,
                                          "attacker_weapon_size": attacker})
    assert body["mode"] == mode and body["body_blocked"] is blocked
    assert body["spacing_feet"] == (0 if mode == "close" else foe - height / 2)


@pytest.mark.parametrize("sl, heals", [(0, False), (8, True)])
def test_mortal_wounds_heal_only_with_a_healer(client, sl, heals):
    body = post(client, "healing", {"wounds": 7, "healer_sl": sl})
    assert body["needs_skilled_healer"] is True and body["heals"] is heals


def test_body_point_healing_days_less_cnd_mod_and_healer(client):
    body = post(client, "healing", {"damage": 10, "healer_sl": 4, "cnd_mod": 2})
    days = body["schedule_days"]
    assert days[0] == 10 - 2 - 4 // 4 and len(days) == 10 and min(days) >= 1


@pytest.mark.parametrize("built_in, at_hand, actions", [(False, True, 2), (True, True, 1)])
def test_goatsfoot_grab_and_hook_then_cock(client, built_in, at_hand, actions):
    body = post(client, "task", {"kind": "cock-crossbow", "crossbow": "light", "tool": "goatsfoot",
                                 "built_in": built_in, "tool_at_hand": at_hand, "strength": 13, "av": 20})
    assert Fraction(body["actions_exact"]) == actions and body["dv"] == 13
