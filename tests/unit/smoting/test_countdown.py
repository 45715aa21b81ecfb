"""The countdown of one round (seed *The Countdown*, *Actions*, *Action Costs*, *Held Actions*, *Surprise*)
through the round engine, with every die supplied."""
from __future__ import annotations

import json

import pytest

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.smoting import RULESET

ENGINE = RULESET.engine


def fighter(ident: str, side: str, **extra) -> dict:
    return {"id": ident, "side": side, "physical_rank": 5, "mental_rank": 4, "xposures": {"attack": 4},
            **extra}


def run(people, declarations, rolls, options=None, **state):
    s = ENGINE.read_state({"combatants": people, "options": options or {}, **state})
    dice = DiceSource.for_round(None, rolls)
    result = ENGINE.resolve(s, ENGINE.check_declarations(s, declarations), dice)
    return result, dice


def faces(who: str, role: str, values: list[int]) -> dict:
    return {"combatant": who, "role": role, "faces": values}


def passes(*ids):
    return [{"combatant": i, "action": "pass"} for i in ids]


def test_the_seed_example_closes_when_the_closing_die_beats_every_die_left():
    # four players (6, 5, 4, 4 dice) against four monsters (4, 3, 3, 3 dice), everyone passing
    people = [fighter(f"p{i}", "players", pc=True, action_dice_modifier=m) for i, m in enumerate((2, 1, 0, 0), 1)]
    people += [fighter(f"m{i}", "monsters", action_dice_modifier=m) for i, m in enumerate((0, -1, -1, -1), 1)]
    rolls = [faces("p1", "action", [6, 5, 4, 3, 2, 2]), faces("p2", "action", [6, 5, 5, 2, 2]),
             faces("p3", "action", [6, 6, 5, 4]), faces("p4", "action", [6, 4, 2, 2]),
             faces("m1", "action", [6, 3, 2, 2]), faces("m2", "action", [6, 2, 2]),
             faces("m3", "action", [5, 2, 2]), faces("m4", "action", [4, 3, 2]),
             {"role": "closing", "faces": [3]}]
    declarations = [{"combatant": p["id"], "action": "idle"} for p in people]
    result, dice = run(people, declarations, rolls, {"tie_break": "state_order"})
    summary = result.summary
    assert dice.seed is None
    # all show a 6: most dice first (p1 6 dice, p2 5), then the players with four dice in state order
    assert [e["combatant"] for e in summary["countdown"][:4]] == ["p1", "p2", "p3", "p4"]
    assert [e["die"] for e in summary["countdown"]] == sorted((e["die"] for e in summary["countdown"]), reverse=True)
    assert summary["closing_die"] == 3 and summary["closed_by"] == "closing_die"
    # closing is called right after someone spends its last die of 2+; after it only dice of 3+ are called
    called = summary["closing_called_after"]
    last = summary["countdown"][called - 1]["combatant"]
    assert summary["action_dice"][last][-1] >= 2
    assert all(entry["die"] >= 3 for entry in summary["countdown"][called:])


def test_ties_go_to_most_dice_then_players_then_a_recorded_die():
    people = [fighter("a", "x"), fighter("b", "y", pc=True), fighter("c", "y", action_dice_modifier=1)]
    rolls = [faces("a", "action", [6, 1, 1, 1]), faces("b", "action", [6, 1, 1, 1]),
             faces("c", "action", [6, 1, 1, 1, 1]), {"role": "closing", "faces": [1]}]
    result, _ = run(people, passes("a", "b", "c"), rolls)
    assert [e["combatant"] for e in result.summary["countdown"]][:1] == ["c"]
    people[1]["pc"] = False
    rolls[-1:] = [{"role": "tie_break", "faces": [2]}, {"role": "closing", "faces": [1]}]
    result, dice = run(people, [{"combatant": i, "action": "idle"} for i in "abc"], rolls)
    order = [e["combatant"] for e in result.summary["countdown"]]
    assert order[:3] == ["c", "b", "a"]
    assert [r.role for r in dice.rolled].count("tie_break") == 1


def test_dice_below_the_weapon_speed_accumulate_and_a_one_can_add_one():
    people = [fighter("a", "x", weapon={"speed": 5}), fighter("b", "y", xposures={"attack": 0})]
    rolls = [faces("a", "action", [3, 3, 4, 1]), faces("b", "action", [2, 2]), faces("a", "attack", [1, 1, 1, 1]),
             {"role": "closing", "faces": [1]}]
    people[1]["action_dice_modifier"] = -2
    declarations = [{"combatant": "a", "action": "attack", "target": "b"}, {"combatant": "b", "action": "pass"}]
    result, _ = run(people, declarations, rolls)
    a_calls = [e for e in result.summary["countdown"] if e["combatant"] == "a"]
    assert (a_calls[0]["action"], a_calls[0]["plus_one"], a_calls[0]["die"]) == ("attack", True, 4)
    assert (a_calls[1]["action"], a_calls[1]["pool"]) == ("accumulate", 3)
    assert (a_calls[2]["action"], a_calls[2]["pool"]) == ("attack", 0)


def test_a_held_die_acts_right_after_an_enemy_action_and_carries_over():
    people = [fighter("a", "x"), fighter("b", "y")]
    rolls = [faces("a", "action", [6, 2, 1, 1]), faces("b", "action", [5, 4, 3, 2]), faces("b", "attack", [1, 1, 1, 1]),
             faces("a", "attack", [1, 1, 1, 1]), {"role": "closing", "faces": [6]}]
    declarations = [{"combatant": "a", "action": "hold", "target": "b"},
                    {"combatant": "b", "action": "attack", "target": "a"}]
    result, _ = run(people, declarations, rolls)
    actions = [(e["combatant"], e["action"]) for e in result.summary["countdown"]]
    assert actions[:3] == [("a", "hold"), ("b", "attack"), ("a", "held_action")]


def test_surprised_sides_roll_nothing_and_the_closing_die_comes_first():
    people = [fighter("a", "x"), fighter("b", "y")]
    rolls = [faces("a", "action", [6, 5, 2, 2]), {"role": "closing", "faces": [4]}, faces("a", "attack", [1] * 4)]
    result, _ = run(people, [{"combatant": "a", "action": "attack", "target": "b"}], rolls, surprise=["y"])
    summary = result.summary
    assert summary["action_dice"] == {"a": [6, 5, 2, 2]} and summary["closing_called_after"] == 0
    assert [e["die"] for e in summary["countdown"]] == [6, 5] and summary["closed_by"] == "closing_die"
    assert result.state.surprise == () and result.state.round == 1


def test_a_stunned_actor_spends_its_die_to_recover():
    people = [fighter("a", "x", flags={"stunned": True}), fighter("b", "y")]
    rolls = [faces("a", "action", [6, 5, 2, 2]), faces("b", "action", [3, 2, 2, 2]), {"role": "closing", "faces": [1]}]
    result, _ = run(people, passes("a", "b"), rolls)
    first = result.summary["countdown"][0]
    assert (first["combatant"], first["action"]) == ("a", "recover")
    assert not result.state.combatants[0]["flags"]["stunned"]


def test_supplied_dice_reproduce_a_round_byte_for_byte():
    people = [fighter("a", "x", heroic=True, xposures={"attack": 5, "parry": 3}, attributes={"str": 1}),
              fighter("b", "y", xposures={"attack": 4, "dodge": 2})]
    declarations = [{"combatant": "a", "action": "attack", "target": "b", "defence": "parry"},
                    {"combatant": "b", "action": "attack", "target": "a", "defence": "dodge"}]
    first, dice = run(people, declarations, [])
    dice_used = [{"combatant": r.combatant, "role": r.role, "faces": list(r.dice)} for r in dice.rolled]
    again, replay = run(people, declarations, dice_used)
    assert replay.seed is None
    out = lambda r: json.dumps([r.events, r.summary, ENGINE.write_state(r.state)], sort_keys=True)
    assert out(first) == out(again)


@pytest.mark.parametrize("declaration, field", [
    ({"combatant": "nobody"}, ("declarations", 0, "combatant")),
    ({"combatant": "a", "action": "attack"}, ("declarations", 0, "target")),
    ({"combatant": "a", "action": "move", "move": {"kind": "zone", "to": "moon"}}, ("declarations", 0, "move", "to")),
    ({"combatant": "a", "action": "fly"}, ("declarations", 0, "action")),
])
def test_bad_declarations_name_their_field(declaration, field):
    state = ENGINE.read_state({"combatants": [fighter("a", "x", zone="f"), fighter("b", "y", zone="f")],
                               "zones": [{"id": "f", "adjacent": []}]})
    with pytest.raises(RulesError) as refused:
        ENGINE.check_declarations(state, [declaration])
    assert refused.value.field == field


def test_an_unknown_melee_partner_is_refused():
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state({"combatants": [fighter("a", "x", engaged_with=["ghost"]), fighter("b", "y")]})
    assert refused.value.field == ("combatants", 0, "engaged_with", 0)
