"""Invariants of the Combat Segment resolver over random encounters (hypothesis)."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment
from service.rules.tactical.task_resolution import chance as trt_chance

ARMOR = st.sampled_from([[], [{"type": "padded"}], [{"type": "singlemail"}, {"type": "padded"}],
                         [{"type": "field-plate"}], [{"type": "steel-shield"}, {"type": "doublemail"}]])


@st.composite
def encounters(draw):
    n = draw(st.integers(2, 6))
    people = []
    for i in range(n):
        people.append({
            "id": f"c{i}", "side": "red" if i % 2 else "blue",
            "attributes": {k: draw(st.integers(5, 20)) for k in ("STR", "mSTA", "CND", "AGL", "HRT", "P-RES", "CRD")},
            "mods": {"AWA": draw(st.integers(-2, 3)), "HRT": draw(st.integers(-2, 3))},
            "weapons": [{"name": "w", "av": draw(st.integers(0, 120)), "parry": draw(st.integers(0, 80)),
                         "size": draw(st.integers(0, 12)), "weight_class": draw(st.integers(0, 5)),
                         "edge": draw(st.sampled_from(["blunt", "edged", "pointed"]))}],
            "dodge_dv": draw(st.integers(0, 60)), "armor": draw(ARMOR), "actions": draw(st.integers(0, 3)),
            "wounds": draw(st.integers(0, 9)),
            "position": {"x": draw(st.integers(-20, 20)), "y": draw(st.integers(-20, 20))},
            "facing": draw(st.integers(0, 359)),
        })
    declarations = [{"combatant": f"c{i}", "action": draw(st.sampled_from(["attack", "charge", "wait", "move"])),
                     "target": f"c{(i + 1) % n}", "to": {"x": 0, "y": 0}} for i in range(n)]
    options = {"pulse_move": draw(st.booleans())}
    return EncounterState.from_dict({"combatants": people, "options": options}), declarations


@given(encounters(), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_resolver_invariants(encounter, seed):
    state, declarations = encounter
    result = resolve_segment(state, declarations, random.Random(seed))
    again = resolve_segment(state, declarations, random.Random(seed))
    assert json.dumps(result.events) == json.dumps(again.events)
    declared_actions = {c.id: c.actions for c in state.combatants}
    for d in declarations:
        if d.get("actions") is not None:
            declared_actions[d["combatant"]] = d["actions"]
    own = Counter(e["attacker"] for e in result.events if e["type"] == "attack" and e["mode"] in ("melee", "ranged"))
    for who, count in own.items():
        assert count <= declared_actions[who], (who, count)
    for before in state.combatants:
        after = result.state.get(before.id)
        assert after.wounds >= before.wounds
        for old, new in zip(before.armor, after.armor):
            assert new.durability <= old.durability and new.dr <= old.dr
    for attack in (e for e in result.events if e["type"] == "attack"):
        assert attack["chance"] == trt_chance(attack["av"], attack["dv"])
        face = attack["dice"][0]["total"]
        assert (face <= attack["chance"]) == (attack["outcome"] in ("heroic", "success"))


@given(encounters(), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_roster_obeys_the_tie_rules(encounter, seed):
    state, declarations = encounter
    result = resolve_segment(state, declarations, random.Random(seed))
    rosters = [e for e in result.events if e["type"] == "initiative"]
    if not rosters:
        return
    keys = [(r["initiative"], state.get(r["id"]).attribute("AGL"), state.get(r["id"]).attribute("HRT"))
            for r in rosters[0]["roster"]]
    assert keys == sorted(keys, reverse=True)
