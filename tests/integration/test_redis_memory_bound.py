"""Redis at its memory bound (maxmemory, policy noeviction, as shipped): writes are refused with 503
problem+json, never a 500, and the embedded server `make run` starts carries the bound."""
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
        assert client.post("/v1/encounters", json={"combatants": [KNIGHT]}).status_code == 201
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
    finally:
        redis.close()
        stop()


def test_the_default_embedded_bound_is_set():
    assert Config().redis_maxmemory == "256mb" and Config().redis_maxmemory_policy == "noeviction"
