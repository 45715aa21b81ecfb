"""One round of war-and-combat with every die supplied: the flurry's order, swaps, criticals, stun and the
state after it are exactly what the rules say (rules document §8)."""
from __future__ import annotations

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.war_and_combat.engine import ENGINE

import pytest

A = {"id": "a", "side": "x", "fighter_rank": 5, "strength": 10, "size": 10, "weapons": [{"name": "sword", "skill": 5}],
     "position": {"q": 0, "r": 0}, "facing": 0}
B = {"id": "b", "side": "y", "fighter_rank": 3, "strength": 12, "size": 10, "weapons": [{"name": "axe", "skill": 4}],
     "position": {"q": 1, "r": 0}, "facing": 3}
ENGAGE = [{"combatant": "a", "target": "b"}, {"combatant": "b", "target": "a"}]


def play(rolls, declarations=ENGAGE, people=(A, B)):
    state = ENGINE.read_state({"combatants": list(people)})
    checked = ENGINE.check_declarations(state, declarations)
    return ENGINE.resolve(state, checked, DiceSource.for_round(1, rolls))


def queue(who, role, *faces):
    return {"combatant": who, "role": role, "faces": list(faces)}


FIRST = [queue("a", "initiative", 6, 6, 6), queue("b", "initiative", 1, 1, 1),
         queue("a", "flurry_initiative", 6, 6, 6), queue("b", "flurry_initiative", 1, 1, 1)]


def test_misses_hand_the_attack_over_until_both_run_out():
    result = play(FIRST + [queue("a", "attack", 1, 1, 1, 1, 1, 2, 1, 1, 1), queue("b", "attack", 1, 1, 1, 1, 1, 1)])
    flurry = result.summary["flurries"][0]
    assert flurry["actions"] == {"a": 3, "b": 2}
    assert [(x["attacker"], x["tl"], x["total"], x["outcome"]) for x in flurry["attacks"]] == [
        ("a", 13, 8, "miss"), ("b", 15, 7, "miss"), ("a", 13, 9, "miss"), ("b", 15, 7, "miss"), ("a", 13, 8, "miss")]
    assert result.summary["order"] == ["a", "b"] and result.state.round == 1
    assert [e["type"] for e in result.events][:5] == ["initiative_rolled", "initiative_rolled", "engaged", "engaged",
                                                      "flurry_started"]


def test_a_critical_stuns_and_the_attacker_keeps_the_initiative():
    rolls = FIRST + [
        queue("a", "attack", 6, 6, 6, 1, 1, 1, 1, 1, 1),
        queue("a", "location", 4, 3, 3, 1, 1, 1, 1, 1, 1),  # chest, then the head twice
        queue("a", "impact", 3, 3, 1, 1, 1, 1), queue("a", "critical", 2, 2), queue("b", "stun", 4)]
    result = play(rolls)
    attacks = result.summary["flurries"][0]["attacks"]
    # 23 against 13: margin 10, two extra d6; 2d6-1 + 2d6 = 3+3-1+2+2 = 9, no absorption: serious (thresholds 5/10/20)
    assert (attacks[0]["outcome"], attacks[0]["location"], attacks[0]["effective_impact"], attacks[0]["severity"]) == \
        ("critical", "chest", 9, "serious")
    # stunned: Defense 5 + 3 // 2 = 6, no actions left, so Sigrid's side keeps attacking
    assert [(x["attacker"], x["tl"], x["outcome"]) for x in attacks[1:]] == [("a", 6, "hit"), ("a", 6, "hit")]
    b = next(c for c in result.state.combatants if c["id"] == "b")
    assert b["stunned_rounds"] == 4 and [w["severity"] for w in b["wounds"]] == ["serious", "light", "light"]
    assert b["wounds"][0] == {"location": "chest", "severity": "serious", "penetrating": True, "type": "cut"}
    stunned = [e for e in result.events if e["type"] == "stunned"]
    assert stunned == [{"seq": stunned[0]["seq"], "type": "stunned", "combatant": "b", "rounds": 4}]
    # the next round b is still stunned: no flurry actions, and the stun counts down at its end
    nxt = ENGINE.resolve(result.state, ENGINE.check_declarations(result.state, ENGAGE), DiceSource(3))
    assert nxt.summary["flurries"][0]["actions"]["b"] == 0
    assert next(c for c in nxt.state.combatants if c["id"] == "b")["stunned_rounds"] == 3


def test_a_mortal_blow_ends_the_flurry():
    rolls = FIRST + [queue("a", "attack", 6, 6, 6), queue("a", "location", 1, 1, 1),
                     queue("a", "impact", 6, 6), queue("a", "critical", 6, 6)]
    result = play(rolls, people=(A, {**B, "size": 5}))  # 6+6-1+12 = 23 > destroyed 10: mortal head wound
    types = [e["type"] for e in result.events]
    assert "out_of_fight" in types and len(result.summary["flurries"][0]["attacks"]) == 1
    out = next(e for e in result.events if e["type"] == "out_of_fight")
    assert out["status"] == "dying"


def test_walking_in_engages_and_an_unknown_role_is_refused():
    far = {**B, "position": {"q": 3, "r": 0}}
    moves = [{"combatant": "a", "target": "b", "path": [{"q": 1, "r": 0}]},
             {"combatant": "b", "target": "a", "path": [{"q": 2, "r": 0}]}]
    result = play(FIRST, moves, (A, far))
    moved = [e for e in result.events if e["type"] == "moved"]
    assert [(e["combatant"], e["to"]) for e in moved] == [("a", {"q": 1, "r": 0}), ("b", {"q": 2, "r": 0})]
    assert result.summary["flurries"]
    with pytest.raises(RulesError) as refused:
        play([queue("a", "damage", 1)])
    assert refused.value.field == ("rolls", 0, "role")


def test_every_event_type_has_a_schema_that_loads_it():
    from service.api.war_and_combat.events import EVENT_SCHEMAS
    far = {**B, "position": {"q": 3, "r": 0}}
    moves = [{"combatant": "a", "target": "b", "path": [{"q": 1, "r": 0}]},
             {"combatant": "b", "target": "a", "path": [{"q": 2, "r": 0}]}]
    for seed in range(20):
        state = ENGINE.read_state({"combatants": [A, far]})
        result = ENGINE.resolve(state, ENGINE.check_declarations(state, moves), DiceSource(seed))
        for event in result.events:
            assert EVENT_SCHEMAS[event["type"]]().load(event) == event


def test_a_surprised_fighter_neither_acts_nor_defends_in_the_first_round():
    rolls = [queue("b", "flurry_initiative", 6, 6, 6), queue("a", "flurry_initiative", 1, 1, 1),
             queue("a", "attack", 2, 2, 1)]
    result = play(rolls, people=(A, {**B, "surprised": True}))
    attacks = result.summary["flurries"][0]["attacks"]
    assert result.summary["flurries"][0]["actions"]["b"] == 0
    assert attacks[0]["attacker"] == "a" and attacks[0]["tl"] == 5  # no_defence_def
    assert not next(c for c in result.state.combatants if c["id"] == "b")["surprised"]
    later = ENGINE.read_state({"round": 1, "combatants": [A, {**B, "surprised": True}]})
    after = ENGINE.resolve(later, ENGINE.check_declarations(later, ENGAGE), DiceSource(1))
    assert after.summary["flurries"][0]["actions"]["b"] == 2


def test_a_missed_shot_into_a_melee_strikes_a_bystander():
    archer = {"id": "c", "side": "x", "fighter_rank": 2, "dex_mod": 1, "strength": 10, "size": 10,
              "weapons": [{"name": "bow", "skill": 6}], "position": {"q": -1, "r": 0}, "facing": 0}
    declarations = ENGAGE + [{"combatant": "c", "action": "shoot", "target": "b"}]
    rolls = [queue("c", "attack", 1, 1, 1, 6, 6, 6), queue("c", "stray", 1), queue("c", "location", 3, 4, 4)]
    result = play(rolls, declarations, (A, B, archer))
    shots = [e for e in result.events if e["type"] == "shot"]
    assert [(s["target"], s["stray"], s["outcome"]) for s in shots[:2]] == [("b", False, "miss"), ("a", True, "hit")]
    # 4 m at a 40 m bow is point blank: aware B is shot at like a melee, DEF 13, +5 into the melee; the stray
    # arrow is rolled at skill -5 (18 + 1 - 5) against a bystander taken as unaware and unmoving (10)
    assert (shots[0]["tl"], shots[0]["total"]) == (18, 10) and (shots[1]["tl"], shots[1]["total"]) == (10, 14)
