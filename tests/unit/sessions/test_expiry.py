"""Encounters expire after the TTL of inactivity; every access refreshes it."""
from __future__ import annotations

import pytest
from redis import Redis

from service.sessions import audit
from service.sessions.errors import EncounterNotFound
from service.sessions.memory import MemoryEncounters
from service.sessions.records import Segment
from service.sessions.repository import Keys, RedisEncounters

STATE = {"segment": 0, "combatants": []}


def test_memory_encounters_expire_unless_touched():
    now = [0.0]
    repo = MemoryEncounters(ttl=10, clock=lambda: now[0])
    created, token = repo.create("tactical", STATE)
    now[0] = 9.0
    repo.get(created.id, token)
    now[0] = 18.0
    assert repo.get(created.id, token).version == 1
    now[0] = 28.5
    with pytest.raises(EncounterNotFound):
        repo.get(created.id, token)


def test_redis_keys_all_carry_the_ttl(redis_url):
    client = Redis.from_url(redis_url)
    repo = RedisEncounters(client, ttl=100)
    created, token = repo.create("tactical", STATE)
    repo.resolve(created.id, token, lambda c: Segment(1, 1, [{"type": "x"}], c.state,
                                                      audit=audit.resolution(c.dice, 1, c.state, [], [], [])))
    keys = Keys.of(created.id)
    for key in keys.stored:
        client.expire(key, 5)
    repo.get(created.id, token)
    assert all(90 < client.ttl(key) <= 100 for key in keys.stored)
