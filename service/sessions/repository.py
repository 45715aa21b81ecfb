"""Encounters in Redis: one hash per encounter plus its event log and undo stack, all with one TTL.

Keys (built by service.sessions.keys.Keys, whose `named(suffix)` gives any further key of an encounter; the
`{id}` hash tag keeps all of them on one cluster slot):
  referee:enc:{id}          hash: token (sha256), ruleset, version, state, declarations, seq, tenant, edits,
                            log_bytes, undo_bytes and audit_bytes (what the log, undo stack and audit hold)
  referee:enc:{id}:events   list of event JSON, oldest first, within `max_log_bytes` (service/sessions/log.py)
  referee:enc:{id}:undo     list of snapshots before each resolved segment, newest first (at most 20)
  referee:enc:{id}:audit    list of audit entries (service.sessions.audit), oldest first, within
                            `max_audit_bytes`; undo never trims it
  referee:enc:{id}:live     pub/sub channel: a message after every resolved segment, undo or end
Every write reads a consistent snapshot (a read-only script, nothing WATCHed), computes, and commits in
one Lua script that applies everything only if the stored version is still the one read (Conflict, or
VersionMismatch when the caller named a version), never half-applied. Readers refresh the keys' TTL;
since nothing is WATCHed, that can never make a write fail (issue 11, item 2).
"""
from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from redis import Redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError, RedisError

from service.sessions import commitments, log, records
from service.sessions.cluster import Durable, is_cluster, sharded
from service.sessions.errors import Conflict, NothingToUndo, VersionMismatch, not_found
from service.sessions.keys import ENCOUNTER, Keys
from service.sessions.meter import METER, Meter
from service.sessions.records import Encounter, Segment

PREFIX = ENCOUNTER
Replay = Callable[[Encounter, Sequence[dict]], tuple[dict, list]]

# KEYS: main, events, undo, live, audit. ARGV: version read, ttl, message ("" for none), events to cut from
# the log's tail, undo op ("push" | "pop" | ""), undo entry, undo depth, n hash fields, n events to append,
# the log's byte cap (0: none), n audit entries to append, the audit's byte cap (0: none), then the
# field/value pairs, then the events, then the audit entries. Returns {1, log length, bytes stored}, {0} (the
# version moved) or {-1} (no encounter). The hash keeps the byte counts of the log, the undo stack and the
# audit (`log_bytes`, `undo_bytes`, `audit_bytes`); past its cap the log's oldest events give way to one
# `truncated` event (service/sessions/log.py), and past its own the audit's oldest entries to one `truncated`
# entry (service/sessions/audit.py). HSET is the first write: a full Redis refuses it and nothing is applied.
COMMIT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {-1} end
if version ~= ARGV[1] then return {0} end
local fields, pushed, cap, audited = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
if fields > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 13, 12 + 2 * fields)) end
local log_bytes = tonumber(redis.call('HGET', KEYS[1], 'log_bytes') or '0')
local cut = tonumber(ARGV[4])
if cut > 0 then
  for _, item in ipairs(redis.call('LRANGE', KEYS[2], -cut, -1)) do log_bytes = log_bytes - #item end
  redis.call('LTRIM', KEYS[2], 0, -cut - 1)
end
local first = 13 + 2 * fields
for i = first, first + pushed - 1 do log_bytes = log_bytes + #ARGV[i] end
for i = first, first + pushed - 1, 500 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 499, first + pushed - 1)))
end
local after = first + pushed
local audit_bytes = tonumber(redis.call('HGET', KEYS[1], 'audit_bytes') or '0')
for i = after, after + audited - 1 do audit_bytes = audit_bytes + #ARGV[i] end
for i = after, after + audited - 1, 500 do
  redis.call('RPUSH', KEYS[5], unpack(ARGV, i, math.min(i + 499, after + audited - 1)))
end
local audit_cap = tonumber(ARGV[12])
if audit_cap > 0 and audit_bytes > audit_cap then
  local dropped, through = 0, -1
  while audit_bytes + 128 > audit_cap and redis.call('LLEN', KEYS[5]) > 0 do  -- room for the marker
    local item = redis.call('LPOP', KEYS[5])
    audit_bytes = audit_bytes - #item
    local entry = cjson.decode(item)
    if entry.type == 'truncated' then dropped = dropped + entry.dropped else dropped = dropped + 1 end
    if type(entry.nonce) == 'number' and entry.nonce > through then through = entry.nonce end
  end
  if dropped > 0 then
    local marker = cjson.encode({type = 'truncated', dropped = dropped, nonce = through})
    redis.call('LPUSH', KEYS[5], marker)
    audit_bytes = audit_bytes + #marker
  end
end
if cap > 0 and log_bytes > cap then
  local dropped, last = 0, nil
  while log_bytes + 128 > cap and redis.call('LLEN', KEYS[2]) > 0 do  -- room for the marker (log.MARKER_ROOM)
    local item = redis.call('LPOP', KEYS[2])
    log_bytes = log_bytes - #item
    last = cjson.decode(item)
    if last.type == 'truncated' then dropped = dropped + (last.dropped or 1) else dropped = dropped + 1 end
  end
  if last then
    local marker = cjson.encode({type = 'truncated', seq = last.seq, segment = last.segment, dropped = dropped})
    redis.call('LPUSH', KEYS[2], marker)
    log_bytes = log_bytes + #marker
  end
end
local undo_bytes = tonumber(redis.call('HGET', KEYS[1], 'undo_bytes') or '0')
if ARGV[5] == 'push' then
  redis.call('LPUSH', KEYS[3], ARGV[6])
  undo_bytes = undo_bytes + #ARGV[6]
  while redis.call('LLEN', KEYS[3]) > tonumber(ARGV[7]) do undo_bytes = undo_bytes - #redis.call('RPOP', KEYS[3]) end
elseif ARGV[5] == 'pop' then
  local top = redis.call('LPOP', KEYS[3])
  if top then undo_bytes = undo_bytes - #top end
end
log_bytes, undo_bytes = math.max(log_bytes, 0), math.max(undo_bytes, 0)
redis.call('HSET', KEYS[1], 'log_bytes', log_bytes, 'undo_bytes', undo_bytes, 'audit_bytes', audit_bytes)
for _, i in ipairs({1, 2, 3, 5}) do redis.call('EXPIRE', KEYS[i], ARGV[2]) end
if ARGV[3] ~= '' then redis.call('PUBLISH', KEYS[4], ARGV[3]) end
local held = redis.call('HSTRLEN', KEYS[1], 'state') + redis.call('HSTRLEN', KEYS[1], 'declarations') +
  redis.call('HSTRLEN', KEYS[1], 'edits')
return {1, redis.call('LLEN', KEYS[2]), log_bytes + undo_bytes + audit_bytes + held}
"""
# KEYS: main, events. ARGV: since, most events, most bytes. Returns {token, tenant, more, event...}: the
# encounter's token digest and tenant (nil when it is gone), the events after `since` (at least one, then as
# many as fit in the bytes), and 1 when more follow. `seq` rises along the
# log, and at most (seq - since) entries lie after `since`, so the page starts at LLEN - (seq - since)
# unless undos removed events since then: a binary search on `seq` finds it then.
PAGE = """
local n = redis.call('LLEN', KEYS[2])
local since = tonumber(ARGV[1])
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local function seq_at(i) return cjson.decode(redis.call('LINDEX', KEYS[2], i)).seq end
local lo = math.min(math.max(n - (seq - since), 0), n)
if lo < n and seq_at(lo) <= since then
  local a, b = lo + 1, n
  while a < b do
    local m = math.floor((a + b) / 2)
    if seq_at(m) > since then b = m else a = m + 1 end
  end
  lo = a
end
local who = redis.call('HMGET', KEYS[1], 'token', 'tenant')
local out, size = {who[1], who[2], 0}, 0
for _, item in ipairs(redis.call('LRANGE', KEYS[2], lo, lo + tonumber(ARGV[2]) - 1)) do
  if #out > 3 and size + #item > tonumber(ARGV[3]) then break end
  out[#out + 1] = item
  size = size + #item
end
if lo + #out - 3 < n then out[3] = 1 end
return out
"""
# KEYS: main, events, undo, audit. ARGV: "1" to add the undo stack's top, "1" to add every audit entry, and
# optionally the undo depth kept. Returns {hash fields and values, log length, undo depth, top or nil, audit
# entries or nil, bytes of the undo stack's bottom entry when the stack is that deep (a commit pushing one
# more drops it) or nil}: one consistent read. A script rather than MULTI/EXEC, because Redis at its
# maxmemory refuses every command queued in a MULTI, reads too, and a full store must still let a client
# read an encounter and end it (which frees memory).
SNAPSHOT = """
local top, audit = false, false
if ARGV[1] == '1' then top = redis.call('LINDEX', KEYS[3], 0) end
if ARGV[2] == '1' then audit = redis.call('LRANGE', KEYS[4], 0, -1) end
local depth, bottom = redis.call('LLEN', KEYS[3]), false
if ARGV[3] and depth >= tonumber(ARGV[3]) then bottom = #redis.call('LINDEX', KEYS[3], -1) end
return {redis.call('HGETALL', KEYS[1]), redis.call('LLEN', KEYS[2]), depth, top, audit, bottom}
"""
# KEYS: main. ARGV: ttl, then the hash's field/value pairs. A new encounter.
CREATE = """
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""
# KEYS: main, events, undo, live, audit. ARGV: version read, message. Same answers as COMMIT.
DELETE = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return -1 end
if version ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5])
redis.call('PUBLISH', KEYS[4], ARGV[2])
return 1
"""


def live_message(new: Encounter | None, events: Sequence[dict[str, Any]] = ()) -> str:
    """What a write publishes on the encounter's channel: the new version and `seq` and the events it
    logged (so streams need not read the log; none past `log.LIVE_EVENTS_BYTES`, and streams read the
    log instead), or `{"end": true}` when the encounter ended."""
    if new is None:
        return _dump({"end": True})
    return _dump({"version": new.version, "seq": new.seq, "events": log.live_events(events)})


def check_version(current: Encounter, expected: int | None) -> None:
    """`If-Match` semantics: a named version must be the current one."""
    if expected is not None and expected != current.version:
        raise VersionMismatch(f"the encounter is at version {current.version}, not {expected}")


def replay_nothing(before: Encounter, edits: Sequence[dict]) -> tuple[dict, list]:
    """The default undo: the snapshot, refused (409 naming it) when an edit was made after the segment."""
    if edits:
        raise blocked_by(edits[0], "this store cannot replay edits")
    return before.state, before.declarations


def blocked_by(edit: dict[str, Any], why: str) -> Conflict:
    """409: undoing would lose `edit` (made after the segment and not replayable onto the state before it)."""
    what = edit.get("op", "edit").replace("_", " ") + (f" {edit['id']!r}" if edit.get("id") else "")
    return Conflict(f"cannot undo: the {what} made at version {edit.get('version')} after the segment "
                    f"cannot be kept ({why}); revert it by hand or leave the segment", ("encounter_id",))


class RedisEncounters:
    """The encounter repository on Redis; `client` may be a function so nothing connects before first use.
    Each encounter's log keeps at most `max_log_bytes` of events (0: no cap; see service/sessions/log.py), and
    its audit at most `max_audit_bytes` of entries (0: no cap; see service/sessions/audit.py)."""

    def __init__(self, client: Redis | Callable[[], Redis], ttl: int = 24 * 3600,
                 max_log_bytes: int = records.MAX_LOG_BYTES, max_audit_bytes: int = records.MAX_AUDIT_BYTES,
                 wait: tuple[int, int] = (0, 0)):
        self._client = _SharedClient(client, wait)  # tenant-scoped copies share one client and its pool
        self.ttl = ttl
        self.max_log_bytes, self.max_audit_bytes = max_log_bytes, max_audit_bytes
        self.tenant: str | None = None

    def count_unreplicated(self, count: Callable[[], None]) -> None:
        """Call `count()` for each write a cluster primary answered that no replica confirmed in time."""
        self._client.on_unreplicated = count

    def for_tenant(self, tenant: str | None) -> RedisEncounters:
        """This repository as seen by `tenant`: it records new encounters as theirs and finds no others.

        With `tenant` None (API keys off) nothing is recorded or checked beyond the token.
        """
        scoped = copy.copy(self)
        scoped.tenant = tenant
        return scoped

    @property
    def redis(self) -> Redis:
        return self._client.get()

    def create(self, ruleset: str, state: dict[str, Any], dice: dict[str, Any] | None = None
               ) -> tuple[Encounter, str]:
        """Store a new encounter (with its committed `dice`, service.sessions.audit); returns it and its
        token (shown once, stored only as a digest)."""
        encounter = Encounter(records.new_id(), ruleset, 1, state, [], dice=dice or commitments.fresh_dice())
        token = records.new_token()
        stored = {"token": records.digest(token), "ruleset": ruleset, "version": 1, "state": _dump(state),
                  "declarations": "[]", "seq": 0, "tenant": self.tenant or "", "dice": _dump(encounter.dice)}
        self._client.write(CREATE, [Keys.of(encounter.id).main],
                           [self.ttl, *(item for pair in stored.items() for item in pair)])
        return replace(encounter, stored=len(_dump(state)) + 2), token

    def get(self, encounter_id: str, token: str) -> Encounter:
        """The encounter (refreshing its TTL), or EncounterNotFound for an unknown id or a wrong token."""
        encounter = self._read(self.redis, encounter_id, token)
        self._touch(encounter_id)
        return encounter

    def update(self, encounter_id: str, token: str, change: Callable[[Encounter], tuple[dict, list]],
               expected: int | None = None, edit: dict[str, Any] | None = None) -> Encounter:
        """Apply `change(current) -> (state, declarations)` atomically; it may raise to refuse. `edit`
        describes the change so an undo of the segment before it can replay it."""
        # the version is checked after `change`/`compute`: a bad body answers 422 even with a stale If-Match
        current, _ = self._snapshot(encounter_id, token, None)
        new = records.written(current, *change(current), edit=edit)
        check_version(current, expected)
        return self._commit(current, expected, new, _fields(new, edits=edit is not None))

    def resolve(self, encounter_id: str, token: str, compute: Callable[[Encounter], Segment],
                expected: int | None = None, meter: Meter | None = None) -> tuple[Encounter, list[dict[str, Any]]]:
        """Resolve one segment with `compute(current)`: one script writes state, log, undo, publish.

        With the client's byte `meter`, its sum is read (and checked) in the snapshot's round trip and the
        encounter's new figure sent in the commit's (on one Redis; on a cluster each takes its own): two
        round trips a step in all."""
        # the version is checked after `change`/`compute`: a bad body answers 422 even with a stale If-Match
        if meter is None or is_cluster(self.redis):
            return self._resolve(encounter_id, token, compute, expected, meter)
        current, bytes_before = self._metered_snapshot(encounter_id, token, meter)
        segment = compute(current)
        check_version(current, expected)
        events = records.numbered(segment, current.seq)
        new = records.resolved(current, segment, events)
        nonce = None if segment.audit is None else segment.audit["nonce"]
        fields = _fields(new, edits=True)
        undo, audited = _dump(records.undo_entry(current, len(events), nonce)), records.audit_entries(segment, events)
        items, entries = [_dump(event) for event in events], [_dump(entry) for entry in audited]
        guess = bytes_before.after(fields, items, undo, entries, self.max_log_bytes, self.max_audit_bytes)
        done, *metered = self._pipelined((COMMIT, Keys.of(current.id).all, self._commit_args(
            current, fields, push=items, undo=("push", undo), message=live_message(new, events), audited=entries)),
            *([] if guess is None else [(METER, [meter.key], meter.args(current.id, guess))]))
        if not isinstance(done, list) or done[0] != 1:
            if metered:  # best effort: the guess went in, the write did not
                self._meter(meter, current.id, bytes_before.total)
            if isinstance(done, Exception):
                raise done
            self._answer(done[0], current, expected)
        if not metered or done[2] != guess or isinstance(metered[0], Exception):
            self._meter(meter, current.id, done[2])
        return replace(new, total=done[1], stored=done[2]), events

    def _resolve(self, encounter_id: str, token: str, compute: Callable[[Encounter], Segment],
                 expected: int | None, meter: Meter | None) -> tuple[Encounter, list[dict[str, Any]]]:
        if meter is not None:
            meter.check(int(self.redis.hget(meter.key, "_total") or 0))
        current, _ = self._snapshot(encounter_id, token, None)
        segment = compute(current)
        check_version(current, expected)
        events = records.numbered(segment, current.seq)
        new = records.resolved(current, segment, events)
        nonce = None if segment.audit is None else segment.audit["nonce"]
        new = self._commit(current, expected, new, _fields(new, edits=True), push=events,
                           undo=("push", _dump(records.undo_entry(current, len(events), nonce))),
                           message=live_message(new, events), audited=records.audit_entries(segment, events))
        if meter is not None:
            self._meter(meter, new.id, new.stored)
        return new, events

    def _metered_snapshot(self, encounter_id: str, token: str, meter: Meter) -> tuple[Encounter, _Held]:
        """The meter's sum (checked) and the encounter's snapshot in one round trip, with what it holds."""
        keys = Keys.of(encounter_id)
        total, snapshot = self._pipelined(("HGET", meter.key, "_total"),
                                          (SNAPSHOT, keys.stored, ["", "", records.UNDO_DEPTH]))
        for answer in (total, snapshot):
            if isinstance(answer, Exception):
                raise answer
        meter.check(int(total or 0))
        flat, log_length, depth, _, _, bottom = snapshot
        raw = dict(zip(flat[::2], flat[1::2]))
        current = self._encounter(encounter_id, token, raw, log_length, depth)
        return current, _Held.of(raw, depth, bottom)

    def _pipelined(self, *calls: tuple) -> list[Any]:
        """`calls` in one round trip (a pipeline, no MULTI): ("HGET", key, field), or (script source, keys,
        args) sent as EVALSHA; each answer, or the exception it raised. A script the server forgot is loaded
        and everything sent again (a refused EVALSHA ran nothing; each call here may safely run twice)."""
        redis = self.redis
        for attempt in (1, 2):
            with redis.pipeline(transaction=False) as pipe:
                for call in calls:
                    if call[0] == "HGET":
                        pipe.hget(call[1], call[2])
                    else:
                        source, keys, args = call
                        pipe.evalsha(self._script(source).sha, len(keys), *keys, *args)
                answers = pipe.execute(raise_on_error=False)
            if attempt == 2 or not any(isinstance(answer, NoScriptError) for answer in answers):
                return answers
            for call in calls:
                if call[0] != "HGET":
                    script = self._script(call[0])
                    script.sha = redis.script_load(script.script)
        raise AssertionError("unreachable")

    def _meter(self, meter: Meter, encounter_id: str, stored: int) -> None:
        """Set the encounter's figure on the client's meter; best effort (a full Redis may refuse it)."""
        try:
            self._script(METER)(keys=[meter.key], args=meter.args(encounter_id, stored))
        except RedisError:
            pass

    def update_dice(self, encounter_id: str, token: str, change: Callable[[Encounter], dict[str, Any]],
                    expected: int | None = None) -> Encounter:
        """Replace the encounter's dice with `change(current)` (it may raise to refuse): a new version."""
        current, _ = self._snapshot(encounter_id, token, None)
        new = records.dice_written(current, change(current))
        check_version(current, expected)
        return self._commit(current, expected, new, {"version": new.version, "dice": _dump(new.dice)})

    def audit(self, encounter_id: str, token: str) -> tuple[Encounter, list[dict[str, Any]]]:
        """The encounter and every entry of its audit log, oldest first."""
        current, entries = self._snapshot(encounter_id, token, None, audit=True)
        self._touch(encounter_id)
        return current, entries

    def undo(self, encounter_id: str, token: str, expected: int | None = None,
             replay: Replay = replay_nothing) -> Encounter:
        """Undo the last resolved segment: its snapshot, with the edits made since replayed onto it by
        `replay(before, edits) -> (state, declarations)`; its events leave the log, an `undo` event joins
        it (NothingToUndo when there is no segment; Conflict when an edit cannot be replayed)."""
        current, top = self._snapshot(encounter_id, token, expected, undo_top=True)
        if top is None:
            raise NothingToUndo("no resolved segment to undo", ("encounter_id",))
        entry = json.loads(top)
        state, declarations = replay(records.before_segment(current, entry), current.edits)
        new = records.undone(current, entry, state, declarations)
        removed = set(records.undone_seqs(entry, current))
        tail = current.seq - min(removed, default=current.seq + 1) + 1  # every removed event is in the tail
        kept = []
        if removed and tail > 0:
            kept = [item for item in self.redis.lrange(Keys.of(encounter_id).events, -tail, -1)
                    if _kept(json.loads(item), removed)]
        marker = records.undo_event(entry, current)
        return self._commit(current, expected, new, _fields(new, edits=True), cut=max(tail, 0) if removed else 0,
                            push=[*kept, marker], undo=("pop", ""), message=live_message(new, [marker]),
                            audited=[records.undo_marker(entry, current)])

    def delete(self, encounter_id: str, token: str, expected: int | None = None
               ) -> tuple[Encounter, list[dict[str, Any]]]:
        """End the encounter: every key goes, and its streams get a last `end` event. Returns the
        encounter and its audit log as they were (the answer reveals the last seed)."""
        current, entries = self._snapshot(encounter_id, token, expected, audit=True)
        keys = Keys.of(encounter_id)
        self._answer(self._client.write(DELETE, keys.all, [current.version, live_message(None)]), current, expected)
        return current, entries

    def events(self, encounter_id: str, token: str, offset: int, limit: int) -> tuple[list[dict], int]:
        """One page of the event log and the log's length."""
        keys = Keys.of(encounter_id)
        with self.redis.pipeline(transaction=False) as pipe:  # no MULTI: a full Redis refuses it, reads too
            pipe.hmget(keys.main, "token", "tenant").lrange(keys.events, offset, offset + limit - 1)
            stored, page, total = pipe.llen(keys.events).execute()
        _check_token(encounter_id, token, stored[0])
        self._check_tenant(encounter_id, stored[1])
        self._touch(encounter_id)
        return [json.loads(item) for item in page], total

    def log_page(self, encounter_id: str, token: str, since: int, max_bytes: int = log.PAGE_BYTES,
                 max_events: int = log.PAGE_EVENTS) -> tuple[list[dict[str, Any]], bool]:
        """The logged events with `seq` above `since`, one page of about `max_bytes` (at least one event),
        and whether more follow: a stream's catch-up, read from Redis a page at a time."""
        keys = Keys.of(encounter_id)
        digest, tenant, more, *page = self._script(PAGE)(keys=[keys.main, keys.events],
                                                         args=[since, max_events, max_bytes])
        _check_token(encounter_id, token, digest)
        self._check_tenant(encounter_id, tenant)
        return [json.loads(item) for item in page], bool(more)

    @contextmanager
    def listen(self, encounter_id: str) -> Iterator[Callable[[float], bool]]:
        """A `wait(timeout) -> bool` that returns True when the encounter changed (pub/sub); its `events`
        keep what the messages carried (for a stream whose encounter was deleted before it read the log)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            if self._client.sharded:
                pubsub.ssubscribe(Keys.of(encounter_id).live)
            else:
                pubsub.subscribe(Keys.of(encounter_id).live)
            yield _Waiter(pubsub, self._client.sharded)
        finally:
            pubsub.close()

    def _snapshot(self, encounter_id: str, token: str, expected: int | None,
                  undo_top: bool = False, audit: bool = False) -> tuple[Encounter, Any]:
        """The encounter as one consistent read (a script, nothing WATCHed), checked against `expected`, and
        the undo stack's top (`undo_top`) or every audit entry (`audit`) read with it (else None)."""
        keys = Keys.of(encounter_id)
        flat, total, undo, top, entries, *_ = self._script(SNAPSHOT)(
            keys=keys.stored, args=["1" if undo_top else "", "1" if audit else ""])
        raw = dict(zip(flat[::2], flat[1::2]))
        current = self._encounter(encounter_id, token, raw, total, undo)
        check_version(current, expected)
        if audit:
            return current, [json.loads(item) for item in entries or []]
        return current, top

    def _commit(self, current: Encounter, expected: int | None, new: Encounter, fields: dict[str, Any],
                cut: int = 0, push: Sequence[Any] = (), undo: tuple[str, str] = ("", ""),
                message: str = "", audited: Sequence[dict[str, Any]] = ()) -> Encounter:
        """Write everything at once if the encounter is still at `current.version` (else refuse); `new` as
        stored: its log's length and the bytes it holds."""
        args = self._commit_args(current, fields, cut, push, undo, message, audited)
        done, *stored = self._client.write(COMMIT, Keys.of(current.id).all, args)
        self._answer(done, current, expected)
        return replace(new, total=stored[0], stored=stored[1])

    def _commit_args(self, current: Encounter, fields: dict[str, Any], cut: int = 0, push: Sequence[Any] = (),
                     undo: tuple[str, str] = ("", ""), message: str = "", audited: Sequence[Any] = ()) -> list:
        pairs = [item for pair in fields.items() for item in pair]
        items = [item if isinstance(item, (str, bytes)) else _dump(item) for item in push]
        entries = [item if isinstance(item, str) else _dump(item) for item in audited]
        return [current.version, self.ttl, message, cut, undo[0], undo[1], records.UNDO_DEPTH,
                len(fields), len(items), self.max_log_bytes, len(entries), self.max_audit_bytes, *pairs, *items,
                *entries]

    def _answer(self, done: int, current: Encounter, expected: int | None) -> None:
        if done == -1:
            raise not_found(current.id)
        if done == 0:
            if expected is not None:
                raise VersionMismatch("the encounter changed meanwhile; read it again")
            raise Conflict("the encounter changed meanwhile; read it again and retry")

    def _script(self, source: str) -> Any:
        return self._client.script(source)

    def _read(self, conn: Redis, encounter_id: str, token: str) -> Encounter:
        keys = Keys.of(encounter_id)
        with conn.pipeline(transaction=False) as pipe:  # one round trip
            raw, total, undo = pipe.hgetall(keys.main).llen(keys.events).llen(keys.undo).execute()
        return self._encounter(encounter_id, token, raw, total, undo)

    def _encounter(self, encounter_id: str, token: str, raw: dict, total: int, undo: int) -> Encounter:
        _check_token(encounter_id, token, raw.get(b"token"))
        self._check_tenant(encounter_id, raw.get(b"tenant"))
        # an encounter stored before committed dice gets its commitment with its next write
        dice = json.loads(raw[b"dice"]) if b"dice" in raw else commitments.fresh_dice()
        return Encounter(encounter_id, raw[b"ruleset"].decode(), int(raw[b"version"]), json.loads(raw[b"state"]),
                         json.loads(raw[b"declarations"]), int(raw[b"seq"]), total, undo,
                         tuple(json.loads(raw.get(b"edits") or b"[]")), dice=dice)

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


@dataclass(frozen=True)
class _Held:
    """What an encounter holds in Redis as a snapshot found it (COMMIT's byte figures), and the bytes of the
    undo entry a commit pushing one more would drop (None: none dropped)."""

    held: int
    log: int
    undo: int
    audit: int
    depth: int
    bottom: int | None

    @classmethod
    def of(cls, raw: dict, depth: int, bottom: int | None) -> _Held:
        held = sum(len(raw.get(name, b"")) for name in (b"state", b"declarations", b"edits"))
        return cls(held, *(int(raw.get(name) or 0) for name in (b"log_bytes", b"undo_bytes", b"audit_bytes")),
                   depth, bottom if depth >= records.UNDO_DEPTH else None)

    @property
    def total(self) -> int:
        return self.held + self.log + self.undo + self.audit

    def after(self, fields: dict[str, Any], events: Sequence[str], undo: str, audited: Sequence[str],
              log_cap: int, audit_cap: int) -> int | None:
        """The figure COMMIT will answer for a step writing `fields`, pushing `events`, `undo` and `audited`,
        worked out as the script does; None when the script would drop log or audit entries (past a cap)."""
        log_bytes = self.log + sum(map(_bytes, events))
        audit_bytes = self.audit + sum(map(_bytes, audited))
        if (log_cap and log_bytes > log_cap) or (audit_cap and audit_bytes > audit_cap) \
                or self.depth > records.UNDO_DEPTH:
            return None
        undo_bytes = self.undo + _bytes(undo) - (self.bottom or 0)
        held = sum(_bytes(fields.get(name, "")) for name in ("state", "declarations", "edits"))
        return held + max(log_bytes, 0) + max(undo_bytes, 0) + audit_bytes


def _bytes(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode())


class _Waiter:
    """`wait(timeout) -> bool`: a message came within `timeout` seconds (subscription confirmations do not
    count); `events` holds the last events the messages carried."""

    def __init__(self, pubsub: Any, sharded: bool = False):
        self.pubsub, self.events = pubsub, []
        self._read = pubsub.get_sharded_message if sharded else pubsub.get_message

    def __call__(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            message = self._read(timeout=max(deadline - time.monotonic(), 0.0))
            if message is not None:
                self.events = [*self.events, *json.loads(message["data"]).get("events", [])][-1000:]
                return True
            if time.monotonic() >= deadline:
                return False


def _kept(event: dict[str, Any], removed: set[int]) -> bool:
    """An event an undo leaves in the log: not one of the undone step's, or the `truncated` marker (which
    may carry the `seq` of one of them when the step was cut by the cap)."""
    return event["seq"] not in removed or event.get("type") == "truncated"


def _check_token(encounter_id: str, token: str, stored: bytes | None) -> None:
    if stored is None or not records.token_matches(token, stored.decode()):
        raise not_found(encounter_id)


def _fields(encounter: Encounter, edits: bool = False) -> dict[str, Any]:
    fields = {"version": encounter.version, "state": _dump(encounter.state),
              "declarations": _dump(encounter.declarations), "seq": encounter.seq, "dice": _dump(encounter.dice)}
    if edits:
        fields["edits"] = _dump(list(encounter.edits))
    return fields


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class _SharedClient:
    """A Redis client made on first use and then shared by every copy of the repository holding this.

    Without it each per-request tenant copy made its own client, and so a new connection per request.
    """

    def __init__(self, client: Redis | Callable[[], Redis], wait: tuple[int, int] = (0, 0)):
        self._client = client
        self._wait = wait
        self._lock = threading.Lock()
        self._scripts: dict[str, Any] = {}
        self._durable: Durable | None = None
        self._sharded: bool | None = None
        self.on_unreplicated: Callable[[], None] = lambda: None  # the app counts writes no replica confirmed

    def script(self, source: str) -> Any:
        """A registered Lua script (EVALSHA, loaded again by redis-py if the server forgot it); on a cluster
        with sharded pub/sub its PUBLISH is SPUBLISH (the message stays on the encounter's shard)."""
        if source not in self._scripts:
            text = source.replace("redis.call('PUBLISH'", "redis.call('SPUBLISH'") if self.sharded else source
            self._scripts[source] = self.get().register_script(text)
        return self._scripts[source]

    def write(self, source: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """Run a write script: on a cluster with `wait` replicas, answered once they hold it (Durable)."""
        client = self.get()
        if self._wait[0] > 0 and is_cluster(client):
            if self._durable is None:
                self._durable = Durable(client, self._wait[0], self._wait[1], lambda: self.on_unreplicated())
            return self._durable.run(self.script(source), keys, args)
        return self.script(source)(keys=keys, args=args)

    @property
    def sharded(self) -> bool:
        """Streams on sharded pub/sub (a cluster of Redis 7+; service.sessions.cluster.sharded)."""
        if self._sharded is None:
            self._sharded = sharded(self.get())
        return self._sharded

    def get(self) -> Redis:
        if callable(self._client) and not isinstance(self._client, (Redis, RedisCluster)):
            with self._lock:
                if callable(self._client) and not isinstance(self._client, (Redis, RedisCluster)):
                    self._client = self._client()
        return self._client  # type: ignore[return-value]
