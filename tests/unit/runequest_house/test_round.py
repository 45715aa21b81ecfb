"""One melee round through the engine and the shared round resolver (rules document §8, §12.12)."""
from __future__ import annotations

import json

import pytest

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.runequest_house import RULESET

ENGINE = RULESET.engine
ANN = {"id": "ann", "side": "red", "characteristics": {"str": 13, "con": 12, "siz": 13, "int": 12, "dex": 15},
       "weapons": [{"name": "broadsword", "attack": 70, "parry": 50}], "shield": {"size": "medium", "ap": 12, "parry": 60},
       "armor": {"chest": ["ringmail", "soft_leather"]}}
BOB = {"id": "bob", "side": "blue", "characteristics": {"str": 16, "con": 14, "siz": 15, "int": 9, "dex": 8},
       "weapons": [{"name": "mace", "attack": 55, "parry": 45}]}
STATE = {"ruleset": "runequest-house", "round": 0, "options": {}, "combatants": [ANN, BOB]}
DECLARE = [{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "weapon": 0}, {"type": "parry"}]},
           {"combatant": "bob", "actions": [{"type": "attack", "target": "ann", "weapon": 0}, {"type": "dodge"}]}]


def resolve(declarations=DECLARE, rolls=(), seed=1, state=STATE):
    parsed = ENGINE.read_state(state)
    checked = ENGINE.check_declarations(parsed, declarations)
    return ENGINE.resolve(parsed, checked, DiceSource.for_round(seed, list(rolls)))


def test_orders_and_strike_ranks():
    result = resolve()
    assert result.summary["intent_order"] == ["bob", "ann"]       # lowest INT first
    assert result.summary["movement_order"] == ["ann", "bob"]     # highest DEX first
    assert [(s["combatant"], s["sr"]) for s in result.summary["strike_order"]] == [("ann", 6), ("bob", 7)]
    assert result.events[-1]["type"] == "round_ended" and result.state.round == 1


def test_a_special_hit_through_a_failed_dodge_with_supplied_dice():
    rolls = [{"combatant": "ann", "role": "attack", "faces": [10]}, {"combatant": "bob", "role": "defence", "faces": [90]},
             {"combatant": "ann", "role": "location", "faces": [19]}, {"combatant": "ann", "role": "damage",
                                                                       "faces": [1, 1]},
             {"combatant": "ann", "role": "bonus", "faces": [1]},
             {"combatant": "bob", "role": "attack", "faces": [100]}]
    result = resolve(rolls=rolls)
    kinds = [e["type"] for e in result.events]
    assert "damage_rolled" in kinds and "location_damaged" in kinds
    damage = next(e for e in result.events if e["type"] == "damage_rolled")
    assert damage["damage"] == 5 and damage["location"] == "head" and damage["expression"] == "2d8+2+1d4"
    bob = next(c for c in result.state.combatants if c["id"] == "bob")
    assert bob["location_hp"]["head"] == 0 and bob["hp"] == 10
    assert any(e["type"] == "disabled" and e["status"] == "unconscious" for e in result.events)
    # bob, disabled on SR 6, loses his SR 7 attack (it is still listed in strike_order)
    assert not any(e["type"] == "attack_rolled" and e["combatant"] == "bob" for e in result.events)


def test_a_parry_absorbs_and_a_bladed_parry_damages_a_failed_attack():
    rolls = [{"combatant": "ann", "role": "attack", "faces": [90]}, {"combatant": "bob", "role": "defence", "faces": [5]},
             {"combatant": "bob", "role": "attack", "faces": [30]}, {"combatant": "ann", "role": "defence", "faces": [30]},
             {"combatant": "bob", "role": "location", "faces": [1]}, {"combatant": "bob", "role": "damage", "faces": [8]},
             {"combatant": "bob", "role": "bonus", "faces": [4]}]
    result = resolve(rolls=rolls)
    parried = next(e for e in result.events if e["type"] == "parried")
    assert parried["combatant"] == "ann" and parried["item"] == "medium_shield"
    worn = [e for e in result.events if e["type"] == "weapon_damaged"]
    assert worn and worn[0]["combatant"] == "ann" and worn[0]["ap"] == 11  # 14 damage > 12 AP: the shield loses 1
    ann = next(c for c in result.state.combatants if c["id"] == "ann")
    assert ann["location_hp"]["right_leg"] == 5 - 2


def test_same_seed_same_answer_and_state_round_trips():
    one, two = resolve(seed=9), resolve(seed=9)
    assert json.dumps(one.events) == json.dumps(two.events)
    written = ENGINE.write_state(one.state)
    assert ENGINE.read_state(written) == one.state and written["round"] == 1


@pytest.mark.parametrize("declarations, field", [
    ([{"combatant": "zed", "actions": [{"type": "dodge"}, {"type": "dodge"}]}], ("declarations", 0, "combatant")),
    ([{"combatant": "ann", "actions": [{"type": "dodge"}]}], ("declarations", 0, "actions")),
    ([{"combatant": "ann", "actions": [{"type": "attack"}, {"type": "dodge"}]}],
     ("declarations", 0, "actions", 0, "target")),
    ([{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "mode": "counter"}, {"type": "dodge"}]}],
     ("declarations", 0, "actions", 0, "mode")),
    ([{"combatant": "ann", "braced": True, "actions": [{"type": "dodge"}, {"type": "dodge"}]}],
     ("declarations", 0, "braced")),
    ([{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "weapon": 3}, {"type": "dodge"}]}],
     ("declarations", 0, "actions", 0, "weapon")),
])
def test_bad_declarations_name_their_field(declarations, field):
    with pytest.raises(RulesError) as refused:
        resolve(declarations)
    assert refused.value.field == field


def test_bad_states_name_their_field():
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state({**STATE, "combatants": [{**ANN, "weapons": [{"name": "spork", "attack": 40}]}]})
    assert refused.value.field == ("combatants", 0, "weapons", 0, "damage")
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state({**STATE, "options": {"max_rounds": 0}})
    assert refused.value.field == ("options", "max_rounds")


def test_movement_on_hexes_engages():
    state = {**STATE, "combatants": [{**ANN, "position": {"q": 0, "r": 0}}, {**BOB, "position": {"q": 5, "r": 0}}]}
    declarations = [{"combatant": "ann", "actions": [{"type": "move", "target": "bob"}, {"type": "parry"}]},
                    {"combatant": "bob", "actions": [{"type": "attack", "target": "ann"}, {"type": "dodge"}]}]
    result = resolve(declarations, state=state)
    moved = next(e for e in result.events if e["type"] == "moved")
    assert moved["metres"] == 4 and moved["position"] == {"q": 4, "r": 0}
    assert any(e["type"] == "engaged" for e in result.events)


def test_the_http_resolver_answers_the_contract(client):
    body = {"state": STATE, "declarations": DECLARE, "seed": 4}
    answer = client.post("/v1/runequest-house/rounds/resolve", json=body)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data["round"] == 1 == data["state"]["round"] and data["seed"] == 4
    assert [e["seq"] for e in data["events"]] == list(range(1, len(data["events"]) + 1))
    again = client.post("/v1/runequest-house/rounds/resolve", json={**body, "state": data["state"]})
    assert again.get_json()["round"] == 2
    bad = client.post("/v1/runequest-house/rounds/resolve", json={**body, "declarations": [
        {"combatant": "ann", "actions": [{"type": "attack", "target": "nobody"}, {"type": "dodge"}]}]})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "declarations.0.actions.0.target"


def test_every_event_of_a_bloody_round_matches_its_schema():
    from service.api.runequest_house.events import EVENT_SCHEMAS

    seen = set()
    for seed in range(40):
        for event in resolve(seed=seed).events:
            seen.add(event["type"])
            assert EVENT_SCHEMAS[event["type"]]().validate(event) == {}, event
    assert {"attack_rolled", "defence_rolled", "damage_rolled", "location_damaged", "round_ended"} <= seen


def test_a_grapple_then_a_throw():
    grab = [{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "mode": "grapple"}, {"type": "parry"}]},
            {"combatant": "bob", "actions": [{"type": "dodge"}, {"type": "dodge"}]}]
    rolls = [{"combatant": "ann", "role": "attack", "faces": [20]}, {"combatant": "bob", "role": "defence", "faces": [90]},
             {"combatant": "ann", "role": "location", "faces": [13]}]
    first = resolve(grab, rolls)
    ann = next(c for c in first.state.combatants if c["id"] == "ann")
    assert ann["holding"] == {"target": "bob", "location": "right_arm", "immobilised": False}
    state = ENGINE.write_state(first.state)
    throw = [{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "mode": "throw"}, {"type": "parry"}]},
             {"combatant": "bob", "actions": [{"type": "dodge"}, {"type": "dodge"}]}]
    rolls = [{"combatant": "ann", "role": "grapple", "faces": [30]}, {"combatant": "ann", "role": "resistance",
                                                                      "faces": [10]},
             {"combatant": "ann", "role": "location", "faces": [1]}, {"combatant": "ann", "role": "damage", "faces": [6]},
             {"combatant": "ann", "role": "bonus", "faces": [4]}, {"combatant": "bob", "role": "dex_roll", "faces": [90]}]
    second = resolve(throw, rolls, state=state)
    bob = next(c for c in second.state.combatants if c["id"] == "bob")
    assert bob["prone"] and bob["location_hp"]["right_leg"] == 5 - 10
    assert next(c for c in second.state.combatants if c["id"] == "ann")["holding"] is None
    assert second.summary["strike_order"][0]["sr"] == 2  # DEX SR
    from service.api.runequest_house.events import EVENT_SCHEMAS
    for event in (*first.events, *second.events):
        assert EVENT_SCHEMAS[event["type"]]().validate(event) == {}, event
    with pytest.raises(RulesError) as refused:
        resolve([{"combatant": "bob", "actions": [{"type": "attack", "target": "ann", "mode": "damage"},
                                                  {"type": "dodge"}]}])
    assert refused.value.field == ("declarations", 0, "actions", 0, "target")


def test_an_encounter_option_replaces_a_whole_pack_table():
    chart = {"rows": [{"min_hp": 1, "max_hp": 100, "right_leg": 9, "left_leg": 9, "abdomen": 9, "chest": 9,
                       "right_arm": 9, "left_arm": 9, "head": 9}], "above_step": 3}
    state = ENGINE.read_state({**STATE, "options": {"location_hp_table": chart, "armor_pack": {"ringmail": 9,
                                                                                             "soft_leather": 0}}})
    assert state.combatants[0]["location_hp"]["head"] == 9
    assert ENGINE.write_state(state)["options"]["location_hp_table"] == chart
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state({**STATE, "options": {"location_hp_table": {**chart, "rows": [{**chart["rows"][0],
                                                                                         "min_hp": 2}]}}})
    assert refused.value.field == ("options", "location_hp_table", "rows", 0, "min_hp")


def test_dodging_two_attacks_on_one_sr_costs_the_same_sr_penalty():
    cal = {**BOB, "id": "cal", "side": "blue"}
    state = {**STATE, "combatants": [ANN, BOB, cal]}
    declarations = [{"combatant": "ann", "actions": [{"type": "dodge"}, {"type": "dodge"}]},
                    {"combatant": "bob", "actions": [{"type": "attack", "target": "ann"}, {"type": "parry"}]},
                    {"combatant": "cal", "actions": [{"type": "attack", "target": "ann"}, {"type": "parry"}]}]
    rolls = [{"combatant": "bob", "role": "attack", "faces": [90]}, {"combatant": "cal", "role": "attack", "faces": [90]},
             {"combatant": "ann", "role": "defence", "faces": [50, 50]}]
    result = resolve(declarations, rolls, state=state)
    dodges = [e["effective"] for e in result.events if e["type"] == "defence_rolled"]
    assert dodges == [15, 15 - 10 - 20]  # second opponent -10, second attack on SR 7 -20
