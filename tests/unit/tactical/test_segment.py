"""The Combat Segment resolver: order of play, hand-checked blows, determinism, surprise and movement."""
from __future__ import annotations

import json
import random

import pytest

from service.rules.errors import RulesError
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import check_declarations, resolve_segment

PAD = [{"type": "padded"}]


def person(ident, av=50, parry=30, dodge=20, armor=None, side="red", x=0.0, y=0.0, facing=0, **attrs):
    base = {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11, "CRD": 12}
    base.update(attrs)
    return {"id": ident, "side": side, "attributes": base, "mods": {"AWA": 1, "HRT": 0},
            "weapons": [{"name": "sword", "av": av, "parry": parry, "size": 6, "weight_class": "medium"}],
            "dodge_dv": dodge, "armor": armor or [], "position": {"x": x, "y": y}, "facing": facing}


def state(*people, **options):
    return EncounterState.from_dict({"combatants": list(people), "options": options})


def types(result, kind):
    return [e for e in result.events if e["type"] == kind]


def test_a_hand_checked_blow():
    # Knight AV 70 vs the bandit's Parry 25: TRT ratio 70/95 = 73.7 -> 74. A supplied d100 of 10 hits
    # (Heroic only up to round(7.4) = 7). POT (14 + 16)/2 = 15 + DB(size 6, medium) 5 = 20; knock-back
    # 20 - 12 = 8 ft; padded DR 10 leaves 10; WT (12 + 12)/8 = 3, so 10 > 9 gives 3 wounds (Serious);
    # wear: padded 10 - DB 5 = 5. 10 does not exceed P-RES 11: no stun.
    knight = person("knight", av=70, parry=45, STR=16, mSTA=14, CND=15, HRT=14, side="red", facing=90)
    bandit = person("bandit", av=45, parry=25, dodge=15, armor=PAD, side="blue", x=5, facing=270)
    decl = [{"combatant": "knight", "action": "attack", "target": "bandit",
             "dice": {"initiative": 9, "d100": [10]}},
            {"combatant": "bandit", "action": "defend", "target": "knight", "dice": {"initiative": 2, "d100": [99]}}]
    result = resolve_segment(state(knight, bandit), decl, random.Random(1))
    attack = types(result, "attack")[0]
    assert (attack["av"], attack["dv"], attack["chance"], attack["outcome"]) == (70, 25, 74, "success")
    assert attack["dice"][0]["supplied"] is True
    blow = types(result, "blow")[0]
    assert (blow["pot"], blow["knockback_feet"], blow["pot_through_armor"]) == (20, 8, 10)
    assert (blow["wounds_inflicted"], blow["wound_level"]) == (3, "serious")
    assert blow["armor_after"] == [{"type": "padded", "dr": 5, "durability": 5}]
    footing = types(result, "check")[0]
    assert (footing["check"], footing["dv"], footing["chance"], footing["succeeded"]) == ("keep-feet", 36, 25, False)
    after = result.state.get("bandit")
    assert after.wounds == 3 and after.armor[0].dr == 5 and after.x == pytest.approx(13)


def test_initiative_passes_and_multiple_actions():
    quick = person("quick", side="red")
    slow = person("slow", side="blue")
    decl = [{"combatant": "quick", "action": "attack", "target": "slow", "actions": 2,
             "dice": {"initiative": 1, "d100": [100, 100]}, "reprisal": "none"},
            {"combatant": "slow", "action": "attack", "target": "quick", "dice": {"initiative": 10, "d100": [100]},
             "reprisal": "none"}]
    result = resolve_segment(state(quick, slow), decl, random.Random(3))
    roster = types(result, "initiative")[0]
    assert [r["id"] for r in roster["roster"]] == ["slow", "quick"]
    assert roster["passes"] == [["quick", "slow"], ["quick"]]
    attackers = [a["attacker"] for a in types(result, "attack")]
    assert attackers == ["quick", "slow", "quick"]
    second = types(result, "attack")[2]
    assert second["av"] == 25  # the second use of the sword this CS halves it (RULINGS 7)


def test_a_miss_gives_the_defender_a_reprisal_at_half_parry():
    a = person("a", av=50, parry=40, side="red")
    b = person("b", av=50, parry=30, side="blue")
    decl = [{"combatant": "a", "action": "attack", "target": "b", "dice": {"initiative": 10, "d100": [100]}},
            {"combatant": "b", "action": "wait", "dice": {"initiative": 1, "d100": [100]}}]
    result = resolve_segment(state(a, b), decl, random.Random(0))
    first, reprisal = types(result, "attack")
    assert first["outcome"] == "bumble" and reprisal["mode"] == "reprisal"
    # a's sword missed; against the Reprisal its Parry 40 is halved once (the failed attack does not
    # diminish it first): 20, level with the Dodge 20, and a parry wins ties.
    assert (reprisal["defence"], reprisal["dv"]) == ("parry:0", 20)


def test_rear_attacks_are_undefended():
    a = person("a", side="red", x=0, y=-5)
    b = person("b", side="blue", facing=0)
    decl = [{"combatant": "a", "action": "attack", "target": "b", "dice": {"d100": [100]}}]
    attack = types(resolve_segment(state(a, b), decl, random.Random(0)), "attack")[0]
    assert (attack["dv"], attack["defence"]) == (0, "none")


def test_same_seed_same_bytes_and_input_untouched():
    people = [person(f"p{i}", side="red" if i % 2 else "blue", x=i * 3) for i in range(6)]
    decl = [{"combatant": f"p{i}", "action": "attack", "target": f"p{(i + 1) % 6}"} for i in range(6)]
    s = state(*people)
    before = s.to_dict()
    one = json.dumps(resolve_segment(s, decl, random.Random(42)).events)
    two = json.dumps(resolve_segment(s, decl, random.Random(42)).events)
    assert one == two and s.to_dict() == before


def test_moving_into_reach_and_charging():
    runner = person("runner", side="red", y=-60, speed_mph=10)
    still = person("still", side="blue")
    decl = [{"combatant": "runner", "action": "charge", "target": "still", "dice": {"initiative": 10, "d100": [1]}},
            {"combatant": "still", "action": "wait", "dice": {"initiative": 1, "d100": [100, 100]}}]
    result = resolve_segment(state(runner, still), decl, random.Random(0))
    moved = types(result, "moved")[0]
    assert moved["feet"] == pytest.approx(60 - 5.4)
    blow = types(result, "blow")[0]
    assert "charge" in json.dumps(blow["trace"]).lower()


def test_pulse_move_ramps_and_counts_full_pulses():
    runner = person("runner", side="red", y=-200, speed_mph=10)
    still = person("still", side="blue")
    decl = [{"combatant": "runner", "action": "move", "to": {"x": 0, "y": 100}}]
    result = resolve_segment(state(runner, still, pulse_move=True), decl, random.Random(0))
    moves = types(result, "moved")
    assert [m["pulse"] for m in moves] == list(range(1, 11))
    assert moves[0]["rate"] == 0.5 and moves[1]["rate"] == 1.0
    assert sum(m["feet"] for m in moves) == pytest.approx(22 / 15 * 10 * 9.5, abs=0.01)
    assert result.state.get("runner").full_pulses == 9


def test_surprise_overwhelms_and_holds_the_target():
    a = person("a", side="red")
    b = person("b", side="blue")
    decl = [{"combatant": "a", "action": "attack", "target": "b",
             "surprise": {"chance": 60, "target_chance": 40, "roll": 50, "target_roll": 45},
             "dice": {"d100": [100]}, "reprisal": "none"},
            {"combatant": "b", "action": "attack", "target": "a"}]
    result = resolve_segment(state(a, b), decl, random.Random(0))
    sprung = types(result, "surprise")[0]
    assert (sprung["outcome"], sprung["duration_cs"], sprung["penalty"]) == ("overwhelmed", 2, 15)
    assert types(result, "attack")[0]["dv"] == 30 - 15  # the F6 penalty comes off b's parry
    assert any(e["combatant"] == "b" and "surprise" in e["reason"] for e in types(result, "action_lost"))
    held = result.state.get("b").surprise
    assert (held.state, held.cs_left, held.penalty) == ("overwhelmed", 2, 15)


def test_declarations_are_checked_with_field_paths():
    s = state(person("a"), person("b", side="blue"))
    with pytest.raises(RulesError) as error:
        check_declarations(s, [{"combatant": "a", "action": "attack", "target": "nobody"}])
    assert error.value.field == ("declarations", 0, "target")
    with pytest.raises(RulesError) as error:
        check_declarations(s, [{"combatant": "a", "action": "attack", "target": "b", "weapon": 3}])
    assert error.value.field == ("declarations", 0, "weapon")


def test_pain_penalty_halves_at_the_end_of_each_segment():
    hurt = dict(person("hurt"), pain={"initial": 15, "age": 0})
    s = state(hurt, person("other", side="blue", x=100))
    after = resolve_segment(s, [], random.Random(0)).state.get("hurt")
    assert (after.pain_initial, after.pain_age) == (15, 1)


def test_an_other_action_with_a_duration_runs_across_segments():
    # Lighting a torch with flint and fire iron takes 3 actions (table 4-1): done in the third CS.
    s = state(person("lighter"), person("far", side="blue", x=100))
    decl = [{"combatant": "lighter", "action": "other", "note": "light torch (flint)", "duration": 3}]
    lefts = []
    for seed in range(3):
        result = resolve_segment(s, decl, random.Random(seed))
        lefts += [e["left"] for e in types(result, "task")]
        s = result.state
    assert lefts == [2, 1, 0]
    assert (s.get("lighter").task, s.get("lighter").task_left) == ("", 0)


def reprisal_fight(a_parry, a_dodge, *, actions=1, b_d100=(100,)):
    """a attacks b and misses (a bumble); b's Reprisal misses too; with more actions b strikes again
    (a never takes a Reprisal)."""
    a = person("a", av=50, parry=a_parry, dodge=a_dodge, side="red")
    b = person("b", av=50, parry=30, side="blue")
    decl = [{"combatant": "a", "action": "attack", "target": "b", "reprisal": "none", "actions": actions,
             "dice": {"initiative": 10, "d100": [100]}},
            *[{"combatant": "a", "action": "wait"}] * (actions - 1),
            {"combatant": "b", "action": "attack", "target": "a", "actions": actions,
             "dice": {"initiative": 1, "d100": list(b_d100)}}]
    return types(resolve_segment(state(a, b), decl, random.Random(0)), "attack")


def test_the_reprisal_defence_is_the_best_one_after_halving():
    # Parry 23 halves to 12 against the Reprisal; the Dodge 20 is better and is the one offered.
    _, reprisal, *_ = reprisal_fight(23, 20)
    assert (reprisal["mode"], reprisal["defence"], reprisal["dv"]) == ("reprisal", "dodge", 20)


def test_a_later_defence_with_the_recovered_weapon_is_at_full_dv_then_halves():
    # b has two actions: his Reprisal (a miss), then two attacks; a parries with the sword each time:
    # 40 -> 20 for the Reprisal, then 40 as if first, then 20 (the second use).
    attacks = reprisal_fight(40, 0, actions=3, b_d100=(100, 100, 100))
    assert [(x["mode"], x["attacker"], x["dv"]) for x in attacks] == [
        ("melee", "a", 30), ("reprisal", "b", 20), ("melee", "b", 40), ("melee", "b", 20), ("melee", "b", 10)]


def three_way(policy, **extra):
    """knight (red) strikes twice; bandits b1, b2 (blue). b1 starts unconscious when `b1_down`."""
    knight = person("knight", av=90, side="red", STR=18, mSTA=16)
    b1 = dict(person("b1", av=10, parry=1, dodge=1, side="blue"), status=extra.get("b1_status", "standing"))
    b2 = person("b2", av=10, parry=1, dodge=1, side="blue")
    decl = [{"combatant": "knight", "action": "attack", "target": extra.get("target", "b1"), "actions": 2,
             "target_policy": policy, "dice": {"initiative": 10, "d100": extra.get("d100", [1, 1])}},
            {"combatant": "b1", "action": "wait", "dice": {"d100": [100, 100]}},
            {"combatant": "b2", "action": "wait"}]
    return resolve_segment(state(knight, b1, b2, knockback_moves=False), decl, random.Random(5))


def test_first_standing_moves_on_to_the_next_foe_when_the_first_falls():
    result = three_way("first-standing", d100=[1, 1])  # two heroic hits of POT 2 x 22
    attacks = types(result, "attack")
    assert result.state.get("b1").status != "standing"
    assert [a["defender"] for a in attacks] == ["b1", "b2"]


def test_a_declared_target_who_fell_earlier_this_cs_costs_the_action():
    result = three_way("declared", d100=[20, 20])  # 7 wounds; b1 fails his footing and his P-RES
    assert result.state.get("b1").status == "unconscious"
    assert [a["defender"] for a in types(result, "attack")] == ["b1"]
    assert types(result, "action_lost")[0]["reason"] == "b1 fell before the blow"


def test_a_foe_down_when_the_cs_began_may_be_struck_on_purpose():
    result = three_way("declared", b1_status="unconscious", d100=[60, 60])
    assert [(a["defender"], a["dv"]) for a in types(result, "attack")] == [("b1", 0), ("b1", 0)]


def test_random_standing_only_draws_standing_foes_and_needs_no_target():
    decl = check_declarations(state(person("k", side="red"), person("b", side="blue")),
                              [{"combatant": "k", "action": "attack", "target_policy": "random-standing"}])
    assert decl[0]["target_policy"] == "random-standing"
    result = three_way("random-standing", b1_status="unconscious", d100=[60, 60])
    assert {a["defender"] for a in types(result, "attack")} == {"b2"}
    with pytest.raises(RulesError) as caught:
        check_declarations(state(person("k", side="red"), person("b", side="blue")),
                           [{"combatant": "k", "action": "attack"}])
    assert caught.value.field == ("declarations", 0, "target")
