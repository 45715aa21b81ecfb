"""One truth for a melee exchange: the /to-hit calculator (`attack_roll.resolve`) and the Combat Segment
resolver give the same AV, DV, chance and outcome for the same situation, the Reprisal included
("Resolving the Battle", "Reprisal"; RULINGS 4-7, 14)."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.rounding import halve_times
from service.rules.tactical.attack_roll import Attack, resolve
from service.rules.tactical.combat_state import EncounterState
from service.rules.tactical.segment import resolve_segment
from service.rules.tactical.to_hit import Adjustments, defence_value

VALUE = st.integers(0, 90)
PAIN = st.tuples(st.integers(0, 40), st.integers(0, 3))


def fighter(ident: str, side: str, av: int, parry: int, dodge: int, free: int, pain: tuple[int, int]) -> dict:
    return {"id": ident, "side": side, "dodge_dv": dodge, "free_dodges": free,
            "weapons": [{"name": "sword", "av": av, "parry": parry, "size": 6, "weight_class": 2}],
            "pain": {"initial": pain[0], "age": pain[1]}}


def calculator(av: int, defences: list[tuple[int, Adjustments]], attacker_pain: int, defender_pain: int,
               method: str, face: int, attack_use: int = 1):
    """The calculator's answer for the defence that gives the highest DV (a parry first on ties), and
    that defence's index (None without one)."""
    answers = [resolve(Attack(av, dv, method=method, adjustments=Adjustments(
        **{**vars_of(adj), "attack_use": attack_use, "attacker_stun_penalty": attacker_pain,
           "defender_stun_penalty": defender_pain})), face) for dv, adj in defences]
    if not answers:
        return resolve(Attack(av, 0, method=method, adjustments=Adjustments(
            attack_use=attack_use, attacker_stun_penalty=attacker_pain)), face), None
    own = [defence_value(dv, adj)[0] for dv, adj in defences]  # penalties floor at 0: rank before them
    best = max(range(len(answers)), key=lambda i: own[i])
    return answers[best], best


def vars_of(adj: Adjustments) -> dict:
    return {name: getattr(adj, name) for name in Adjustments.__slots__}


def options(parry: int, dodge: int, free: int, reprisal: bool) -> list[tuple[int, Adjustments]]:
    out = [(parry, Adjustments(reprisal_same_weapon=reprisal))] if parry else []
    return out + ([(dodge, Adjustments(free_defence_uses=free))] if dodge else [])


@settings(max_examples=150, deadline=None)
@given(a=st.tuples(VALUE, VALUE, VALUE, st.integers(1, 3), PAIN), b=st.tuples(VALUE, VALUE, VALUE, st.integers(1, 3), PAIN),
       faces=st.tuples(st.integers(1, 100), st.integers(1, 100)), method=st.sampled_from(["ratio", "linear"]))
def test_an_exchange_gives_the_calculators_numbers(a, b, faces, method):
    state = EncounterState.from_dict({"combatants": [fighter("a", "red", *a), fighter("b", "blue", *b)],
                                      "options": {"task_resolution": method, "knockback_moves": False}})
    declared = [{"combatant": "a", "action": "attack", "target": "b", "dice": {"d100": [faces[0]]}},
                {"combatant": "b", "action": "wait", "dice": {"d100": [faces[1]]}}]
    attacks = [e for e in resolve_segment(state, declared, random.Random(0)).events if e["type"] == "attack"]
    pain_a, pain_b = halve_times(*a[4]), halve_times(*b[4])
    first, chosen = calculator(a[0], options(b[1], b[2], b[3], False), pain_a, pain_b, method, faces[0])
    assert (attacks[0]["av"], attacks[0]["dv"], attacks[0]["chance"], attacks[0]["outcome"]) == (
        first.av, first.dv, first.chance, first.outcome)
    if first.outcome in ("heroic", "success"):
        assert len(attacks) == 1
        return
    parried = chosen == 0 and b[1] > 0  # a parry is a use of the sword: the Reprisal is its second (RULINGS 7)
    back, _ = calculator(b[0], options(a[1], a[2], a[3], True), pain_b, pain_a, method, faces[1], 1 + parried)
    assert attacks[1]["mode"] == "reprisal"
    assert (attacks[1]["av"], attacks[1]["dv"], attacks[1]["chance"], attacks[1]["outcome"]) == (
        back.av, back.dv, back.chance, back.outcome)
