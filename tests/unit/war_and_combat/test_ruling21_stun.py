"""RULINGS 21: a serious head, chest or belly wound stuns for `stun_rounds` from the hit; /wounds reports the
Defense after the stun with the stun beside it, and the round resolver gives the same numbers for the same
wound. The ruling's example: FR 6, AGL +1, a serious head wound: penalty -3, Defense 17, stunned 8."""
from __future__ import annotations

from service.rules.dice import DiceSource
from service.rules.war_and_combat import option_specs, wounds
from service.rules.war_and_combat.engine import ENGINE
from tests.unit.war_and_combat.test_round import ENGAGE, FIRST, A, B, queue

HEAD = [{"location": "head", "severity": "serious", "penetrating": True}]
WOUNDS = "/v1/war-and-combat/wounds"
B6 = {**B, "fighter_rank": 6, "agl_mod": 1}


def test_the_rules_give_the_rulings_numbers():
    options = option_specs.read(None)
    cond = wounds.condition(HEAD, False, options)
    assert cond.action_penalty == -3
    assert wounds.wound_defence(cond, 6, 1, options) == 17
    assert wounds.wound_defence(cond, 6, 1, options, stunned=True) == 8
    assert wounds.stun_of(cond, options, 6, 1) == wounds.Stun("1d6", 8)
    assert wounds.stun_of(wounds.condition([{"location": "head", "severity": "light"}]), options) is None


def test_wounds_reports_the_defence_after_the_stun_and_the_stun_beside_it(client):
    body = client.post(WOUNDS, json={"wounds": HEAD, "fighter_rank": 6, "agl_mod": 1}).get_json()
    assert (body["action_penalty"], body["defence"], body["stun"], body["can_act"]) == (
        -3, 17, {"rounds": "1d6", "defence": 8}, True)
    stunned = client.post(WOUNDS, json={"wounds": HEAD, "fighter_rank": 6, "agl_mod": 1, "stunned": True}).get_json()
    assert (stunned["defence"], stunned["stun"], stunned["can_act"]) == (8, {"rounds": "1d6", "defence": 8}, False)


def test_wounds_keeps_the_stun_rounds_option_and_no_stun_without_a_stunning_wound(client):
    body = client.post(WOUNDS, json={"wounds": HEAD, "fighter_rank": 6, "agl_mod": 1,
                                     "options": {"stun_rounds": "2d4+1"}}).get_json()
    assert body["stun"] == {"rounds": "2d4+1", "defence": 8}
    arm = client.post(WOUNDS, json={"wounds": [{"location": "left_arm", "severity": "serious"}],
                                    "fighter_rank": 6, "agl_mod": 1}).get_json()
    assert (arm["stun"], arm["defence"], arm["can_act"]) == (None, 17, True)
    no_rank = client.post(WOUNDS, json={"wounds": HEAD}).get_json()
    assert (no_rank["defence"], no_rank["stun"]) == (None, {"rounds": "1d6", "defence": None})


def tls_against_b(result) -> list[tuple[int, str]]:
    return [(e["tl"], e["state"]) for e in result.events if e["type"] == "attack_rolled" and e["target"] == "b"]


def test_the_round_resolver_builds_the_same_wound_and_agrees(client):
    """Round 1: a serious head wound (impact 4 + 4 - 1 = 7 against thresholds 5/10/20), stunned 1 round;
    round 2 b is stunned (once he is out of actions he is defenceless, as anyone), round 3 the stun is over."""
    state = ENGINE.read_state({"combatants": [A, B6]})
    misses = [queue("a", "attack", *[1] * 30), queue("b", "attack", *[1] * 30)]
    opening = FIRST + [queue("a", "attack", 6, 6, 4, *[1] * 30), queue("a", "location", 1, 1, 1),
                       queue("a", "impact", 4, 4), queue("b", "stun", 1), misses[1]]
    first = ENGINE.resolve(state, ENGINE.check_declarations(state, ENGAGE), DiceSource.for_round(1, opening))
    b = next(c for c in first.state.combatants if c["id"] == "b")
    assert [(w["location"], w["severity"]) for w in b["wounds"]] == [("head", "serious")]
    assert tls_against_b(first)[0] == (17, "normal") and set(tls_against_b(first)[1:]) == {(8, "stunned")}
    second = ENGINE.resolve(first.state, ENGINE.check_declarations(first.state, ENGAGE),
                            DiceSource.for_round(2, FIRST + misses))
    third = ENGINE.resolve(second.state, ENGINE.check_declarations(second.state, ENGAGE),
                           DiceSource.for_round(3, FIRST + misses))
    stunned_tl = {tl for tl, state in tls_against_b(second) if state == "stunned"}  # then out of actions
    after_tl = {tl for tl, _ in tls_against_b(third)}
    taken = [{k: w[k] for k in ("location", "severity", "penetrating")} for w in b["wounds"]]
    calculated = client.post(WOUNDS, json={"wounds": taken, "fighter_rank": 6, "agl_mod": 1}).get_json()
    during = client.post(WOUNDS, json={"wounds": taken, "fighter_rank": 6, "agl_mod": 1,
                                       "stunned": True}).get_json()
    assert stunned_tl == {during["defence"]} == {calculated["stun"]["defence"]} == {8}
    assert after_tl == {calculated["defence"]} == {17}
