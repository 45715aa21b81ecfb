"""Per-client caps on what a client keeps stored: live encounters (`max_encounters_per_client`).

A client is its API key's tenant, or its IP address when keys are off (`client_id`). Each client's
encounters are remembered in the sorted set `referee:quota:enc:{<client>}` (id -> creation time); ids whose
encounter has expired or was deleted are pruned when the client creates another, so the cap counts
encounters that still exist. A client at the cap gets 429 problem+json until one of its encounters ends.
"""
from __future__ import annotations

import time
from typing import Any

from flask import current_app, request
from redis.exceptions import RedisError
from werkzeug.exceptions import TooManyRequests

from service.api.http.auth import current_tenant
from service.sessions.keys import Keys, client_encounters


def client_id() -> str:
    """Who a per-client cap counts against: the API key's tenant, else the client's IP address."""
    tenant = current_tenant()
    return f"tenant:{tenant}" if tenant is not None else f"ip:{request.remote_addr}"


def limits_store() -> Any:
    """The encounter store's Redis client, or None for a store without one (the in-memory test store) or in
    testing without `limits_in_testing` (like rate limits: test runs share one database and never wait)."""
    config = current_app.extensions["referee.config"]
    if config.testing and not config.limits_in_testing:
        return None
    return getattr(current_app.extensions.get("referee.encounters"), "redis", None)


def check_encounter_room() -> None:
    """Refuse (429) a new encounter from a client that already has `max_encounters_per_client` of them."""
    cap = current_app.extensions["referee.config"].max_encounters_per_client
    redis = limits_store() if cap else None
    if redis is None:
        return
    key = client_encounters(client_id())
    ids = [member.decode() for member in redis.zrange(key, 0, -1)]
    with redis.pipeline(transaction=False) as pipe:
        for encounter_id in ids:
            pipe.exists(Keys.of(encounter_id).main)
        alive = pipe.execute() if ids else []
    gone = [encounter_id for encounter_id, live in zip(ids, alive) if not live]
    if gone:
        redis.zrem(key, *gone)
    if len(ids) - len(gone) >= cap:
        raise TooManyRequests(f"at most {cap} encounters may exist per client; delete one "
                              "(DELETE /v1/encounters/{id}) or let one expire", retry_after=60)


def count_encounter(encounter_id: str) -> None:
    """Remember a new encounter against its client's cap. Best effort: the encounter exists, and a full
    Redis refusing this must not turn its 201 (and its token, shown once) into a 503."""
    config = current_app.extensions["referee.config"]
    redis = limits_store() if config.max_encounters_per_client else None
    if redis is None:
        return
    key = client_encounters(client_id())
    try:
        with redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {encounter_id: time.time()}).expire(key, config.encounter_ttl_seconds * 2).execute()
    except RedisError:
        pass  # uncounted until it ends: the cap may be passed by the encounters created while Redis was full
