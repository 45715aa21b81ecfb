"""Encounters in Redis: one hash per encounter plus its event log and undo stack, all with one TTL.

Keys (the `{id}` hash tag keeps an encounter's keys on one cluster slot):
  referee:enc:{id}          hash: token (sha256), ruleset, version, state, declarations, seq, tenant
  referee:enc:{id}:events   list of event JSON, oldest first
  referee:enc:{id}:undo     list of snapshots before each resolved segment, newest first (at most 20)
  referee:enc:{id}:live     pub/sub channel: a message after every resolved segment or undo
Every write is one WATCH + MULTI/EXEC transaction on all three keys: a concurrent change makes it fail
whole (Conflict, or VersionMismatch when the caller named a version), never half-applied.
"""
from __future__ import annotations

import copy
import json
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from redis import Redis
from redis.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError, WatchError

from service.sessions import records
from service.sessions.errors import Conflict, NothingToUndo, VersionMismatch, not_found
from service.sessions.records import Encounter, Segment

PREFIX = "referee:enc:"


@dataclass(frozen=True)
class Keys:
    """The Redis keys of one encounter."""

    main: str
    events: str
    undo: str
    live: str

    @classmethod
    def of(cls, encounter_id: str) -> "Keys":
        base = f"{PREFIX}{{{encounter_id}}}"
        return cls(base, f"{base}:events", f"{base}:undo", f"{base}:live")

    @property
    def stored(self) -> tuple[str, str, str]:
        return self.main, self.events, self.undo


def check_version(current: Encounter, expected: int | None) -> None:
    """`If-Match` semantics: a named version must be the current one."""
    if expected is not None and expected != current.version:
        raise VersionMismatch(f"the encounter is at version {current.version}, not {expected}")


class RedisEncounters:
    """The encounter repository on Redis; `client` may be a function so nothing connects before first use."""

    def __init__(self, client: Redis | Callable[[], Redis], ttl: int = 24 * 3600):
        self._client = _SharedClient(client)  # tenant-scoped copies share one client and its pool
        self.ttl = ttl
        self.tenant: str | None = None

    def for_tenant(self, tenant: str | None) -> "RedisEncounters":
        """This repository as seen by `tenant`: it records new encounters as theirs and finds no others.

        With `tenant` None (API keys off) nothing is recorded or checked beyond the token.
        """
        scoped = copy.copy(self)
        scoped.tenant = tenant
        return scoped

    @property
    def redis(self) -> Redis:
        return self._client.get()

    def create(self, ruleset: str, state: dict[str, Any]) -> tuple[Encounter, str]:
        """Store a new encounter; returns it and its token (shown once, stored only as a digest)."""
        encounter, token = Encounter(records.new_id(), ruleset, 1, state, []), records.new_token()
        keys = Keys.of(encounter.id)
        with self.redis.pipeline() as pipe:
            pipe.hset(keys.main, mapping={"token": records.digest(token), "ruleset": ruleset, "version": 1,
                                          "state": _dump(state), "declarations": "[]", "seq": 0,
                                          "tenant": self.tenant or ""})
            pipe.expire(keys.main, self.ttl)
            pipe.execute()
        return encounter, token

    def get(self, encounter_id: str, token: str) -> Encounter:
        """The encounter (refreshing its TTL), or EncounterNotFound for an unknown id or a wrong token."""
        encounter = self._read(self.redis, encounter_id, token)
        self._touch(encounter_id)
        return encounter

    def update(self, encounter_id: str, token: str, change: Callable[[Encounter], tuple[dict, list]],
               expected: int | None = None) -> Encounter:
        """Apply `change(current) -> (state, declarations)` atomically; it may raise to refuse."""
        with self._watched(encounter_id, token, expected) as (pipe, current):
            state, declarations = change(current)
            new = records.written(current, state, declarations)
            pipe.multi()
            pipe.hset(Keys.of(encounter_id).main, mapping=_fields(new))
            self._expire(pipe, encounter_id)
        return new

    def resolve(self, encounter_id: str, token: str, compute: Callable[[Encounter], Segment],
                expected: int | None = None) -> tuple[Encounter, list[dict[str, Any]]]:
        """Resolve one segment with `compute(current)`: one transaction writes state, log, undo, publish."""
        keys = Keys.of(encounter_id)
        with self._watched(encounter_id, token, expected) as (pipe, current):
            segment = compute(current)
            events = records.numbered(segment, current.seq)
            new = records.resolved(current, segment, events)
            pipe.multi()
            pipe.hset(keys.main, mapping=_fields(new))
            if events:
                pipe.rpush(keys.events, *map(_dump, events))
            pipe.lpush(keys.undo, _dump(records.undo_entry(current, len(events))))
            pipe.ltrim(keys.undo, 0, records.UNDO_DEPTH - 1)
            pipe.publish(keys.live, _dump({"version": new.version, "seq": new.seq}))
            self._expire(pipe, encounter_id)
        return new, events

    def undo(self, encounter_id: str, token: str, expected: int | None = None) -> Encounter:
        """Restore the snapshot before the last resolved segment and trim its events (NothingToUndo)."""
        keys = Keys.of(encounter_id)
        with self._watched(encounter_id, token, expected) as (pipe, current):
            top = pipe.lindex(keys.undo, 0)
            if top is None:
                raise NothingToUndo("no resolved segment to undo", ("encounter_id",))
            entry = json.loads(top)
            new = records.undone(current, entry)
            pipe.multi()
            pipe.hset(keys.main, mapping=_fields(new))
            pipe.lpop(keys.undo)
            if entry["events"]:
                pipe.ltrim(keys.events, 0, -entry["events"] - 1)
            pipe.publish(keys.live, _dump({"version": new.version, "seq": new.seq}))
            self._expire(pipe, encounter_id)
        return new

    def delete(self, encounter_id: str, token: str, expected: int | None = None) -> None:
        """End the encounter: every key goes."""
        with self._watched(encounter_id, token, expected) as (pipe, _):
            pipe.multi()
            pipe.delete(*Keys.of(encounter_id).stored)

    def events(self, encounter_id: str, token: str, offset: int, limit: int) -> tuple[list[dict], int]:
        """One page of the event log and the log's length."""
        keys = Keys.of(encounter_id)
        with self.redis.pipeline() as pipe:
            pipe.hmget(keys.main, "token", "tenant").lrange(keys.events, offset, offset + limit - 1)
            stored, page, total = pipe.llen(keys.events).execute()
        _check_token(encounter_id, token, stored[0])
        self._check_tenant(encounter_id, stored[1])
        self._touch(encounter_id)
        return [json.loads(item) for item in page], total

    def events_after(self, encounter_id: str, token: str, since: int) -> list[dict[str, Any]]:
        """Every logged event with `seq` above `since` (a reconnecting stream's catch-up)."""
        current = self._read(self.redis, encounter_id, token)
        if current.seq <= since:
            return []
        tail = self.redis.lrange(Keys.of(encounter_id).events, -(current.seq - since), -1)
        return [event for event in map(json.loads, tail) if event["seq"] > since]

    @contextmanager
    def listen(self, encounter_id: str) -> Iterator[Callable[[float], bool]]:
        """A `wait(timeout) -> bool` that returns True when the encounter changed (pub/sub)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(Keys.of(encounter_id).live)
            yield lambda timeout: _message(pubsub, timeout)
        finally:
            pubsub.close()

    @contextmanager
    def _watched(self, encounter_id: str, token: str, expected: int | None) -> Iterator[tuple[Pipeline, Encounter]]:
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(*Keys.of(encounter_id).stored)
                current = self._read(pipe, encounter_id, token)
                check_version(current, expected)
                yield pipe, current
                pipe.execute()
            except WatchError as error:
                if "ConnectionError" in str(error):  # redis-py's word for a connection lost while watching
                    raise RedisConnectionError("the connection to Redis dropped; nothing was written") from error
                if expected is not None:
                    raise VersionMismatch("the encounter changed meanwhile; read it again") from error
                raise Conflict("the encounter changed meanwhile; read it again and retry") from error

    def _read(self, conn: Redis | Pipeline, encounter_id: str, token: str) -> Encounter:
        keys = Keys.of(encounter_id)
        raw = conn.hgetall(keys.main)
        _check_token(encounter_id, token, raw.get(b"token"))
        self._check_tenant(encounter_id, raw.get(b"tenant"))
        return Encounter(encounter_id, raw[b"ruleset"].decode(), int(raw[b"version"]), json.loads(raw[b"state"]),
                         json.loads(raw[b"declarations"]), int(raw[b"seq"]), conn.llen(keys.events),
                         conn.llen(keys.undo))

    def _check_tenant(self, encounter_id: str, stored: bytes | None) -> None:
        """Another tenant's encounter is answered exactly like an unknown one."""
        if self.tenant is not None and (stored or b"").decode() != self.tenant:
            raise not_found(encounter_id)

    def _touch(self, encounter_id: str) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            self._expire(pipe, encounter_id)
            pipe.execute()

    def _expire(self, pipe: Pipeline, encounter_id: str) -> None:
        for key in Keys.of(encounter_id).stored:
            pipe.expire(key, self.ttl)


def _message(pubsub: Any, timeout: float) -> bool:
    """Wait up to `timeout` seconds for a message (subscription confirmations do not count)."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        if pubsub.get_message(timeout=left) is not None:
            return True
    return False


def _check_token(encounter_id: str, token: str, stored: bytes | None) -> None:
    if stored is None or not records.token_matches(token, stored.decode()):
        raise not_found(encounter_id)


def _fields(encounter: Encounter) -> dict[str, Any]:
    return {"version": encounter.version, "state": _dump(encounter.state),
            "declarations": _dump(encounter.declarations), "seq": encounter.seq}


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class _SharedClient:
    """A Redis client made on first use and then shared by every copy of the repository holding this.

    Without it each per-request tenant copy made its own client, and so a new connection per request.
    """

    def __init__(self, client: Redis | Callable[[], Redis]):
        self._client = client
        self._lock = threading.Lock()

    def get(self) -> Redis:
        if callable(self._client) and not isinstance(self._client, Redis):
            with self._lock:
                if callable(self._client) and not isinstance(self._client, Redis):
                    self._client = self._client()
        return self._client  # type: ignore[return-value]
