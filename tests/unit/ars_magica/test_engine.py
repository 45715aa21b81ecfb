"""The `ars-magica` round engine: the seven-step round with caller-supplied dice, declaration checks,
stances, determinism, encounters (in-memory twin) and simulations through the resolver loop."""
from __future__ import annotations

import json

import pytest

from service.rules import registry
from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.sessions.encounters import Encounters, resolve_once
from service.sessions.memory import MemoryEncounters
from service.sim.simulator import simulator_for

RULESET = registry.get("ars-magica")
ENGINE = RULESET.engine
KNIGHT = {"id": "knight", "side": "red", "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2},
          "abilities": {"weapon": 5}, "weapon": "longsword", "armor": "leather"}
BRUTE = {"id": "brute", "side": "blue", "characteristics": {"dex": 1, "str": 2, "stm": 1},
         "abilities": {"weapon": 4}, "weapon": "mace"}
ARCHER = {"id": "archer", "side": "blue", "abilities": {"weapon": 4}, "weapon": "short_bow", "position_yd": 20}
FIGHT = [{"combatant": "knight", "action": "attack", "target": "brute"},
         {"combatant": "brute", "action": "attack", "target": "knight"}]


def state(*people, **extra):
    return {"round": 0, "options": {}, "combatants": list(people), **extra}


def rolls(*entries):
    return [{"combatant": c, "role": r, "faces": f} for c, r, f in entries]


def test_a_melee_round_with_supplied_dice():
    queue = rolls(("knight", "initiative", [7]), ("brute", "initiative", [3]), ("knight", "attack", [6]),
                  ("brute", "defence", [2]), ("knight", "damage", [5]), ("brute", "soak", [4]),
                  ("brute", "attack", [9]), ("knight", "defence", [8]))
    step = resolve_once("ars-magica", state(KNIGHT, BRUTE), FIGHT, 1, (), queue)
    kinds = [e["type"] for e in step.events]
    assert kinds == ["declared", "declared", "initiative_contest", "pushed_back", "attack_rolled", "defence_rolled",
                     "damage_rolled", "levels_lost", "attack_rolled", "defence_rolled", "round_ended"]
    attack = step.events[4]
    assert (attack["attack_total"], attack["attack_roll"], attack["defence_total"]) == (11, 17, 5)
    damage = step.events[6]
    assert (damage["damage_roll"], damage["soak_roll"], damage["margin"], damage["levels"]) == (17, 5, 12, 3)
    assert step.summary["melee_order"] == ["knight", "brute"]
    assert step.summary["initiative"][0] == {"combatant": "knight", "total": 8, "roll": 7, "value": 15}
    brute = step.state["combatants"][1]
    assert brute["body_levels_lost"] == 3 and brute["position_yd"] == 1 and brute["engaged_with"] == ["knight"]
    assert step.state["round"] == 1 and step.number == 1


def test_later_attacks_meet_the_defence_total():
    twin = dict(BRUTE, id="twin")
    people = state(KNIGHT, BRUTE, twin)
    declared = [{"combatant": "brute", "action": "attack", "target": "knight"},
                {"combatant": "twin", "action": "attack", "target": "knight"}]
    step = resolve_once("ars-magica", people, declared, 5)
    modes = [e["defence_mode"] for e in step.events if e["type"] == "attack_rolled"]
    assert modes == ["roll", "total"]


def test_the_same_seed_gives_byte_identical_rounds():
    one = resolve_once("ars-magica", state(KNIGHT, BRUTE, ARCHER), FIGHT, 42)
    two = resolve_once("ars-magica", state(KNIGHT, BRUTE, ARCHER), FIGHT, 42)
    assert json.dumps(one.events) == json.dumps(two.events) and one.state == two.state


def test_missiles_fire_by_the_rate_and_hit_the_target():
    queue = rolls(("archer", "initiative", [5]), ("archer", "missile", [9]), ("archer", "damage", [3]),
                  ("knight", "soak", [2]))
    declared = [{"combatant": "archer", "action": "missile", "target": "knight"}]
    step = resolve_once("ars-magica", state(KNIGHT, ARCHER), declared, 1, (), queue)
    shot = next(e for e in step.events if e["type"] == "missile_fired")
    assert (shot["ease_factor"], shot["roll"], shot["outcome"], shot["phase"]) == (6, 16, "exceptional", "first")
    assert step.summary["missile_phases"] == {"first": ["archer"], "second": []}
    assert step.state["combatants"][1]["missile_first_round"] == 1


def test_all_out_attack_needs_a_preparing_round_then_rolls_fatigue():
    people = ENGINE.read_state(state(KNIGHT, BRUTE))
    with pytest.raises(RulesError) as refused:
        ENGINE.check_declarations(people, [{"combatant": "knight", "action": "all_out_attack", "target": "brute"}])
    assert refused.value.field == ("declarations", 0, "action")
    first = resolve_once("ars-magica", state(KNIGHT, BRUTE), [{"combatant": "knight", "action": "all_out_prepare"}], 3)
    assert first.state["combatants"][0]["stance"] == "all_out_ready"
    second = resolve_once("ars-magica", first.state, [{"combatant": "knight", "action": "all_out_attack",
                                                       "target": "brute"}], 3)
    kinds = [e["type"] for e in second.events]
    assert "fatigue_rolled" in kinds and second.state["combatants"][0]["stance"] == "normal"
    attack = next(e for e in second.events if e["type"] == "attack_rolled")
    assert attack["attack_total"] == 11 + 3


@pytest.mark.parametrize("declaration,field", [
    ({"combatant": "ghost", "action": "attack", "target": "brute"}, "combatant"),
    ({"combatant": "knight", "action": "attack", "target": "knight"}, "target"),
    ({"combatant": "knight", "action": "missile", "target": "brute"}, "action"),
    ({"combatant": "knight", "action": "move", "move_yd": 500}, "move_yd"),
    ({"combatant": "knight", "action": "cast"}, "spell"),
    ({"combatant": "knight", "action": "attack", "target": "brute", "two_weapons": "attack_twice"}, "two_weapons"),
    ({"combatant": "knight", "action": "dance"}, "action"),
])
def test_impossible_declarations_name_their_field(declaration, field):
    with pytest.raises(RulesError) as refused:
        ENGINE.check_declarations(ENGINE.read_state(state(KNIGHT, BRUTE)), [declaration])
    assert refused.value.field == ("declarations", 0, field)


def test_a_bad_state_names_its_field():
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state(state(KNIGHT, dict(BRUTE, weapon="bazooka")))
    assert refused.value.field == ("combatants", 1, "weapon")
    with pytest.raises(RulesError) as refused:
        ENGINE.read_state(state(KNIGHT, dict(BRUTE, engaged_with=["nobody"])))
    assert refused.value.field == ("combatants", 1, "engaged_with", 0)


def test_state_round_trips():
    first = resolve_once("ars-magica", state(KNIGHT, BRUTE, ARCHER), FIGHT, 9)
    assert ENGINE.write_state(ENGINE.read_state(first.state)) == first.state


def test_a_casting_and_a_stress_face_out_of_range():
    mage = {"id": "mage", "side": "red", "weapon": "unarmed", "characteristics": {"stm": 1}}
    cast = [{"combatant": "mage", "action": "cast", "target": "brute", "spell": {"technique": 8, "form": 6,
                                                                                 "level": 15}}]
    step = resolve_once("ars-magica", state(mage, BRUTE), cast, 2, (), rolls(("mage", "cast", [1, 3])))
    spell = next(e for e in step.events if e["type"] == "spell_cast")
    assert (spell["total"], spell["roll"], spell["outcome"]) == (15, 21, "success")
    with pytest.raises(RulesError) as refused:
        resolve_once("ars-magica", state(mage, BRUTE), cast, 2, (), rolls(("mage", "cast", [10])))
    assert refused.value.field == ("rolls", 0, "faces", 0)


def test_a_botch_reads_the_table():
    queue = rolls(("knight", "initiative", [7]), ("brute", "initiative", [3]), ("knight", "attack", [0]),
                  ("knight", "botch", [0]), ("knight", "botch_index", [4]), ("brute", "defence", [2]))
    step = resolve_once("ars-magica", state(KNIGHT, BRUTE), FIGHT[:1], 1, (), queue)
    botched = next(e for e in step.events if e["type"] == "botched")
    assert (botched["roll"], botched["index"], botched["entry"]) == ("attack", 4, 4)
    effects = step.state["combatants"][0]["effects"]
    assert {"kind": "attack", "value": -3, "from": 2, "until": 2} in effects


def test_an_encounter_resolves_rounds_and_undoes():
    store = Encounters(MemoryEncounters(ttl=60))
    encounter, token = store.create("ars-magica", {"botch_dice": 2}, [KNIGHT, BRUTE])
    assert encounter.state["round"] == 0 and encounter.state["options"]["botch_dice"] == 2
    store.declare(encounter.id, token, FIGHT)
    for expected in (1, 2, 3):
        after, events, step = store.resolve(encounter.id, token, seed=expected)
        assert step.number == expected == after.state["round"] and events[-1]["type"] == "round_ended"
    assert store.repository.undo(encounter.id, token).state["round"] == 2


def test_a_simulation_through_the_resolver_loop():
    simulator = simulator_for("ars-magica")
    matchup = {"sides": [{"name": "red", "combatants": [KNIGHT]}, {"name": "blue", "combatants": [BRUTE]}],
               "options": {"max_rounds": 30}}
    tally = simulator.run_chunk(matchup, 0, 150, seed=4)
    assert tally == simulator.run_chunk(matchup, 0, 150, seed=4)
    result = simulator.summarize(matchup, tally)
    assert result["trials"] == 150 and sum(result["rounds"]["histogram"]) == 150
    assert result["sides"][0]["p"] > result["sides"][1]["p"]  # better weapon, skill and armor
    details = result["details"]
    assert set(details) == {"levels_lost", "botch_rate", "exceptional_rate", "first_strike_wins"}
    assert 0 < details["first_strike_wins"] < 1 and abs(sum(details["levels_lost"].values()) - 1) < 1e-9
    with pytest.raises(RulesError) as refused:
        simulator.check({**matchup, "options": {"nope": 1}})
    assert refused.value.field == ("options", "nope")


def test_every_die_is_recorded():
    dice = DiceSource(seed=3)
    ENGINE.resolve(ENGINE.read_state(state(KNIGHT, BRUTE)), ENGINE.check_declarations(
        ENGINE.read_state(state(KNIGHT, BRUTE)), FIGHT), dice)
    roles = {r["role"] for r in dice.dice()}
    assert {"initiative", "attack", "defence"} <= roles


def test_two_weapons_attack_twice_with_each_hand_and_its_penalty():
    twin = dict(KNIGHT, weapon="shortsword", off_hand="shortsword")
    declared = [{"combatant": "knight", "action": "attack", "target": "brute", "two_weapons": "attack_twice"}]
    step = resolve_once("ars-magica", state(twin, BRUTE), declared, 8)
    swings = [e for e in step.events if e["type"] == "attack_rolled"]
    assert [s["hand"] for s in swings] == ["weapon", "off_hand"]
    base = 2 + 5 + 2  # Dex + skill + shortsword attack
    assert [s["attack_total"] for s in swings] == [base - 1, base - 3]
    assert [s["defence_mode"] for s in swings] == ["roll", "total"]
