"""Body checks, side-swipes and tackles declared in a Combat Segment: the resolver plays them with the
calculator's own numbers (the Body Check passages under "Opportunity Actions"; F39, F40)."""
from __future__ import annotations

import random

import pytest

from service.rules.errors import RulesError
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import check_declarations, resolve_segment
from service.rules.tactical.task_resolution import chance

SWORD = [{"name": "sword", "av": 50, "parry": 30, "size": 6, "weight_class": "medium"}]


def ann(**extra):
    """The README's attacker: AGL mod 2, mSTA 16, STR 15, two layers of armor, running at 8 mph."""
    return {"id": "ann", "side": "red", "attributes": {"STR": 15, "mSTA": 16, "AGL": 12, "HRT": 11},
            "mods": {"AGL": 2}, "weapons": SWORD, "armor": [{"type": "singlemail"}, {"type": "padded"}],
            "speed_mph": 8, "position": {"x": 0, "y": 0}, "facing": 90, **extra}


def bob(**extra):
    """The README's defender: AGL mod 1, mSTA 13, STR 12, standing 20 ft off and facing Ann."""
    return {"id": "bob", "side": "blue", "attributes": {"STR": 12, "mSTA": 13, "AGL": 12, "HRT": 11},
            "mods": {"AGL": 1}, "weapons": SWORD, "position": {"x": 20, "y": 0}, "facing": 270, **extra}


def play(body_check=None, ann_d100=(1,), bob_d100=(100,), bob_declares=None, options=None, **people):
    state = EncounterState.from_dict({"combatants": [people.get("ann", ann()), people.get("bob", bob())],
                                      "options": {"reprisals": False, **(options or {})}})
    decl = [{"combatant": "ann", "action": "body-check", "target": "bob",
             "body_check": body_check or {"str_mod": 2}, "dice": {"initiative": 9, "d100": list(ann_d100)}},
            {"combatant": "bob", "action": "defend", "target": "ann", **(bob_declares or {}),
             "dice": {"initiative": 1, "d100": list(bob_d100)}}]
    return resolve_segment(state, decl, random.Random(1))


def events(result, kind):
    return [e for e in result.events if e["type"] == kind]


def test_the_chapters_numbers_av_31_against_a_stand_of_14_and_an_11_ft_bounce():
    result = play(bob_d100=(100, 1))  # Ann succeeds, Bob fails, then Bob keeps his feet (1)
    checked = events(result, "body_check")[0]
    # 2 + 16 + 2, + progressive(2 layers) = 3, + 8 mph
    assert (checked["av"], checked["dv"], checked["defence"]) == (31, 14, "stand")
    assert (checked["attacker_chance"], checked["defender_chance"]) == (chance(31, 14, "ratio"),
                                                                          chance(14, 31, "ratio"))
    assert (checked["outcome"], checked["bounced"], checked["bounce_feet"]) == ("defender-bounced", "bob", 11)
    assert [d["total"] for d in checked["dice"]] == [1, 100]
    assert any("Body Checks, Side-swipes, Tackling" in step["rule"] for step in checked["trace"])
    footing = events(result, "check")
    assert [(c["combatant"], c["check"], c["av"], c["dv"], c["succeeded"]) for c in footing] == [
        ("bob", "keep-feet", 12, 29, True)]  # 8 mph + prog(31 - 25 = 6) = 29; only the lesser checks
    ann_at, bob_at = result.state.get("ann"), result.state.get("bob")
    assert bob_at.x - ann_at.x == pytest.approx(4.5 + 11)  # met at 4.5 ft, then bounced 11 ft on


def test_a_lost_footing_is_a_fall():
    result = play(bob_d100=(100, 100))
    assert [(e["combatant"], e["status"]) for e in events(result, "status")] == [("bob", "fell")]


def test_standing_by_the_larger_margin_bounces_the_attacker():
    result = play(ann_d100=(60,), bob_d100=(1,), bob=bob(attributes={"STR": 12, "mSTA": 20}))
    checked = events(result, "body_check")[0]
    assert checked["dv"] == 1 + 20 and checked["outcome"] == "attacker-bounced"
    # RULINGS 20: Bob stood still, so Ann flies her own 8 mph + the 4 points of mSTA he has over her
    assert (checked["bounced"], checked["bounce_feet"]) == ("ann", 8 + 20 - 16)
    assert events(result, "check") == []


def test_both_failing_stops_both_where_they_met():
    result = play(ann_d100=(100,), bob_d100=(100,))
    assert events(result, "body_check")[0]["outcome"] == "both-stop"
    assert result.state.get("bob").x == 20


def test_a_dodge_gets_the_sta_bonus_and_costs_the_attacker_his_footing():
    # Dodge 20 + (16 - 13) = 23 beats the stand of 14; Ann then checks AGL 12 against the footing DV 29.
    result = play(ann_d100=(90, 100), bob_d100=(1,), bob=bob(dodge_dv=20), options={"reprisals": True},
                  bob_declares={"reprisal": "none"})
    checked = events(result, "body_check")[0]
    assert (checked["defence"], checked["dv"], checked["outcome"]) == ("dodge", 23, "dodged")
    footing = [(c["combatant"], c["dv"], c["succeeded"]) for c in events(result, "check")]
    assert footing == [("ann", 29, False)]
    assert ("ann", "fell") in [(e["combatant"], e["status"]) for e in events(result, "status")]


def test_the_target_who_stood_it_takes_a_reprisal_the_attacker_cannot_dodge():
    result = play(ann_d100=(100,), bob_d100=(1, 100), ann=ann(dodge_dv=60), bob=bob(attributes={"mSTA": 20}),
                  options={"reprisals": True})
    reprisal = events(result, "attack")[0]
    assert (reprisal["attacker"], reprisal["mode"]) == ("bob", "reprisal")
    assert reprisal["defence"].startswith("parry")  # Dodge 60 would have been his best


def test_a_tackle_at_full_speed_bears_the_target_down():
    result = play(body_check={"kind": "tackle", "str_mod": 2}, ann_d100=(1,), bob_d100=(100,))
    checked = events(result, "body_check")[0]
    assert (checked["maneuver"], checked["av"], checked["dv"]) == ("tackle", 20 + 8, 14)  # no armor/shield
    assert checked["outcome"] == "borne-down"
    assert [(e["combatant"], e["status"]) for e in events(result, "status")] == [("bob", "fell")]


def test_a_tackle_needs_full_speed_and_a_body_check_needs_contact():
    slow = play(body_check={"kind": "tackle"}, ann=ann(position={"x": 15.5, "y": 0}))
    assert events(slow, "body_check") == [] and "full speed" in events(slow, "action_lost")[0]["reason"]
    standing = play(body_check={"kind": "side-swipe"}, ann=ann(speed_mph=0))
    assert events(standing, "body_check") == []
    assert "out of reach" in events(standing, "action_lost")[0]["reason"]


def test_a_side_swipe_adds_the_shield_size():
    result = play(body_check={"kind": "side-swipe", "str_mod": 2, "shield_size": 3})
    assert events(result, "body_check")[0]["av"] == 31 + 3


def test_body_check_fields_are_checked_with_their_path():
    state = EncounterState.from_dict({"combatants": [ann(), bob()]})
    with pytest.raises(RulesError) as wrong_action:
        check_declarations(state, [{"combatant": "ann", "target": "bob", "body_check": {"kind": "tackle"}}])
    assert wrong_action.value.field == ("declarations", 0, "body_check")
    with pytest.raises(RulesError) as kind:
        check_declarations(state, [{"combatant": "ann", "action": "body-check", "target": "bob",
                                    "body_check": {"kind": "shove"}}])
    assert kind.value.field == ("declarations", 0, "body_check", "kind")
    with pytest.raises(RulesError) as no_target:
        check_declarations(state, [{"combatant": "ann", "action": "body-check"}])
    assert no_target.value.field == ("declarations", 0, "target")
