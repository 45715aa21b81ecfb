"""Per-client cap on the bytes a client's encounters hold in Redis (`max_bytes_per_client`; issue 22).

The encounter cap counts encounters, not bytes: a thousand encounters with full logs would hold gigabytes.
Each write reports what its encounter now holds (`Encounter.stored`: state, declarations, edits, log, undo
stack); the client's meter, the hash `referee:quota:bytes:{<client>}`, keeps that figure per encounter and
their sum. A write that adds data (create, combatant or declaration changes, a step) is refused with 429
while the sum is at the cap; so a client passes it by one write at most. Ended encounters leave the meter at
once; expired ones when the client is at its cap (their keys are gone: pruned then) or creates another.
"""
from __future__ import annotations

from typing import Any

from flask import current_app
from redis.exceptions import RedisError
from werkzeug.exceptions import TooManyRequests

from service.api.http.quotas import client_id, limits_store
from service.sessions.keys import client_bytes
from service.sessions.meter import METER, TOTAL, Meter

PREFIX = "referee:quota:bytes:"  # keys: service.sessions.keys.client_bytes


def check_room() -> None:
    """Refuse (429) a write that adds data for a client whose encounters hold `max_bytes_per_client`."""
    cap, redis = _cap_and_store()
    if redis is None:
        return
    key = client_bytes(client_id())
    if int(redis.hget(key, TOTAL) or 0) < cap or _prune(redis, key) < cap:
        return
    raise TooManyRequests(f"this client's encounters hold {cap:,} bytes or more (at most {cap:,} per client); "
                          "end one (DELETE /v1/encounters/{id}) or let one expire", retry_after=60)


def meter() -> Meter | None:
    """The calling client's meter for a step (None when there is no cap or no Redis): the repository reads
    the sum with its snapshot and sets the encounter's figure with its commit (no round trip of its own)."""
    cap, redis = _cap_and_store()
    if redis is None:
        return None
    key = client_bytes(client_id())

    def check(total: int) -> None:
        if total >= cap and _prune(redis, key) >= cap:
            raise TooManyRequests(f"this client's encounters hold {cap:,} bytes or more (at most {cap:,} per "
                                  "client); end one (DELETE /v1/encounters/{id}) or let one expire", retry_after=60)
    return Meter(key, current_app.extensions["referee.config"].encounter_ttl_seconds * 2, check)


def record(encounter: Any) -> None:
    """Remember what `encounter` holds after a write, against its client's cap. Best effort: the write
    is done, and a full Redis refusing the meter must not answer it 503 (the next write sets the figure)."""
    cap, redis = _cap_and_store()
    if redis is not None:
        try:
            _meter(redis, client_bytes(client_id()), encounter.id, encounter.stored)
        except RedisError:
            pass


def forget(*encounter_ids: str) -> None:
    """Ended encounters hold nothing any more (best effort: a full Redis may refuse; pruning catches up)."""
    cap, redis = _cap_and_store()
    if redis is None:
        return
    for encounter_id in encounter_ids:
        try:
            _meter(redis, client_bytes(client_id()), encounter_id, -1)
        except RedisError:
            return


def _prune(redis: Any, key: str) -> int:
    """Forget the client's encounters whose keys are gone (expired); the sum after."""
    from service.sessions.repository import Keys

    ids = [field.decode() for field in redis.hkeys(key) if field != TOTAL.encode()]
    with redis.pipeline(transaction=False) as pipe:
        for encounter_id in ids:
            pipe.exists(Keys.of(encounter_id).main)
        alive = pipe.execute() if ids else []
    total = int(redis.hget(key, TOTAL) or 0)
    for encounter_id, live in zip(ids, alive):
        if not live:
            total = _meter(redis, key, encounter_id, -1)
    return total


def _meter(redis: Any, key: str, encounter_id: str, stored: int) -> int:
    script = redis.register_script(METER)  # EVALSHA; redis-py loads the script if the server lacks it
    ttl = current_app.extensions["referee.config"].encounter_ttl_seconds * 2
    return int(script(keys=[key], args=[encounter_id, stored, ttl]))


def _cap_and_store() -> tuple[int, Any]:
    cap = current_app.extensions["referee.config"].max_bytes_per_client
    return cap, (limits_store() if cap else None)
