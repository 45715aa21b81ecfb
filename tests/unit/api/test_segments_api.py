"""POST /v1/tactical/segments/resolve: one segment, nothing stored, reproducible from its seed."""
from __future__ import annotations

from tests.unit.sessions.conftest import KNIGHT, fighter

STATE = {"combatants": [KNIGHT, fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)]}
ATTACK = {"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0}


def test_resolve_returns_events_and_the_next_state(client):
    response = client.post("/v1/tactical/segments/resolve", json={"state": STATE, "declarations": [ATTACK],
                                                                   "seed": 5})
    assert response.status_code == 200
    body = response.json
    assert body["seed"] == 5 and body["state"]["segment"] == 1
    again = client.post("/v1/tactical/segments/resolve", json={"state": STATE, "declarations": [ATTACK], "seed": 5})
    assert again.json == body


def test_a_fresh_seed_is_echoed(client):
    body = client.post("/v1/tactical/segments/resolve", json={"state": STATE}).json
    again = client.post("/v1/tactical/segments/resolve", json={"state": STATE, "seed": body["seed"]}).json
    assert again == body


def test_bad_state_names_the_field(client):
    response = client.post("/v1/tactical/segments/resolve", json={"state": {"combatants": [{"id": ""}]}})
    assert response.status_code == 422
    assert response.json["errors"][0]["field"] == "state.combatants.0.id"
    assert client.post("/v1/tactical/segments/resolve", json={"seed": 1}).status_code == 422
    too_many = client.post("/v1/tactical/segments/resolve", json={"state": STATE, "declarations": [ATTACK] * 401})
    assert too_many.status_code == 422
