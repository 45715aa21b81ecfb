"""The ruleset's description (every option tagged and summarised, every assumption's option real) and the
stateless round resolver over HTTP, its answer's state sent back unchanged round after round."""
from __future__ import annotations

from service.rules import registry
from service.rules.ars_magica import botches
from service.rules.ars_magica.options import OPTIONS
from service.sessions.encounters import resolve_once

KNIGHT = {"id": "knight", "side": "red", "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2},
          "abilities": {"weapon": 5}, "weapon": "longsword", "armor": "leather"}
BRUTE = {"id": "brute", "side": "blue", "characteristics": {"dex": 1, "str": 2, "stm": 1},
         "abilities": {"weapon": 4}, "weapon": "mace", "armor": "partial_chain"}


def test_every_option_is_tagged_and_every_assumption_names_a_real_option():
    for name, spec in OPTIONS.items():
        assert spec.tag in ("DOC", "INF", "CORE", "DEF") and spec.summary, name
    ruleset = registry.get("ars-magica")
    assert all(a.option is None or a.option in OPTIONS for a in ruleset.assumptions)
    ids = [a.id for a in ruleset.assumptions]
    assert len(ids) == len(set(ids))


def test_the_state_goes_back_unchanged_for_three_rounds(client):
    state = {"round": 0, "options": {"botch_dice": 2}, "combatants": [KNIGHT, BRUTE]}
    declared = [{"combatant": "knight", "action": "attack", "target": "brute"},
                {"combatant": "brute", "action": "attack", "target": "knight", "hold_ground": True}]
    for number in (1, 2, 3):
        answer = client.post("/v1/ars-magica/rounds/resolve", json={"state": state, "declarations": declared,
                                                                     "seed": 20 + number})
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        assert body["round"] == number == body["state"]["round"] and body["seed"] == 20 + number
        assert [e["seq"] for e in body["events"]] == list(range(1, len(body["events"]) + 1))
        state = body["state"]
        if any(c["body_levels_lost"] >= 5 for c in state["combatants"]):
            break
        declared = [d for d in declared if d["combatant"] in {c["id"] for c in state["combatants"]}]
    bad = client.post("/v1/ars-magica/rounds/resolve", json={"state": state, "declarations": [
        {"combatant": "knight", "action": "attack", "target": "nobody"}]})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "declarations.0.target"
    unknown = client.post("/v1/ars-magica/rounds/resolve", json={"state": state, "rolls": [
        {"combatant": "knight", "role": "luck", "faces": [3]}]})
    assert unknown.status_code == 422 and unknown.get_json()["errors"][0]["field"] == "rolls.0.role"


def test_damage_and_soak_botches_differ_by_side():
    row = botches.entry("botch-damage-soak", 13)
    assert row["index"] == 12
    assert botches.effects_of(row, "damage") == {"weapon_broken": True}
    assert botches.effects_of(row, "soak") == {"protection": "destroyed"}
    assert botches.entry("botch-attack-defence", 200)["index"] == 80
    assert botches.entry("botch-attack-defence", 2)["index"] == 2


def test_a_soak_botch_destroys_armor():
    rolls = [{"combatant": c, "role": r, "faces": f} for c, r, f in (
        ("knight", "initiative", [7]), ("brute", "initiative", [3]), ("knight", "attack", [6]),
        ("brute", "defence", [2]), ("knight", "damage", [5]), ("brute", "soak", [0]), ("brute", "botch", [0]),
        ("brute", "botch_index", [1, 6]))]
    step = resolve_once("ars-magica", {"round": 0, "combatants": [KNIGHT, BRUTE]},
                        [{"combatant": "knight", "action": "attack", "target": "brute"}], 1, (), rolls)
    botched = next(e for e in step.events if e["type"] == "botched")
    assert (botched["combatant"], botched["roll"], botched["index"], botched["entry"]) == ("brute", "soak", 12, 12)
    assert step.state["combatants"][1]["armor"] == {"protection": 0}


def test_an_exceptional_blow_to_the_head_knocks_out():
    rolls = [{"combatant": c, "role": r, "faces": f} for c, r, f in (
        ("knight", "initiative", [7]), ("brute", "initiative", [3]), ("knight", "attack", [1, 9]),
        ("brute", "defence", [2]), ("knight", "damage", [3]), ("brute", "soak", [6]))]
    step = resolve_once("ars-magica", {"round": 0, "combatants": [KNIGHT, BRUTE]},
                        [{"combatant": "knight", "action": "attack", "target": "brute", "location": "head"}],
                        1, (), rolls)
    blow = next(e for e in step.events if e["type"] == "exceptional_blow")
    assert (blow["location"], blow["severity"], blow["effect"]) == ("head", "major", "unconscious_15_min")
    out = next(e for e in step.events if e["type"] == "out_of_fight")
    assert out == {**out, "combatant": "brute", "status": "unconscious"}
