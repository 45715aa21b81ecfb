"""Acceptance tests of `war-and-combat` through the public HTTP API only: the contract of the rules document §12
and the seed's own tables and numbers (001_d3fcdeb4abcc49d7.txt), with the exact values they state.

Every exact probability is computed here by enumerating the dice independently (never the service's code)."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from tests.acceptance.contract import exact_fraction, poster

BASE = "/v1/war-and-combat"
SIXTH = range(1, 7)
THREE_D6 = [sum(f) for f in product(SIXTH, repeat=3)]


def p3d6(predicate) -> Fraction:
    return Fraction(sum(1 for t in THREE_D6 if predicate(t)), 216)


exact = exact_fraction
post = poster(BASE)


def problem_fields(client, path, body) -> set[str]:
    answer = client.post(BASE + path, json=body)
    assert answer.status_code == 422, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    return {e["field"] for e in answer.get_json()["errors"]}


def location_of(total: int) -> str:
    """HIT LOCATIONS (and MISSILE HIT LOCATIONS): 3-5 head, 6-9 arm, 10-11 chest, 12-13 belly, 14-18 leg."""
    return "head" if total <= 5 else "arm" if total <= 9 else "chest" if total <= 11 else "belly" if total <= 13 else "leg"


def impact_values(cap: int) -> list[int]:
    """Every equally likely impact of the IMPACT CAP table row for `cap` (flat point, 1d3, or kd6-(k-1))."""
    if -7 <= cap <= -3:
        return [1]
    if -2 <= cap <= 2:
        return [1, 2, 3]
    k = (cap + 2) // 5
    return [sum(f) - (k - 1) for f in product(SIXTH, repeat=k)]


# --- Resolution of Attacks: 3d6 + skill + agl must beat DEF = 10 + FR + agl -----------------------------


@pytest.mark.parametrize("skill,agl,fr,dagl", [(4, 1, 2, 1), (0, 0, 0, 0), (10, 2, 8, -1), (-5, 0, 15, 3)])
def test_melee_chance_is_3d6_beating_the_defence(client, skill, agl, fr, dagl):
    body = post(client, "/to-hit", {"attacker": {"skill": skill, "attribute_mod": agl},
                                    "defender": {"fighter_rank": fr, "agl_mod": dagl}})
    tl = 10 + fr + dagl
    bonus = skill + agl
    assert body["mode"] == "melee" and body["tl"] == tl and body["roll_bonus"] == bonus
    assert body["need"] == tl - bonus + 1
    chance = p3d6(lambda t: t + bonus > tl)
    assert exact(body["chance_exact"]) == chance and body["chance"] == pytest.approx(float(chance))
    crit = p3d6(lambda t: t + bonus - tl >= 5)
    probs = {k: exact(v) for k, v in body["probabilities_exact"].items()}
    assert probs["critical"] == crit and probs["hit"] == chance - crit
    assert probs["miss"] == 1 - chance and probs["glance"] == 0
    assert sum(probs.values()) == 1


def test_tie_does_not_beat_the_target(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "rolls": {"attack": [3, 3, 4]}})
    assert body["roll"]["total"] == 10 and body["roll"]["outcome"] == "miss" and body["roll"]["margin"] == 0


def test_critical_extra_dice_every_five_points(client):
    """Critical Hits: beating the DEF by 5 or more; one extra impact die per 5 points."""
    body = post(client, "/to-hit", {"attacker": {"skill": 10}, "tl": 10})
    expected = {}
    for t in THREE_D6:
        margin = t + 10 - 10
        if margin >= 1:
            k = margin // 5
            expected[k] = expected.get(k, 0) + Fraction(1, 216)
    got = {int(k): exact(v) for k, v in body["extra_dice_exact"].items()}
    assert {k: v for k, v in got.items() if v} == expected
    assert sum(got.values()) == exact(body["chance_exact"])
    rolled = post(client, "/to-hit", {"attacker": {"skill": 10}, "tl": 10, "rolls": {"attack": [6, 6, 6], "location": [1, 1, 1]}})
    assert rolled["roll"]["margin"] == 18 and rolled["roll"]["outcome"] == "critical" and rolled["roll"]["extra_dice"] == 3
    assert rolled["roll"]["location_roll"] == 3 and rolled["roll"]["location"] == "head"


def test_hit_location_table(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 5})
    expected = {}
    for t in THREE_D6:
        expected[location_of(t)] = expected.get(location_of(t), 0) + Fraction(1, 216)
    assert {k: exact(v) for k, v in body["location_probabilities_exact"].items()} == expected
    assert expected["head"] == Fraction(10, 216) and expected["leg"] == Fraction(35, 216)


@pytest.mark.parametrize("faces,location", [([1, 1, 3], "head"), ([2, 2, 2], "arm"), ([3, 3, 3], "arm"),
                                            ([4, 3, 3], "chest"), ([4, 4, 3], "chest"), ([4, 4, 4], "belly"),
                                            ([5, 4, 4], "belly"), ([5, 5, 4], "leg"), ([6, 6, 6], "leg")])
def test_rolled_location_follows_the_bands(client, faces, location):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 0,
                                    "rolls": {"attack": [6, 6, 6], "location": faces, "side": [1]}})
    got = body["roll"]["location"]
    assert got == location or got == f"left_{location}"


def test_armor_defence_bonus_makes_near_hits_glance(client):
    """Resolution of Attacks: a hit that does not beat DEF plus the armor's bonus slides off the armor."""
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "defence_bonus": {"head": 3}})
    glance = Fraction(0)
    for a in THREE_D6:
        for loc in THREE_D6:
            if a > 10 and location_of(loc) == "head" and a <= 13:
                glance += Fraction(1, 216 * 216)
    assert exact(body["probabilities_exact"]["glance"]) == glance
    rolled = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "defence_bonus": {"head": 3},
                                      "rolls": {"attack": [4, 4, 4], "location": [1, 1, 1]}})
    assert rolled["roll"]["outcome"] == "glance" and rolled["roll"]["location"] == "head"


@pytest.mark.parametrize("state,fr,agl,defence", [("normal", 6, 1, 17), ("fallen", 6, 1, 11), ("crawling", 6, 1, 11),
                                                   ("stunned", 7, 2, 8), ("unconscious", 6, 1, 3), ("immobile", 6, 1, 3)])
def test_defence_by_state_from_wound_effects(client, state, fr, agl, defence):
    """Stumble?/Stumble: DEF 5 + FR; Stun: base 5 + half FR; Disabled/Knockout: 3, no FR or agility."""
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "defender": {"fighter_rank": fr, "agl_mod": agl, "state": state}})
    assert body["tl"] == defence
    combatant = post(client, "/combatant", {"fighter_rank": fr, "agl_mod": agl, "size": 10})
    assert combatant["defence_by_state"][state] == defence


def test_rear_attack_has_no_defence_default(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "defender": {"fighter_rank": 9, "agl_mod": 2, "state": "rear"}})
    assert body["tl"] == 5


# --- Ranged Combat --------------------------------------------------------------------------------------


@pytest.mark.parametrize("band,term", [("point_blank", 0), ("short", 5), ("medium", 10), ("long", 15), ("extreme", 20)])
@pytest.mark.parametrize("state,base", [("unaware_unmoving", 10), ("unaware_moving", 15), ("unaware_erratic", 20)])
def test_missile_target_levels(client, band, term, state, base):
    body = post(client, "/to-hit", {"attacker": {"skill": 3, "attribute_mod": 1},
                                    "missile": {"range_band": band, "target_state": state}})
    assert body["mode"] == "missile" and body["tl"] == base + term
    assert exact(body["chance_exact"]) == p3d6(lambda t: t + 4 > base + term)


def test_firing_into_melee_adds_five(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0},
                                    "missile": {"range_band": "short", "target_state": "unaware_moving", "into_melee": True}})
    assert body["tl"] == 25


@pytest.mark.parametrize("distance,band_tl", [(1, 10), (2, 15), (10, 15), (20, 20), (30, 25), (50, 30)])
def test_missile_band_from_distance(client, distance, band_tl):
    body = post(client, "/to-hit", {"attacker": {"skill": 0},
                                    "missile": {"distance_m": distance, "base_range_m": 10, "target_state": "unaware_unmoving"}})
    assert body["tl"] == band_tl


def test_missile_beyond_extreme_range_is_422(client):
    fields = problem_fields(client, "/to-hit", {"attacker": {"skill": 0},
                                                "missile": {"distance_m": 51, "base_range_m": 10, "target_state": "unaware_unmoving"}})
    assert any(f.startswith("missile") for f in fields)


@pytest.mark.parametrize("band,sub,penalty", [("point_blank", False, 0), ("point_blank", True, -3),
                                              ("short", False, -2), ("short", True, -5)])
def test_called_shot_penalties(client, band, sub, penalty):
    body = post(client, "/to-hit", {"attacker": {"skill": 5},
                                    "missile": {"range_band": band, "target_state": "unaware_unmoving"},
                                    "called_shot": {"location": "chest", "sub_location": sub}})
    assert body["roll_bonus"] == 5 + penalty
    assert exact(body["location_probabilities_exact"]["chest"]) == 1


def test_called_shot_beyond_short_is_422(client):
    problem_fields(client, "/to-hit", {"attacker": {"skill": 5},
                                       "missile": {"range_band": "medium", "target_state": "unaware_unmoving"},
                                       "called_shot": {"location": "chest"}})


@pytest.mark.parametrize("pace,penalty", [("walk", -1), ("jog", -2), ("run", -3), ("sprint", -5),
                                          ("jump", -5), ("dive", -5), ("swing", -4)])
def test_action_penalty_by_pace(client, pace, penalty):
    body = post(client, "/to-hit", {"attacker": {"skill": 5, "pace": pace}, "tl": 10})
    assert body["roll_bonus"] == 5 + penalty


# --- Damage: IMPACT CAP, absorption, penetration, DAMAGE THRESHOLDS, Wound Severity ---------------------


@pytest.mark.parametrize("cap,dice", [(-7, "1"), (-3, "1"), (-2, "1d3"), (2, "1d3"), (3, "1d6"), (7, "1d6"),
                                      (8, "2d6-1"), (12, "2d6-1"), (13, "3d6-2"), (17, "3d6-2"), (18, "4d6-3"),
                                      (22, "4d6-3"), (23, "5d6-4"), (28, "6d6-5"), (33, "7d6-6"), (38, "8d6-7"),
                                      (43, "9d6-8"), (47, "9d6-8")])
def test_impact_cap_table(client, cap, dice):
    body = post(client, "/damage", {"impact_cap": cap, "location": "chest", "target": {"size": 10}})
    assert body["impact_dice"] == dice and body["impact_cap"] == cap


def test_impact_cap_is_strength_plus_weapon(client):
    body = post(client, "/damage", {"attacker": {"strength": 10}, "weapon": {"impact_mod": 4},
                                    "location": "chest", "target": {"size": 10}})
    assert body["impact_cap"] == 14 and body["impact_dice"] == "3d6-2"


SIZE_ROWS = [(0, 0, 0, 1), (1, 0, 1, 2), (2, 1, 2, 4), (3, 2, 3, 6), (5, 3, 5, 10), (9, 5, 9, 18), (10, 5, 10, 20),
             (17, 9, 17, 34), (25, 13, 25, 50), (35, 18, 35, 70), (36, 18, 36, 72)]


@pytest.mark.parametrize("size,impaired,disabled,destroyed", SIZE_ROWS)
def test_damage_thresholds_table(client, size, impaired, disabled, destroyed):
    body = post(client, "/damage", {"impact_cap": 5, "location": "chest", "target": {"size": size}})
    assert body["thresholds"] == {"impaired": impaired, "disabled": disabled, "destroyed": destroyed}
    combatant = post(client, "/combatant", {"fighter_rank": 1, "size": size})
    assert combatant["thresholds"] == body["thresholds"]


def severity(e: int, size_row) -> str:
    _, i, d, x = size_row
    return "none" if e <= 0 else "light" if e <= i else "serious" if e <= d else "critical" if e <= x else "mortal"


@pytest.mark.parametrize("cap,absorption,pt,pv", [(14, 1, 2, 1), (9, 0, 0, 0), (25, 3, 6, 2), (0, 1, 5, 0)])
def test_damage_distribution_enumerated(client, cap, absorption, pt, pv):
    """Strike Results: E = impact - absorption; penetrating iff E > PT - PV; severity against size 9's row."""
    row = (9, 5, 9, 18)
    body = post(client, "/damage", {"impact_cap": cap, "location": "chest", "weapon": {"penetration_value": pv, "damage_type": "cut"},
                                    "target": {"size": 9, "armor": {"chest": {"absorption": absorption, "penetration_threshold": pt}}}})
    values = impact_values(cap)
    expected: dict[str, Fraction] = {}
    for v in values:
        e = v - absorption
        sev = severity(e, row)
        key = "none" if sev == "none" else f"{sev}_{'penetrating' if e > pt - pv else 'blunt'}"
        expected[key] = expected.get(key, 0) + Fraction(1, len(values))
    got = {k: exact(v) for k, v in body["probabilities_exact"].items()}
    assert {k: v for k, v in got.items() if v} == expected
    assert body["absorption"] == absorption and body["penetration_limit"] == pt - pv and body["critical"] is False


def test_document_example_damage_critical(client):
    """§13 example: cap 14 (3d6-2), margin 6 (one extra d6, critical: no absorption, penetrating)."""
    body = post(client, "/damage", {"impact_cap": 14, "margin": 6, "location": "left_leg",
                                    "weapon": {"penetration_value": 1, "damage_type": "cut"},
                                    "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}},
                                    "rolls": {"impact": [2, 5, 6], "critical": [3]}})
    assert body["critical"] is True and body["critical_dice"] == 1 and body["impact_expression"] == "4d6-2"
    assert body["absorption"] == 0 and body["penetration_limit"] is None
    roll = body["roll"]
    assert roll["impact"] == 2 + 5 + 6 + 3 - 2 == 14 and roll["effective_impact"] == 14 and roll["penetrating"] is True
    assert roll["severity"] == "critical" and roll["wound_type"] == "cut"
    assert roll["effects"] == ["disabled"] and roll["action_penalty"] == -7
    supplied = [d for d in body["dice"] if d.get("supplied")]
    assert supplied, body["dice"]
    again = post(client, "/damage", {"impact_cap": 14, "margin": 6, "location": "left_leg",
                                     "weapon": {"penetration_value": 1, "damage_type": "cut"},
                                     "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}},
                                     "rolls": {"impact": [2, 5, 6], "critical": [3]}})
    assert again["roll"] == roll


def test_critical_distribution_ignores_armor(client):
    body = post(client, "/damage", {"impact_cap": 5, "margin": 10, "location": "chest",
                                    "target": {"size": 10, "armor": {"chest": {"absorption": 50, "penetration_threshold": 50}}}})
    row = (10, 5, 10, 20)
    expected: dict[str, Fraction] = {}
    for faces in product(SIXTH, repeat=3):  # 1d6 + 2 extra d6
        sev = severity(sum(faces), row)
        expected[f"{sev}_penetrating"] = expected.get(f"{sev}_penetrating", 0) + Fraction(1, 216)
    got = {k: exact(v) for k, v in body["probabilities_exact"].items()}
    assert {k: v for k, v in got.items() if v} == expected


@pytest.mark.parametrize("location,sev,effect,penalty", [
    ("head", "serious", "stun", -3), ("head", "critical", "knockout", -7), ("head", "light", None, -1),
    ("right_arm", "light", "fumble_check", -1), ("right_arm", "serious", "fumble", -3), ("right_arm", "critical", "disabled", -7),
    ("chest", "serious", "stun", -3), ("chest", "critical", "disabled", -7),
    ("belly", "serious", "stun", -3), ("belly", "critical", "disabled", -7),
    ("left_leg", "light", "stumble_check", -1), ("left_leg", "serious", "stumble", -3), ("left_leg", "critical", "disabled", -7),
    ("chest", "mortal", "mortal", None)])
def test_wound_effects_table(client, location, sev, effect, penalty):
    """Size 10 (5/10/20): impact 3 light, 8 serious, 15 critical, 25 mortal with no armor."""
    impact = {"light": 3, "serious": 8, "critical": 15, "mortal": 25}[sev]
    cap = {3: 3, 8: 8, 15: 18, 25: 28}[impact]  # a row whose dice reach the value
    k = 0 if cap < 8 else (cap + 2) // 5
    faces = [impact] if k == 0 else None
    if k:
        remaining = impact + (k - 1)
        faces = []
        for _ in range(k):
            f = min(6, remaining - (k - 1 - len(faces)))
            faces.append(f)
            remaining -= f
    body = post(client, "/damage", {"impact_cap": cap, "location": location, "target": {"size": 10},
                                    "rolls": {"impact": faces}})
    roll = body["roll"]
    assert roll["impact"] == impact and roll["severity"] == sev
    assert roll["effects"] == ([effect] if effect else [])
    assert roll["action_penalty"] == penalty


def test_exceeding_is_strict(client):
    """Light wounds do not exceed Impaired: E equal to the threshold is still light."""
    body = post(client, "/damage", {"impact_cap": 3, "location": "chest", "target": {"size": 10}, "rolls": {"impact": [5]}})
    assert body["roll"]["severity"] == "light"
    body = post(client, "/damage", {"impact_cap": 3, "location": "chest", "target": {"size": 10}, "rolls": {"impact": [6]}})
    assert body["roll"]["severity"] == "serious"


def test_absorbed_blow_has_no_effect(client):
    body = post(client, "/damage", {"impact_cap": 3, "location": "chest", "rolls": {"impact": [2]},
                                    "target": {"size": 10, "armor": {"chest": {"absorption": 2, "penetration_threshold": 0}}}})
    assert body["roll"]["severity"] == "none" and body["roll"]["effective_impact"] <= 0


@pytest.mark.parametrize("attack,columns", [
    ("disarm", {"superficial": ("fumble", 4), "light": ("fumble", 10), "serious": ("fumble", 16), "critical": ("break", None)}),
    ("grapple", {"superficial": ("restrict", 4), "light": ("restrict", 10), "serious": ("restrict", 16), "critical": ("restrict", 19)}),
    ("subdual", {"superficial": ("shock", 4), "light": ("shock", 10), "serious": ("shock", 16), "critical": ("shock", 19)}),
    ("tackle", {"superficial": ("stumble", 7), "light": ("stumble", 13), "serious": ("stumble", 16), "critical": ("stumble", 19)}),
    ("throw", {"superficial": ("stumble", 7), "light": ("stumble", 13), "serious": ("stumble", 16), "critical": ("stumble", 19)}),
])
def test_combat_options_table(client, attack, columns):
    """COMBAT OPTIONS: size 10 (5/10/20); E 3 superficial, 8 light, 15 serious, 25 critical (STR only, no armor)."""
    for column, impact, cap, faces in [("superficial", 3, 3, [3]), ("light", 8, 8, [4, 5]),
                                       ("serious", 15, 18, [6, 6, 3, 3]), ("critical", 25, 28, [6, 6, 6, 6, 5, 1])]:
        body = post(client, "/damage", {"attacker": {"strength": cap}, "attack_type": attack, "location": "chest",
                                        "target": {"size": 10}, "rolls": {"impact": faces}})
        option = body["combat_option"]
        effect, tl = columns[column]
        assert option["column"] == column and option["effect"] == effect, (column, option)
        if tl is not None:
            assert option["tl"] == tl


# --- Checks: Fumble?/Stumble? vs 10 and the miss-by bands ------------------------------------------------


def test_fumble_check_bands(client):
    body = post(client, "/check", {"kind": "fumble", "attribute_mod": 1})
    assert body["tl"] == 10 and body["need"] == 10
    expected = {"success": p3d6(lambda t: t + 1 > 10), "slip": p3d6(lambda t: t + 1 == 10),
                "drop": p3d6(lambda t: 1 <= 10 - t - 1 <= 3), "fly": p3d6(lambda t: 10 - t - 1 >= 4)}
    assert {k: exact(v) for k, v in body["probabilities_exact"].items()} == expected


def test_stumble_n_bands(client):
    body = post(client, "/check", {"kind": "stumble", "tl": 13})
    miss = lambda t: 13 - t
    expected = {"success": p3d6(lambda t: t > 13), "slip": p3d6(lambda t: miss(t) == 0),
                "knees": p3d6(lambda t: 1 <= miss(t) <= 3), "hands_and_knees": p3d6(lambda t: 4 <= miss(t) <= 6),
                "flat": p3d6(lambda t: miss(t) >= 7)}
    assert {k: exact(v) for k, v in body["probabilities_exact"].items()} == expected
    rolled = post(client, "/check", {"kind": "stumble", "tl": 13, "rolls": {"check": [1, 2, 2]}})
    assert rolled["roll"] == {"total": 5, "margin": -8, "outcome": "flat"} or (
        rolled["roll"]["total"] == 5 and rolled["roll"]["outcome"] == "flat")


def test_task_check_with_penalties(client):
    body = post(client, "/check", {"kind": "task", "skill": 3, "attribute_mod": 1, "modifiers": 2, "action_penalty": 3,
                                   "pace": "run", "tl": 12})
    assert body["roll_bonus"] == 3 + 1 + 2 - 3 - 3
    assert exact(body["chance_exact"]) == p3d6(lambda t: t + 0 > 12)


def test_seed_reproduces_and_lists_dice(client):
    a = post(client, "/check", {"kind": "task", "tl": 10, "seed": 12345})
    b = post(client, "/check", {"kind": "task", "tl": 10, "seed": 12345})
    assert a["roll"] == b["roll"] and a["seed"] == 12345 and a["dice"]
    assert len(a["dice"][0]["dice"]) == 3 and a["dice"][0]["total"] == a["roll"]["total"]


# --- wounds, combatant, movement ------------------------------------------------------------------------


def test_wounds_worst_per_location_and_sum(client):
    body = post(client, "/wounds", {"wounds": [{"location": "right_arm", "severity": "light"},
                                               {"location": "right_arm", "severity": "serious"},
                                               {"location": "left_leg", "severity": "light"}], "fighter_rank": 4})
    assert body["action_penalty"] == -4
    assert body["per_location"]["right_arm"] == {"worst": "serious", "penalty": -3}
    assert body["per_location"]["head"]["worst"] is None


def test_coup_de_grace_conditions(client):
    three = [{"location": loc, "severity": "critical"} for loc in ("left_arm", "right_arm", "left_leg")]
    assert post(client, "/wounds", {"wounds": three})["coup_de_grace_eligible"] is True
    two = three[:2]
    assert post(client, "/wounds", {"wounds": two})["coup_de_grace_eligible"] is False
    ko = post(client, "/wounds", {"wounds": [{"location": "head", "severity": "critical"}]})
    assert ko["unconscious"] is True and ko["can_act"] is False and ko["coup_de_grace_eligible"] is True
    belly = post(client, "/wounds", {"wounds": [{"location": "belly", "severity": "critical"}]})
    assert belly["disabled_limbs"] == 2
    mortal = post(client, "/wounds", {"wounds": [{"location": "chest", "severity": "mortal"}]})
    assert mortal["mortal"] is True and mortal["can_act"] is False and mortal["coup_de_grace_eligible"] is True


def test_stumbled_legs_movement(client):
    one = post(client, "/wounds", {"wounds": [{"location": "left_leg", "severity": "serious"}]})
    both = post(client, "/wounds", {"wounds": [{"location": "left_leg", "severity": "serious"},
                                               {"location": "right_leg", "severity": "serious"}]})
    assert one["movement"] == "half" and both["movement"] == "crawl"


@pytest.mark.parametrize("fr,actions", [(0, 2), (4, 2), (5, 3), (9, 3), (10, 4), (15, 5)])
def test_actions_per_flurry(client, fr, actions):
    """Actions: 2, +1 every fifth Fighter rank."""
    body = post(client, "/combatant", {"fighter_rank": fr, "size": 10})
    assert body["actions_per_flurry"] == actions and body["initiative_bonus"] == fr


@pytest.mark.parametrize("pace,hexes", [("walk", 4), ("jog", 6), ("run", 8), ("crawl", 2), ("swim", 4)])
def test_movement_rate_by_pace(client, pace, hexes):
    body = post(client, "/movement", {"pace": pace})
    assert body["hexes_per_round"] == hexes and body["hexes_per_phase"] == hexes // 2
    assert body["metres_per_round"] == 2 * hexes and body["round_seconds"] == 5 and body["hex_metres"] == 2
    assert exact(body["metres_per_second_exact"]) == Fraction(2 * hexes, 5)
    assert exact(body["feet_per_round_exact"]) == Fraction(2 * hexes) * Fraction(1250, 381)
    got = client.get(f"{BASE}/movement?pace={pace}")
    assert got.status_code == 200 and got.get_json()["hexes_per_round"] == hexes


def test_movement_step_costs_and_max_pace(client):
    steps = [{"terrain": "open"}, {"terrain": "rough"}, {"direction": "flank"}, {"kind": "pivot"},
             {"terrain": "slick"}, {"terrain": "water"}, {"terrain": "rough", "uphill": True}, {"obstacle": True}]
    body = post(client, "/movement", {"pace": "jog", "steps": steps})
    costs = [s["cost"] for s in body["steps"]]
    assert costs == [1, 2, 2, 1, 2, 2, 4, 2]
    assert body["total_cost"] == sum(costs)
    assert [s["over_max_pace"] for s in body["steps"]][4:6] == [True, False]
    assert body["action_penalty"] == -2


def test_impaired_legs_movement(client):
    assert post(client, "/movement", {"pace": "run", "legs_impaired": 1})["hexes_per_round"] == 4
    assert post(client, "/movement", {"pace": "run", "legs_impaired": 2})["hexes_per_round"] == 2


# --- attack end to end, ruleset, errors -----------------------------------------------------------------


def test_attack_distribution_sums_to_one(client):
    body = post(client, "/attack", {"attacker": {"skill": 5}, "defender": {"fighter_rank": 3}, "impact_cap": 9,
                                    "target": {"size": 9}})
    probs = {k: exact(v) for k, v in body["probabilities_exact"].items()}
    assert sum(probs.values()) == 1 and probs["miss"] == 1 - p3d6(lambda t: t + 5 > 13)
    assert exact(body["chance_exact"]) == p3d6(lambda t: t + 5 > 13)


def test_attack_rolls_reproduce(client):
    body = {"attacker": {"skill": 5}, "defender": {"fighter_rank": 3}, "impact_cap": 9, "target": {"size": 9},
            "rolls": {"attack": [4, 4, 3], "location": [4, 4, 4], "impact": [3, 4]}}
    a = post(client, "/attack", body)
    assert a["roll"]["total"] == 16 and a["roll"]["outcome"] == "hit" and a["roll"]["location"] == "belly" and a["roll"]["impact"] == 6
    assert a["roll"]["severity"] == "serious"
    assert post(client, "/attack", body)["roll"] == a["roll"]


def test_ruleset_lists_options_assumptions_tables(client):
    answer = client.get("/v1/rulesets/war-and-combat")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["id"] == "war-and-combat"
    for name in ("tie_succeeds", "flank_defence", "no_defence_def", "limb_side", "critical_keeps_offset"):
        assert name in body["options"] and body["options"][name]["tag"] in {"DOC", "INF", "CORE", "DEF"}
        assert body["options"][name]["summary"]
    assert body["options"]["no_defence_def"]["default"] == 5
    assert body["assumptions"] and all({"id", "tag", "summary", "option", "source"} <= set(a) for a in body["assumptions"])
    names = {t["name"] for t in body["tables"]}
    assert {"wound-effects", "combat-options"} <= names
    for table in body["tables"]:
        got = client.get(table["href"])
        assert got.status_code == 200 and got.get_json()["name"] == table["name"]


def test_option_changes_the_answer(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "options": {"tie_succeeds": True}})
    assert body["need"] == 10 and exact(body["chance_exact"]) == p3d6(lambda t: t >= 10)


@pytest.mark.parametrize("path,body,field", [
    ("/to-hit", {"attacker": {"skill": 0}, "tl": 10, "bogus": 1}, "bogus"),
    ("/to-hit", {"attacker": {"skill": 99}, "tl": 10}, "attacker.skill"),
    ("/to-hit", {"attacker": {"skill": 0}, "tl": 10, "options": {"no_such_option": 1}}, "options.no_such_option"),
    ("/to-hit", {"attacker": {"skill": 0}, "tl": 10, "rolls": {"attack": [1, 7, 2]}}, "rolls.attack"),
    ("/damage", {"impact_cap": 10, "attacker": {"strength": 5}, "location": "chest", "target": {"size": 5}}, None),
    ("/damage", {"impact_cap": 10, "location": "knee", "target": {"size": 5}}, "location"),
    ("/check", {"kind": "stumble", "rolls": {"check": [1, 1, 1, 1]}}, "rolls.check"),
    ("/movement", {"pace": "warp"}, "pace"),
    ("/wounds", {"wounds": [{"location": "chest", "severity": "bad"}]}, "wounds.0.severity"),
])
def test_bad_input_names_the_field(client, path, body, field):
    fields = problem_fields(client, path, body)
    if field is not None:
        assert any(f == field or f.startswith(field + ".") for f in fields), fields


# --- batch 2: defender states, evading targets, checks, rounds -------------------------------------------


@pytest.mark.parametrize("state,defence", [("turned", 16), ("pinned", 16), ("flank", 14), ("flank_undefended", 5),
                                           ("defenceless", 5), ("unaware", 5)])
def test_other_defender_states(client, state, defence):
    """FR 6, agl +1: normal 17; turned/pinned -1; flank at half skill (10 + 3 + 1); no defence 5."""
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "defender": {"fighter_rank": 6, "agl_mod": 1, "state": state}})
    assert body["tl"] == defence


def test_def_modifier_adds_to_every_state(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0},
                                    "defender": {"fighter_rank": 6, "agl_mod": 1, "state": "fallen", "def_modifier": 2}})
    assert body["tl"] == 13


def test_aware_evading_target(client):
    """Aware, Evading: 15 + target's defence term (FR + agl by default) + range term."""
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "missile": {"range_band": "medium", "target_state": "aware_evading",
                                                                           "target": {"fighter_rank": 4, "agl_mod": 1}}})
    assert body["tl"] == 15 + 5 + 10
    full = post(client, "/to-hit", {"attacker": {"skill": 0}, "options": {"evading_defence": "full"},
                                    "missile": {"range_band": "medium", "target_state": "aware_evading",
                                                "target": {"fighter_rank": 4, "agl_mod": 1}}})
    assert full["tl"] == 15 + 15 + 10


def test_point_blank_aware_shot_is_a_melee_confrontation(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "missile": {"range_band": "point_blank", "target_state": "aware_evading",
                                                                           "target": {"fighter_rank": 4, "agl_mod": 1}}})
    assert body["tl"] == 15


def test_extra_dice_keys_start_at_zero(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 20})
    assert body["extra_dice_exact"] == {"0": "0/1"} and exact(body["chance_exact"]) == 0
    assert body["roll"] is None


def test_penetrating_blunt_weapon_keeps_blunt_type(client):
    body = post(client, "/damage", {"impact_cap": 3, "location": "chest", "weapon": {"damage_type": "blunt"},
                                    "target": {"size": 10}, "rolls": {"impact": [4]}})
    assert body["roll"]["penetrating"] is True and body["roll"]["wound_type"] == "blunt"
    assert exact(body["probabilities_exact"]["light_penetrating"]) == Fraction(5, 6)


def test_non_penetrating_cut_is_blunt(client):
    body = post(client, "/damage", {"impact_cap": 3, "location": "chest", "weapon": {"damage_type": "cut"},
                                    "target": {"size": 10, "armor": {"chest": {"absorption": 1, "penetration_threshold": 4}}},
                                    "rolls": {"impact": [4]}})
    assert body["roll"]["effective_impact"] == 3 and body["roll"]["penetrating"] is False
    assert body["roll"]["wound_type"] == "blunt"


def test_impact_expression_merges_critical_dice(client):
    body = post(client, "/damage", {"impact_cap": 10, "margin": 10, "location": "chest", "target": {"size": 10}})
    assert body["impact_dice"] == "2d6-1" and body["critical_dice"] == 2 and body["impact_expression"] == "4d6-1"
    flat = post(client, "/damage", {"impact_cap": -5, "margin": 10, "location": "chest", "target": {"size": 10}})
    assert flat["impact_expression"] == "1+2d6"
    d3 = post(client, "/damage", {"impact_cap": 0, "margin": 5, "location": "chest", "target": {"size": 10}})
    assert d3["impact_expression"] == "1d3+1d6"


def test_restrict_and_shock_checks(client):
    body = post(client, "/check", {"kind": "restrict", "attribute_mod": 2, "tl": 16})
    assert set(body["probabilities_exact"]) == {"success", "failure"}
    assert exact(body["chance_exact"]) == p3d6(lambda t: t + 2 > 16)


def test_balance_and_pass_through_defaults(client):
    balance = post(client, "/check", {"kind": "balance"})
    assert balance["tl"] == 10
    through = post(client, "/check", {"kind": "pass_through", "danger_hexes": 3, "skill": 4, "attribute_mod": 1})
    assert through["tl"] == 10 + 2 * 3 and exact(through["chance_exact"]) == p3d6(lambda t: t + 5 > 16)


def test_task_check_requires_tl(client):
    problem_fields(client, "/check", {"kind": "task"})


def test_movement_get_rejects_bad_query(client):
    answer = client.get(f"{BASE}/movement?pace=warp")
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"


def test_movement_phases_carry_over(client):
    """Walk: 4 points, 2 per phase; costs that do not fit move to the next phase."""
    body = post(client, "/movement", {"pace": "walk", "steps": [{"terrain": "rough"}, {"terrain": "rough"}, {"terrain": "open"}]})
    assert [s["phase"] for s in body["steps"]] == [1, 2, 3]
    assert [s["total"] for s in body["steps"]] == [2, 4, 5]


def duel_state():
    sword = {"name": "sword", "skill": 6, "impact_mod": 3, "damage_type": "cut"}
    return {"ruleset": "war-and-combat", "round": 0, "options": {}, "combatants": [
        {"id": "a", "side": "red", "fighter_rank": 5, "strength": 10, "size": 10, "weapons": [sword],
         "position": {"q": 0, "r": 0}, "facing": 0},
        {"id": "b", "side": "blue", "fighter_rank": 3, "strength": 9, "size": 10, "weapons": [sword],
         "position": {"q": 1, "r": 0}, "facing": 3}]}


def test_round_resolves_and_reproduces(client):
    request = {"state": duel_state(), "declarations": [{"combatant": "a", "action": "engage", "target": "b"},
                                                       {"combatant": "b", "action": "engage", "target": "a"}], "seed": 99}
    first = post(client, "/rounds/resolve", request)
    assert first["round"] == 1 and first["seed"] == 99 and set(first["order"]) == {"a", "b"}
    for entry in first["initiative"]:
        fr = {"a": 5, "b": 3}[entry["combatant"]]
        assert entry["total"] == fr + sum(entry["dice"]) if isinstance(entry["dice"], list) else True
    types = {e["type"] for e in first["events"]}
    assert "initiative_rolled" in types and "round_ended" in types
    assert first["flurries"] and first["flurries"][0]["actions"] == {"a": 3, "b": 2}
    assert client.post(BASE + "/rounds/resolve", json=request).get_data() == client.post(BASE + "/rounds/resolve", json=request).get_data()


def test_round_initiative_from_supplied_rolls(client):
    request = {"state": duel_state(), "declarations": [], "seed": 1,
               "rolls": [{"combatant": "a", "role": "initiative", "faces": [1, 1, 1]},
                         {"combatant": "b", "role": "initiative", "faces": [6, 6, 6]}]}
    body = post(client, "/rounds/resolve", request)
    assert body["order"] == ["b", "a"]
    totals = {e["combatant"]: e["total"] for e in body["initiative"]}
    assert totals == {"a": 8, "b": 21}


def test_round_errors_name_declaration_and_rolls(client):
    bad_target = {"state": duel_state(), "declarations": [{"combatant": "a", "action": "engage", "target": "zz"}]}
    assert any(f.startswith("declarations.0") for f in problem_fields(client, "/rounds/resolve", bad_target))
    bad_face = {"state": duel_state(), "declarations": [], "rolls": [{"combatant": "a", "role": "initiative", "faces": [7, 1, 1]}]}
    assert any(f.startswith("rolls.0") for f in problem_fields(client, "/rounds/resolve", bad_face))


# --- batch 3: table edges, options, rolls rules ----------------------------------------------------------


def test_impact_cap_beyond_and_below_table(client):
    assert post(client, "/damage", {"impact_cap": 48, "location": "chest", "target": {"size": 10}})["impact_dice"] == "10d6-9"
    capped = post(client, "/damage", {"impact_cap": 60, "location": "chest", "target": {"size": 10},
                                      "options": {"impact_beyond_table": "cap"}})
    assert capped["impact_dice"] == "9d6-8"
    assert post(client, "/damage", {"impact_cap": -8, "location": "chest", "target": {"size": 10}})["impact_dice"] == "0"


def test_size_beyond_table_extends(client):
    body = post(client, "/combatant", {"fighter_rank": 0, "size": 41})
    assert body["thresholds"] == {"impaired": 21, "disabled": 41, "destroyed": 82}


def test_flank_half_defence_option(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "options": {"flank_defence": "half_defence"},
                                    "defender": {"fighter_rank": 6, "agl_mod": 1, "state": "flank"}})
    assert body["tl"] == 17 // 2


def test_limb_side_opposite_names_the_left_limb(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 0, "options": {"limb_side": "opposite"},
                                    "rolls": {"attack": [6, 6, 6], "location": [6, 6, 6]}})
    assert body["roll"]["location"] == "left_leg"
    right = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 0,
                                     "rolls": {"attack": [6, 6, 6], "location": [6, 6, 6], "side": [2]}})
    assert right["roll"]["location"] == "right_leg"


def test_rolls_after_a_miss_are_ignored_and_not_listed(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 17,
                                    "rolls": {"attack": [1, 1, 1], "location": [2, 2, 2]}})
    assert body["roll"]["outcome"] == "miss" and body["roll"]["location"] is None and body["roll"]["location_roll"] is None
    assert [d["role"] for d in body["dice"]] == ["attack"]
    assert body["dice"][0]["supplied"] is True and body["dice"][0]["total"] == 3


def test_too_many_faces_is_422(client):
    fields = problem_fields(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "rolls": {"attack": [1, 2, 3, 4]}})
    assert any(f.startswith("rolls.attack") for f in fields)


def test_only_rolls_echoes_a_seed(client):
    body = post(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 0, "rolls": {"attack": [6, 6, 6]}})
    assert isinstance(body["seed"], int) and body["roll"]["location"] is not None


def test_attack_rejects_top_level_defence_bonus(client):
    fields = problem_fields(client, "/attack", {"attacker": {"skill": 0}, "tl": 10, "impact_cap": 5,
                                                "target": {"size": 10}, "defence_bonus": {"head": 1}})
    assert "defence_bonus" in fields


def test_to_hit_needs_exactly_one_target(client):
    problem_fields(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "defender": {"fighter_rank": 1}})
    problem_fields(client, "/to-hit", {"attacker": {"skill": 0}})


def test_bad_option_value_is_422(client):
    fields = problem_fields(client, "/to-hit", {"attacker": {"skill": 0}, "tl": 10, "options": {"limb_side": "up"}})
    assert any(f.startswith("options.limb_side") for f in fields)


def test_wounds_defence_in_worst_state(client):
    body = post(client, "/wounds", {"wounds": [{"location": "head", "severity": "serious"}], "fighter_rank": 6, "agl_mod": 1})
    # RULINGS 21: the stun is timed from the hit, so `defence` is the Defense after it, the stun beside it
    assert body["defence"] == 10 + 6 + 1 and body["stun"] == {"rounds": "1d6", "defence": 5 + 3}
    fallen = post(client, "/wounds", {"wounds": [{"location": "left_leg", "severity": "serious"}], "fighter_rank": 6, "agl_mod": 1})
    assert fallen["defence"] == 11


def test_attack_distribution_enumerated_with_armor(client):
    """The whole attack, enumerated here: 3d6 attack vs DEF 13, location 3d6, armor per location (absorption,
    penetration threshold, defence bonus), impact 1d6 plus one d6 per 5 points of margin on a critical."""
    armor = {"head": {"absorption": 2, "penetration_threshold": 1, "defence_bonus": 2},
             "chest": {"absorption": 1, "penetration_threshold": 3, "defence_bonus": 1}}
    body = post(client, "/attack", {"attacker": {"skill": 6}, "defender": {"fighter_rank": 3}, "impact_cap": 5,
                                    "weapon": {"penetration_value": 1, "damage_type": "pierce"},
                                    "target": {"size": 6, "armor": armor}})
    row, tl, bonus = (6, 3, 6, 12), 13, 6
    expected: dict[str, Fraction] = {}

    def add(key, p):
        expected[key] = expected.get(key, 0) + p

    locations: dict[str, Fraction] = {}
    for t in THREE_D6:
        locations[location_of(t)] = locations.get(location_of(t), 0) + Fraction(1, 216)
    for a in THREE_D6:
        total = a + bonus
        if total <= tl:
            add("miss", Fraction(1, 216))
            continue
        for loc, p_loc in locations.items():
            plate = armor.get(loc, {"absorption": 0, "penetration_threshold": 0, "defence_bonus": 0})
            margin = total - tl - plate["defence_bonus"]
            if margin <= 0:
                add("glance", Fraction(1, 216) * p_loc)
                continue
            k = margin // 5 if margin >= 5 else 0
            faces = list(product(SIXTH, repeat=1 + k))
            for f in faces:
                p = Fraction(1, 216) * p_loc / len(faces)
                if k:
                    e, pen = sum(f), True
                else:
                    e = sum(f) - plate["absorption"]
                    pen = e > plate["penetration_threshold"] - 1
                sev = severity(e, row)
                add("none" if sev == "none" else f"{sev}_{'penetrating' if pen else 'blunt'}", p)
    got = {k: exact(v) for k, v in body["probabilities_exact"].items()}
    assert {k: v for k, v in got.items() if v} == expected
    assert exact(body["chance_exact"]) == 1 - expected["miss"] - expected.get("glance", 0)


def test_critical_margin_without_armor_bonus_option(client):
    body = {"attacker": {"skill": 10}, "tl": 10, "defence_bonus": {"head": 3},
            "rolls": {"attack": [2, 2, 2], "location": [1, 1, 1]}}
    with_bonus = post(client, "/to-hit", body)["roll"]
    assert with_bonus["margin"] == 16 - 10 - 3 and with_bonus["outcome"] == "hit" and with_bonus["extra_dice"] == 0
    body["options"] = {"critical_margin_includes_armor_bonus": False}
    without = post(client, "/to-hit", body)["roll"]
    assert without["margin"] == 6 and without["outcome"] == "critical" and without["extra_dice"] == 1
