"""Combinations and intimidation declared in a Combat Segment: the resolver honours them (F38, F41)."""
from __future__ import annotations

import random

import pytest

from service.rules.errors import RulesError
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import check_declarations, resolve_segment


def person(ident, side, x=0.0, facing=0, weapons=None, **attrs):
    base = {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 30, "CRD": 12}
    base.update(attrs)
    return {"id": ident, "side": side, "attributes": base, "mods": {"AWA": 1, "HRT": 2},
            "weapons": weapons or [{"name": "sword", "av": 50, "parry": 30, "size": 6, "weight_class": "medium"}],
            "dodge_dv": 0, "position": {"x": x, "y": 0}, "facing": facing}


TWO = [{"name": "sword", "av": 45, "parry": 30, "size": 6, "weight_class": "medium"},
       {"name": "dagger", "av": 30, "parry": 10, "size": 2, "weight_class": "light"}]


def state(*people):
    return EncounterState.from_dict({"combatants": list(people), "options": {"reprisals": False}})


def events(result, kind):
    return [e for e in result.events if e["type"] == kind]


def duel(declaration, d100, foe_d100=(100,)):
    ann = person("ann", "red", facing=90, weapons=TWO)
    bob = person("bob", "blue", x=5, facing=270, weapons=[{"name": "club", "av": 40, "parry": 20, "size": 4,
                                                          "weight_class": "medium", "edged": False}])
    decl = [{"combatant": "ann", "action": "attack", "target": "bob", "dice": {"initiative": 9, "d100": d100},
             **declaration},
            {"combatant": "bob", "action": "defend", "target": "ann", "dice": {"initiative": 1, "d100": list(foe_d100)}}]
    return resolve_segment(state(ann, bob), decl, random.Random(3))


def test_in_concert_one_roll_capped_av_and_both_pots():
    plain = duel({}, [20])
    combined = duel({"combination": {"weapon": "dagger", "sl": 12}}, [20])
    attacks = events(combined, "attack")
    assert len(attacks) == 1 and attacks[0]["av"] == 45 + 12  # under the cap 45 + 30
    dagger_pot = (12 + 13 + 1) // 2 + 1 + 0  # (mSTA + STR)/2 = 12.5 -> 13, DB(size 2, light) = 1
    assert events(combined, "blow")[0]["pot"] == events(plain, "blow")[0]["pot"] + 14
    assert dagger_pot == 14


def test_in_concert_av_is_capped_at_both_avs():
    attack = events(duel({"combination": {"weapon": 1, "sl": 90}}, [100]), "attack")[0]
    assert attack["av"] == 75


def test_separate_but_simultaneous_rolls_each_weapon():
    attacks = events(duel({"combination": {"weapon": "dagger", "sl": 10, "mode": "separate"}}, [100, 100]), "attack")
    assert [a["weapon"] for a in attacks] == ["sword", "dagger"]
    assert [a["av"] for a in attacks] == [55, 40]


def test_a_failed_intimidation_lowers_the_guard_next_cs():
    # The blow lands (d100 20) and puts POT through; bob keeps his feet (1); then the Presence contest: ann
    # 100 fails, bob 1 succeeds; AV = 60 + POT through is above bob's DV 10: his guard drops by SL 14 - HRT
    # mod 2 = 12 next CS.
    result = duel({"intimidate": {"presence_av": 60, "sl": 14, "target_dv": 10}}, [20, 100], (1, 1))
    checks = {e["check"]: e for e in events(result, "check")}
    assert checks["intimidate"]["succeeded"] is False and checks["resist-intimidation"]["succeeded"] is True
    bob = result.state.get("bob")
    assert dict(bob.guard_down) == {"ann": 12} and bob.guard_down_segment == 2
    assert result.state.to_dict()["combatants"][1]["guard_down"] == {"segment": 2, "against": {"ann": 12}}
    after = resolve_segment(result.state, [
        {"combatant": "ann", "action": "attack", "target": "bob", "dice": {"initiative": 9, "d100": [100]}},
        {"combatant": "bob", "action": "defend", "target": "ann", "dice": {"initiative": 1}}], random.Random(4))
    assert events(after, "attack")[0]["dv"] == 20 - 12


def test_a_successful_intimidation_with_the_larger_av_can_make_him_surrender():
    result = duel({"intimidate": {"presence_av": 60, "sl": 14, "target_dv": 10}}, [20, 1], (1, 100, 100))
    reasons = [e["reason"] for e in events(result, "status")]
    assert any("surrenders" in r for r in reasons)


def test_maneuvers_refused_on_the_wrong_action_or_weapon():
    s = state(person("ann", "red", weapons=TWO), person("bob", "blue", x=5))
    with pytest.raises(RulesError) as bad:
        check_declarations(s, [{"combatant": "ann", "action": "move", "to": {"x": 1, "y": 0},
                                "combination": {"weapon": 1, "sl": 3}}])
    assert bad.value.field == ("declarations", 0, "combination")
    with pytest.raises(RulesError) as same:
        check_declarations(s, [{"combatant": "ann", "target": "bob", "combination": {"weapon": 0, "sl": 3}}])
    assert same.value.field == ("declarations", 0, "combination", "weapon")
    with pytest.raises(RulesError) as odd:
        check_declarations(s, [{"combatant": "ann", "target": "bob", "intimidate": {"presence_av": "x", "sl": 1,
                                                                                   "target_dv": 1}}])
    assert odd.value.field == ("declarations", 0, "intimidate", "presence_av")


def shoot(bystander_x, stray_fire=True, d100=(100, 1)):
    bow = [{"name": "bow", "av": 50, "parry": 0, "size": 4, "ranged": "bow"}]
    archer = person("archer", "red", facing=90, weapons=bow)
    mark = person("mark", "blue", x=60, facing=270)
    boy = person("boy", "blue", x=bystander_x, mSTA=9)
    s = EncounterState.from_dict({"combatants": [archer, mark, boy],
                                  "options": {"reprisals": False, "stray_fire": stray_fire}})
    decl = [{"combatant": "archer", "action": "fire", "target": "mark", "dice": {"initiative": 9, "d100": list(d100)}},
            {"combatant": "mark", "action": "defend", "target": "archer", "dice": {"initiative": 1}},
            {"combatant": "boy", "action": "defend", "target": "archer", "dice": {"initiative": 2}}]
    return resolve_segment(s, decl, random.Random(5))


def test_a_missed_shot_flies_on_at_the_figure_in_line():
    attacks = events(shoot(90), "attack")
    assert [(a["defender"], a["mode"], a["outcome"]) for a in attacks] == [
        ("mark", "ranged", "bumble"), ("boy", "stray", "heroic")]
    plain = events(shoot(90, stray_fire=False), "attack")
    assert len(plain) == 1
    # the boy is 3 points smaller in mSTA: his DV gains progressive(3) = 6 over what the shot would face
    assert "size modifier +6" in str(attacks[1])


def test_stray_fire_ends_with_the_band():
    assert len(events(shoot(400), "attack")) == 1  # 400 ft: past the short band the mark stood in
