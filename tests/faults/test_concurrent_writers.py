"""50 clients add a combatant each to one encounter at once, through gunicorn, retrying on 409/412:
no write is lost (tests/integration/test_encounters_redis.py proves the same at the repository)."""
from __future__ import annotations

import threading

import pytest
import requests

from tests.faults.conftest import new_encounter
from tests.unit.sessions.conftest import fighter

pytestmark = pytest.mark.slow
WRITERS = 50


def test_fifty_concurrent_writers_lose_nothing(stack):
    url, auth = new_encounter(stack.url)
    gate, statuses, lock = threading.Barrier(WRITERS), [], threading.Lock()

    def write(i: int) -> None:
        body = fighter(f"w{i}", position={"x": 3 + i % 7, "y": 3 + i // 7})
        gate.wait(10)
        with requests.Session() as session:
            for _ in range(200):
                version = session.get(url, headers=auth, timeout=10).headers["ETag"]
                response = session.post(url + "/combatants", json=body, timeout=10,
                                        headers={**auth, "If-Match": version})
                with lock:
                    statuses.append(response.status_code)
                if response.status_code not in (409, 412):
                    return

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    final = requests.get(url + "/combatants", headers=auth, timeout=10).json()
    ids = {c["id"] for c in final["combatants"]}
    assert {f"w{i}" for i in range(WRITERS)} <= ids
    assert final["version"] == 1 + WRITERS
    assert statuses.count(201) == WRITERS
    assert set(statuses) <= {201, 409, 412}
