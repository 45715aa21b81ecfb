"""The ruleset interface, exercised through a minimal test ruleset (`tests.fixtures.coin_duel`):
encounters, round resolution with caller-supplied dice, undo, and simulations by the resolver loop all
work for a ruleset that no shared module names."""
from __future__ import annotations

import json

import pytest

from service.app import create_app
from service.api.kit import payloads as ruleset_http
from service.rules import registry
from service.rules.errors import RulesError
from service.sessions.encounters import Encounters
from service.sessions.memory import MemoryEncounters
from service.sim import simulator as simulators
from service.sim.rounds import RoundSimulator
from tests.app_config import isolated_config

A = {"id": "ann", "side": "red", "hp": 2}
B = {"id": "bob", "side": "blue", "hp": 2}
MATCHUP = {"sides": [{"name": "red", "combatants": [{"id": "ann", "hp": 3}]},
                     {"name": "blue", "combatants": [{"hp": 2}]}], "options": {"max_rounds": 30}}


@pytest.fixture()
def coin_duel(monkeypatch):
    monkeypatch.setitem(registry.RULESET_PACKAGES, "coin-duel", "tests.fixtures.coin_duel")
    for cached in (registry.get, simulators.simulator_for, ruleset_http.schema_classes):
        cached.cache_clear()
    yield registry.get("coin-duel")
    for cached in (registry.get, simulators.simulator_for, ruleset_http.schema_classes):
        cached.cache_clear()


def test_an_encounter_of_a_new_ruleset_resolves_rounds_with_supplied_dice_and_undoes(coin_duel):
    store = Encounters(MemoryEncounters(ttl=60))
    encounter, token = store.create("coin-duel", {"hit_on": 5}, [A, B])
    assert encounter.state["round"] == 0 and encounter.state["options"]["hit_on"] == 5
    store.declare(encounter.id, token, [{"combatant": "ann", "target": "bob"}])
    rolls = [{"combatant": "ann", "role": "attack", "faces": [5]}]
    after, events, step = store.resolve(encounter.id, token, seed=1, rolls=rolls)
    assert step.number == 1 and step.summary == {"order": ["ann"]}
    assert after.state["round"] == 1 and after.state["combatants"][1]["hp"] == 1
    assert [e["type"] for e in events] == ["attack_rolled"] and events[0]["face"] == 5
    assert store.repository.undo(encounter.id, token).state["round"] == 0


def test_a_face_outside_its_die_is_refused_with_its_path(coin_duel):
    store = Encounters(MemoryEncounters(ttl=60))
    encounter, token = store.create("coin-duel", {}, [A, B])
    with pytest.raises(RulesError) as refused:
        store.resolve(encounter.id, token, seed=1, declarations=[{"combatant": "ann", "target": "bob"}],
                      rolls=[{"combatant": "ann", "role": "attack", "faces": [7]}])
    assert refused.value.field == ("rolls", 0, "faces", 0)
    assert store.get(encounter.id, token).version == 1


def test_the_resolver_loop_simulator_is_deterministic_and_merges(coin_duel):
    simulator = simulators.simulator_for("coin-duel")
    assert isinstance(simulator, RoundSimulator) and simulator.vector is None
    one = simulator.run_chunk(MATCHUP, 0, 200, seed=7)
    assert one == simulator.run_chunk(MATCHUP, 0, 200, seed=7)
    two = simulator.run_chunk(MATCHUP, 1, 100, seed=7)
    total = simulator.merge([one, two])
    assert total["trials"] == 300 == sum(total["wins"].values()) + total["draws"]
    result = simulator.summarize(MATCHUP, total)
    assert [side["name"] for side in result["sides"]] == ["red", "blue"]
    assert result["sides"][0]["p"] > result["sides"][1]["p"]  # 3 hit points against 2
    assert [c["name"] for c in result["combatants"]] == ["ann", "blue-1"]
    assert 0.4 < result["details"]["hit_rate"] < 0.6
    assert sum(result["rounds"]["histogram"]) == 300
    assert simulator.plot("wins", result).startswith("<?xml")


def test_a_bad_matchup_names_its_field(coin_duel):
    with pytest.raises(RulesError) as refused:
        simulators.simulator_for("coin-duel").check({"sides": [{"name": "red", "combatants": [A]}]})
    assert refused.value.field == ("sides",)


def test_the_http_layer_serves_a_new_ruleset_without_naming_it(coin_duel):
    client = create_app(isolated_config()).test_client()
    listed = [r["id"] for r in client.get("/v1/rulesets").get_json()["rulesets"]]
    assert {"coin-duel", "tactical"} <= set(listed) and listed == sorted(listed)
    about = client.get("/v1/rulesets/coin-duel").get_json()
    assert about["options"]["hit_on"] == {"default": 4, "minimum": 2, "maximum": 6, "tag": "DEF",
                                          "summary": "Lowest d6 face that hits."}
    assert about["assumptions"][0]["option"] == "hit_on"
    created = client.post("/v1/encounters", json={"ruleset": "coin-duel", "combatants": [A, B]}).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    body = {"seed": 3, "declarations": [{"combatant": "bob", "target": "ann"}],
            "rolls": [{"combatant": "bob", "role": "attack", "faces": [6]}]}
    step = client.post(f"/v1/encounters/{created['id']}/segments", json=body, headers=auth)
    assert step.status_code == 201, step.get_json()
    answer = step.get_json()
    assert (answer["segment"], answer["round"], answer["summary"]) == (1, 1, {"order": ["bob"]})
    assert answer["state"]["combatants"][0]["hp"] == 1
    bad = client.post("/v1/encounters", json={"ruleset": "coin-duel", "options": {"nope": 1}, "combatants": [A]})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "options.nope"
    assert json.dumps(about)  # plain JSON
