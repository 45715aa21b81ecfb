"""RULINGS 20: a body check bounces either side by the impact speed (the attacker's mph, plus the target's
when both move) plus the other side's mSTA excess; a successful Dodge bounces nobody. The ruling's own
numbers, through the one function, the /body-check calculator and the Combat Segment resolver."""
from __future__ import annotations

import random

import pytest

from service.rules.tactical import body_check
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment
from tests.unit.tactical.test_segment_body_check import ann, bob

# (target mSTA, target moving at 6 mph, target bounced ft, attacker bounced ft)
EXAMPLES = [(18, False, 16, 12), (18, True, 22, 18), (25, False, 12, 15)]


def bodies(target_sta: int, moving: bool) -> tuple[body_check.Body, body_check.Body]:
    attacker = body_check.Body(agl_mod=2, modified_sta=22, str_mod=2, strength=15, speed_mph=12)
    target = body_check.Body(agl_mod=1, modified_sta=target_sta, str_mod=0, strength=12,
                             speed_mph=6 if moving else 0)
    return attacker, target


@pytest.mark.parametrize(("sta", "moving", "target_feet", "attacker_feet"), EXAMPLES)
def test_the_one_function_gives_the_rulings_numbers(sta, moving, target_feet, attacker_feet):
    attacker, target = bodies(sta, moving)
    assert body_check.bounce_feet(attacker, target, moving, "defender") == target_feet
    assert body_check.bounce_feet(attacker, target, moving, "attacker") == attacker_feet


@pytest.mark.parametrize(("sta", "moving", "target_feet", "attacker_feet"), EXAMPLES)
def test_the_calculator_answers_both_directions(client, sta, moving, target_feet, attacker_feet):
    defender = {"agl_mod": 1, "modified_sta": sta, "str_mod": 0, "strength": 12, "speed_mph": 6 if moving else 0}
    attacker = {"agl_mod": 2, "modified_sta": 22, "str_mod": 2, "strength": 15, "speed_mph": 12}
    body = client.post("/v1/tactical/body-check", json={"attacker": attacker, "defender": defender}).get_json()
    assert (body["defender_bounce_feet"], body["attacker_bounce_feet"]) == (target_feet, attacker_feet)


def test_the_calculator_bounces_nobody_off_a_dodge(client):
    attacker = {"agl_mod": 2, "modified_sta": 22, "str_mod": 2, "strength": 15, "speed_mph": 12}
    for defender_speed in (0, 6):
        defender = {"agl_mod": 1, "modified_sta": 18, "str_mod": 0, "strength": 12, "dodge": 30,
                    "speed_mph": defender_speed}
        body = client.post("/v1/tactical/body-check", json={"attacker": attacker, "defender": defender}).get_json()
        assert body["defence"] == "dodge" and body["attacker_bounce_feet"] == 0


def segment(target_sta: int, moving: bool, ann_d100: list[int], bob_d100: list[int], bob_dodge: int = 0) -> dict:
    """Ann (12 mph, mSTA 22) body-checks Bob 40 ft off; a moving Bob steps 3 ft toward her at 6 mph."""
    people = [ann(attributes={"STR": 15, "mSTA": 22, "AGL": 12, "HRT": 11}, speed_mph=12),
              bob(attributes={"STR": 12, "mSTA": target_sta, "AGL": 12, "HRT": 11}, speed_mph=6,
                  position={"x": 40, "y": 0}, dodge_dv=bob_dodge)]
    bob_action = {"action": "move", "to": {"x": 37, "y": 0}} if moving else {"action": "defend"}
    declarations = [{"combatant": "ann", "action": "body-check", "target": "bob", "body_check": {"str_mod": 2},
                     "dice": {"initiative": 9, "d100": ann_d100}},
                    {"combatant": "bob", "target": "ann", **bob_action, "dice": {"initiative": 1, "d100": bob_d100}}]
    state = EncounterState.from_dict({"combatants": people, "options": {"reprisals": False}})
    result = resolve_segment(state, declarations, random.Random(1))
    return next(e for e in result.events if e["type"] == "body_check")


@pytest.mark.parametrize(("sta", "moving", "target_feet", "attacker_feet"), EXAMPLES)
def test_the_resolver_bounces_whoever_loses_as_far(sta, moving, target_feet, attacker_feet):
    won = segment(sta, moving, [1], [100, 1])  # Ann succeeds, Bob fails (then keeps his feet)
    assert (won["outcome"], won["bounced"], won["bounce_feet"]) == ("defender-bounced", "bob", target_feet)
    lost = segment(sta, moving, [60], [1])  # Bob succeeds by the larger margin
    assert (lost["outcome"], lost["bounced"], lost["bounce_feet"]) == ("attacker-bounced", "ann", attacker_feet)


def test_the_resolver_bounces_nobody_off_a_successful_dodge():
    dodged = segment(18, False, [90, 1], [1], bob_dodge=40)
    assert (dodged["defence"], dodged["outcome"], dodged["bounced"], dodged["bounce_feet"]) == (
        "dodge", "dodged", None, 0)
