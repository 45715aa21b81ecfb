"""Redis at its memory bound (maxmemory, policy noeviction, as shipped): writes are refused with 503
problem+json, never a 500, reads and ending an encounter still work, and the embedded server `make run`
starts carries the bound."""
from __future__ import annotations

import pytest
from redis import Redis

from service.app import create_app
from service.config import Config
from service.sessions.connection import embedded_server
from tests.unit.sessions.conftest import KNIGHT

pytestmark = pytest.mark.slow


def test_the_embedded_server_is_bounded_and_a_full_store_answers_503(tmp_path):
    url, stop = embedded_server(str(tmp_path / "full.db"), ("2mb", "noeviction"))
    redis = Redis.from_url(url)
    try:
        assert redis.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        assert int(redis.config_get("maxmemory")["maxmemory"]) == 2 * 1024 * 1024
        client = create_app(Config(testing=True, redis_url=url)).test_client()
        kept = client.post("/v1/encounters", json={"combatants": [KNIGHT]})
        assert kept.status_code == 201
        encounter, auth = kept.json["links"]["self"], {"Authorization": f"Bearer {kept.json['token']}"}
        filler, size = 0, 256 * 1024
        while size >= 64:  # fill the store to its bound: big pieces, then smaller ones until even 64 B fail
            try:
                redis.set(f"filler:{filler}", b"x" * size)
                filler += 1
            except Exception:  # noqa: BLE001 - OOM at this size
                size //= 4
        full = client.post("/v1/encounters", json={"combatants": [KNIGHT]})
        assert full.status_code == 503 and full.mimetype == "application/problem+json"
        assert full.headers["Retry-After"] == "30"
        # reads need no memory, and neither does ending an encounter (which frees some): both still work
        assert client.get(encounter, headers=auth).status_code == 200
        assert client.get(encounter + "/events", headers=auth).status_code == 200
        assert client.post(encounter + "/segments", json={"seed": 1}, headers=auth).status_code == 503
        assert client.delete(encounter, headers=auth).status_code == 200  # the final audit
    finally:
        redis.close()
        stop()


def test_the_default_embedded_bound_is_set():
    assert Config().redis_maxmemory == "256mb" and Config().redis_maxmemory_policy == "noeviction"
