"""Random smoting rounds: any checked state and declarations resolve (never a crash), every event has its
typed schema, the round counter moves by one and a replay with the dice used is identical."""
from __future__ import annotations

import json

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from service.api.smoting.events import EVENT_SCHEMAS
from service.rules.dice import DiceSource
from service.rules.smoting import RULESET

ENGINE = RULESET.engine
IDS = ["a", "b", "c", "d"]

fighter = st.fixed_dictionaries({
    "physical_rank": st.integers(1, 9), "mental_rank": st.integers(1, 9), "heroic": st.booleans(),
    "pc": st.booleans(), "action_dice_modifier": st.integers(-4, 6), "group": st.sampled_from(["none", "mob"]),
    "attributes": st.fixed_dictionaries({"str": st.integers(-3, 3), "bod": st.integers(-3, 3),
                                         "agl": st.integers(-3, 3)}),
    "xposures": st.fixed_dictionaries({"attack": st.integers(1, 6), "parry": st.integers(0, 4),
                                       "dodge": st.integers(0, 4), "block": st.integers(0, 3)}),
    "weapon": st.fixed_dictionaries({"speed": st.integers(2, 7), "damage_dice": st.integers(1, 6),
                                     "kind": st.sampled_from(["melee", "thrown"])}),
    "zone": st.sampled_from(["x", "y"]), "status": st.sampled_from(["alone", "in_contact"]),
    "flags": st.fixed_dictionaries({"stunned": st.booleans(), "running": st.booleans()}),
    "held_die": st.one_of(st.none(), st.integers(2, 6)),
    "lost_physical": st.integers(0, 3)})
declaration = st.fixed_dictionaries({
    "action": st.sampled_from(["attack", "move", "withdraw", "idle", "pass", "hold"]),
    "target": st.sampled_from(IDS), "defence": st.sampled_from(["none", "parry", "dodge", "block"]),
    "defend_if": st.sampled_from(["always", "spare"]), "soak": st.sampled_from(["auto", "always", "never"]),
    "move": st.fixed_dictionaries({"kind": st.sampled_from(["zone", "battle", "trivial"]),
                                   "to": st.sampled_from(["x", "y"])})})
options = st.fixed_dictionaries({"tie_break": st.sampled_from(["seeded", "state_order"]),
                                 "stun_recovery": st.sampled_from(["spend", "roll"]),
                                 "closing_trigger": st.sampled_from(["no_die_ge_2", "no_dice"]),
                                 "surprise_closing": st.sampled_from(["immediate", "after_surprisers"])})


@settings(max_examples=60, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])
@given(people=st.lists(fighter, min_size=2, max_size=4), plans=st.lists(declaration, min_size=4, max_size=4),
       chosen=options, surprise=st.booleans(), seed=st.integers(0, 2**32))
def test_random_rounds_resolve_and_replay(people, plans, chosen, surprise, seed):
    combatants = [{**p, "id": IDS[i], "side": "red" if i % 2 else "blue"} for i, p in enumerate(people)]
    ids = [c["id"] for c in combatants]
    state = ENGINE.read_state({"combatants": combatants, "options": chosen, "surprise": ["red"] if surprise else [],
                               "zones": [{"id": "x", "adjacent": ["y"]}, {"id": "y", "adjacent": ["x"]}]})
    declarations = []
    for ident, plan in zip(ids, plans):
        target = next((t for t in [plan["target"], *ids] if t in ids and t != ident))
        plan = {**plan, "target": target}
        if plan["move"]["kind"] == "battle":
            plan["move"] = {"kind": "battle", "to": target}
        declarations.append({"combatant": ident, **plan})
    checked = ENGINE.check_declarations(state, declarations)
    dice = DiceSource(seed)
    result = ENGINE.resolve(state, checked, dice)
    assert result.state.round == state.round + 1
    for event in result.events:
        assert not EVENT_SCHEMAS[event["type"]]().validate(event), event
    for entry in result.summary["countdown"]:
        assert entry["combatant"] in ids and (entry["die"] is None or 1 <= entry["die"] <= 6)
    used = [{"combatant": r.combatant, "role": r.role, "faces": list(r.dice)} for r in dice.rolled]
    replay = ENGINE.resolve(state, checked, DiceSource.for_round(None, [u for u in used if u["combatant"]] +
                                                               [u for u in used if not u["combatant"]]))
    out = lambda r: json.dumps([r.events, r.summary, ENGINE.write_state(r.state)], sort_keys=True)
    assert out(replay) == out(result)
    ENGINE.read_state(ENGINE.write_state(result.state))
