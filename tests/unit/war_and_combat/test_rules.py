"""war-and-combat rule by rule: task rolls, Defense by state, to-hit odds, damage, checks, wounds, movement."""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.war_and_combat import checks, damage, movement, option_specs, task, to_hit, wounds
from service.rules.war_and_combat.exact import chance_at_least

OPTIONS = option_specs.read({})


def opts(**changes):
    return option_specs.read(changes)


def test_a_task_must_beat_its_tl_unless_ties_succeed():
    assert task.need(13, 5, False) == 9 and task.need(13, 5, True) == 8
    assert not task.succeeds(13, 13, False) and task.succeeds(13, 13, True)
    assert chance_at_least(2) == 1 and chance_at_least(19) == 0 and chance_at_least(11) == Fraction(1, 2)


def test_defence_by_state():
    assert task.defence(6, 1, "normal", OPTIONS) == 17
    assert task.defence(6, 1, "turned", OPTIONS) == 16 == task.defence(6, 1, "pinned", OPTIONS)
    assert task.defence(7, 1, "flank", OPTIONS) == 10 + 3 + 1
    assert task.defence(7, 1, "flank", opts(flank_defence="half_defence")) == 18 // 2
    assert task.defence(7, 1, "rear", OPTIONS) == 5 == task.defence(7, 1, "defenceless", opts())
    assert task.defence(7, 1, "rear", opts(no_defence_def=2)) == 2
    assert task.defence(7, 1, "fallen", OPTIONS) == 12 == task.defence(7, 1, "crawling", OPTIONS)
    assert task.defence(7, 1, "stunned", OPTIONS) == 5 + 3
    assert task.defence(7, 1, "unconscious", OPTIONS) == 3 == task.defence(7, 1, "immobile", OPTIONS)
    assert task.defence(7, 1, "normal", OPTIONS, -2) == 16
    assert task.actions_per_flurry(4) == 2 and task.actions_per_flurry(5) == 3 and task.actions_per_flurry(10) == 4


def test_to_hit_odds_sum_to_one_and_chance_is_hit_plus_critical():
    q = to_hit.Question("melee", 13, 5, {"head": 1})
    found = to_hit.odds(q, OPTIONS)
    assert sum(found.probabilities.values()) == 1
    assert found.chance == found.probabilities["hit"] + found.probabilities["critical"]
    assert sum(found.extra_dice.values()) == found.chance
    assert found.locations["head"] == Fraction(10, 216)
    # without armor bonus: P(3d6 >= 9) lands
    plain = to_hit.odds(to_hit.Question("melee", 13, 5), OPTIONS)
    assert plain.chance == chance_at_least(9) and plain.probabilities["glance"] == 0
    # criticals need margin 5: total >= 18, i.e. 3d6 >= 13
    assert plain.probabilities["critical"] == chance_at_least(13)
    assert plain.extra_dice[1] == chance_at_least(13) - chance_at_least(18) and plain.extra_dice[2] == Fraction(1, 216)


def test_a_glance_is_a_hit_that_does_not_beat_the_armor_bonus():
    dice = DiceSource.for_calculator(None, {"attack": [3, 3, 3], "location": [1, 1, 2]})
    rolled = to_hit.roll(to_hit.Question("melee", 8, 0, {"head": 2}), OPTIONS, dice)
    assert (rolled.total, rolled.outcome, rolled.location, rolled.margin) == (9, "glance", "head", -1)
    dice = DiceSource.for_calculator(None, {"attack": [6, 6, 3], "location": [1, 1, 2]})
    rolled = to_hit.roll(to_hit.Question("melee", 8, 0, {"head": 2}), OPTIONS, dice)
    assert (rolled.outcome, rolled.margin, rolled.extra_dice) == ("critical", 5, 1)
    dice = DiceSource.for_calculator(None, {"attack": [6, 6, 3], "location": [1, 1, 2]})
    rolled = to_hit.roll(to_hit.Question("melee", 8, 0, {"head": 2}),
                         opts(critical_margin_includes_armor_bonus=False), dice)
    assert (rolled.outcome, rolled.margin, rolled.extra_dice) == ("critical", 7, 1)


def test_a_limb_side_is_a_d2_or_the_left():
    dice = DiceSource.for_calculator(None, {"attack": [6, 6, 6], "location": [3, 3, 3], "side": [2]})
    assert to_hit.roll(to_hit.Question("melee", 8, 0), OPTIONS, dice).location == "right_arm"
    dice = DiceSource.for_calculator(None, {"attack": [6, 6, 6], "location": [3, 3, 3]})
    assert to_hit.roll(to_hit.Question("melee", 8, 0), opts(limb_side="opposite"), dice).location == "left_arm"


def test_missile_target_levels():
    steps = []
    assert to_hit.missile_band(Fraction(4), Fraction(40)) == "point_blank"
    assert to_hit.missile_band(Fraction(41), Fraction(40)) == "medium"
    with pytest.raises(RulesError):
        to_hit.missile_band(Fraction(201), Fraction(40))
    assert to_hit.missile_tl("unaware_unmoving", "short", False, None, OPTIONS, steps) == 15
    assert to_hit.missile_tl("unaware_erratic", "long", True, None, OPTIONS, steps) == 40
    target = {"fighter_rank": 4, "agl_mod": 1}
    assert to_hit.missile_tl("aware_evading", "short", False, target, OPTIONS, steps) == 15 + 5 + 5
    assert to_hit.missile_tl("aware_evading", "short", False, target, opts(evading_defence="full"), steps) == 35
    assert to_hit.missile_tl("aware_evading", "point_blank", True, target, OPTIONS, steps) == 15 + 5
    assert to_hit.missile_tl("aware_evading", "point_blank", False, target,
                             opts(point_blank_aware_as_melee=False), steps) == 20
    assert to_hit.called_shot_penalty("short", True) == -5
    with pytest.raises(RulesError):
        to_hit.called_shot_penalty("medium", False)


@pytest.mark.parametrize("cap, text", [(-9, "0"), (-7, "1"), (-3, "1"), (-2, "1d3"), (2, "1d3"), (3, "1d6"),
                                       (8, "2d6-1"), (14, "3d6-2"), (47, "9d6-8"), (48, "10d6-9")])
def test_impact_dice(cap, text):
    assert damage.impact_dice(cap, OPTIONS).text == text


def test_impact_dice_options_at_the_table_edges():
    assert damage.impact_dice(60, opts(impact_beyond_table="cap")).text == "9d6-8"
    assert damage.impact_dice(-20, opts(impact_below_table="one_point")).text == "1"
    assert damage.thresholds(40, OPTIONS) == (20, 40, 80)
    assert damage.thresholds(40, opts(size_beyond_table="cap")) == (18, 36, 72)


def test_severity_is_strict_at_each_threshold():
    limits = damage.thresholds(9, OPTIONS)  # 5/9/18
    assert [damage.severity(e, limits) for e in (0, 1, 5, 6, 9, 10, 18, 19)] == \
        ["none", "light", "light", "serious", "serious", "critical", "critical", "mortal"]


def test_the_documents_damage_example():
    # cap 14 (3d6-2), margin 6 -> 1 extra d6, critical: 2+5+6 - 2 + 3 = 14 impact, all effective, penetrating
    blow = damage.make_blow(14, 6, "leg", 9, 0, {"absorption": 1, "penetration_threshold": 2},
                            {"penetration_value": 1, "damage_type": "cut"}, OPTIONS)
    assert blow.expression == "4d6-2" and blow.critical and blow.extra == 1
    dice = DiceSource.for_calculator(None, {"impact": [2, 5, 6], "critical": [3]})
    landed = damage.land(blow, damage.roll_impact(blow, dice))
    assert (landed.impact, landed.effective, landed.penetrating, landed.severity) == (14, 14, True, "critical")
    assert landed.wound_type == "cut" and landed.effects == ["disabled"] and landed.action_penalty == -7
    assert sum(damage.distribution(blow).values()) == 1


def test_absorption_and_penetration_of_an_ordinary_blow():
    blow = damage.make_blow(8, 1, "chest", 10, 1, {"absorption": 2, "penetration_threshold": 3},
                            {"penetration_value": 1, "damage_type": "pierce"}, OPTIONS)
    assert (blow.absorption, blow.penetration_limit) == (3, 2)
    assert damage.land(blow, 5).as_dict() == {"impact": 5, "effective_impact": 2, "penetrating": False,
                                              "severity": "light", "wound_type": None if False else "blunt",
                                              "effects": [], "action_penalty": -1}
    assert damage.land(blow, 9).penetrating and damage.land(blow, 9).wound_type == "pierce"
    assert damage.land(blow, 3).severity == "none"
    dist = damage.distribution(blow)
    assert dist["none"] == Fraction(6, 36)  # 2d6-1 <= 3: totals 2..4 -> 1+2+3 ways


def test_expressions_of_criticals():
    keep = damage.make_blow(0, 10, "head", 5, 0, {}, {}, OPTIONS)
    assert keep.expression == "1d3+2d6"
    flat = damage.make_blow(-5, 5, "head", 5, 0, {}, {}, OPTIONS)
    assert flat.expression == "1+1d6"
    drop = damage.make_blow(9, 5, "head", 5, 0, {}, {}, opts(critical_keeps_offset=False))
    assert drop.expression == "3d6"


def test_combat_options():
    assert damage.combat_option("disarm", "light") == {"column": "light", "effect": "fumble", "tl": 10,
                                                       "check_attribute": "dex"}
    assert damage.combat_option("disarm", "critical")["effect"] == "break"
    assert damage.combat_option("tackle", "superficial")["tl"] == 7
    assert damage.column(0, (5, 9, 18)) == "superficial" and damage.column(19, (5, 9, 18)) == "critical"


def test_checks_and_miss_by_bands():
    probs = checks.probabilities("stumble", 10, 0, False)
    assert sum(probs.values()) == 1 and probs["success"] == chance_at_least(11)
    assert probs["slip"] == Fraction(27, 216) and probs["flat"] == chance_at_least(3) - chance_at_least(4)
    assert checks.outcome("fumble", 6, 10, False) == "fly" and checks.outcome("fumble", 9, 10, False) == "drop"
    assert checks.default_tl("pass_through", OPTIONS, 3) == 16
    assert checks.default_tl("task", OPTIONS, None) is None


def test_wounds_add_up_per_location():
    cond = wounds.condition([{"location": "left_leg", "severity": "light"},
                             {"location": "left_leg", "severity": "serious"},
                             {"location": "right_arm", "severity": "light"}])
    assert cond.action_penalty == -4 and cond.movement == "half" and not cond.defeated
    belly = wounds.condition([{"location": "belly", "severity": "critical"}])
    assert belly.disabled == {"left_leg", "right_leg"} and belly.defeated and belly.movement == "crawl"
    head = wounds.condition([{"location": "head", "severity": "critical"}])
    assert head.unconscious and head.coup_de_grace
    arms = wounds.condition([{"location": "left_arm", "severity": "serious"},
                             {"location": "right_arm", "severity": "critical"}])
    assert arms.defeated and not arms.coup_de_grace


def test_movement_points_phases_and_costs():
    plan = movement.plan("jog", 0, [{"terrain": "open"}, {"direction": "flank", "terrain": "rough"},
                                    {"kind": "pivot"}, {"terrain": "slick", "obstacle": True}], OPTIONS)
    assert (plan.hexes, plan.per_phase, plan.action_penalty) == (6, 3, -2)
    assert [(s.cost, s.total, s.phase) for s in plan.steps] == [(1, 1, 1), (4, 5, 2), (1, 6, 2), (3, 9, 3)]
    assert [s.over_max_pace for s in plan.steps] == [False, False, False, True]
    assert plan.feet_per_round == Fraction(12 * 1250, 381) and plan.metres_per_second == Fraction(12, 5)
    assert movement.plan("run", 1, [], OPTIONS).hexes == 4 and movement.plan("run", 2, [], OPTIONS).hexes == 2
    assert movement.plan("sprint", 0, [], opts(sprint_hexes=12)).hexes == 12
    assert movement.terrain_cost("treacherous", "rough", True) == 4


def test_serious_vital_wound_leaves_the_stunned_defence():
    """Wound Effects › Stun: a serious head, chest or belly wound stuns (DEF 5 + half FR); a light one does not."""
    stunned = wounds.condition([{"location": "chest", "severity": "serious"}])
    assert stunned.stunning and wounds.defence_state(stunned, False, stunned.stunning) == "stunned"
    light = wounds.condition([{"location": "head", "severity": "light"}])
    assert not light.stunning
