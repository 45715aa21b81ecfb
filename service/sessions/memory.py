"""An in-memory twin of `RedisEncounters` for unit tests: same interface, same optimistic concurrency.

A write reads a snapshot under the lock, computes outside it, and commits under the lock only if the
encounter's version did not move meanwhile (else Conflict / VersionMismatch), like WATCH + MULTI/EXEC.
"""
from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from service.sessions import audit, commitments, log, records
from service.sessions.errors import Conflict, NothingToUndo, VersionMismatch, not_found
from service.sessions.records import Encounter, Segment
from service.sessions.repository import Replay, check_version, replay_nothing


@dataclass
class _Slot:
    digest: str
    encounter: Encounter
    expires: float
    tenant: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    undo: list[dict[str, Any]] = field(default_factory=list)  # newest first
    audit: list[dict[str, Any]] = field(default_factory=list)  # oldest first; undo never trims it, the cap does


class MemoryEncounters:
    """Encounters in a dict; `clock` is injectable so tests can expire them."""

    def __init__(self, ttl: int = 24 * 3600, clock: Callable[[], float] = time.monotonic,
                 max_log_bytes: int = records.MAX_LOG_BYTES, max_audit_bytes: int = records.MAX_AUDIT_BYTES):
        self.ttl, self.clock, self.max_log_bytes, self.max_audit_bytes = ttl, clock, max_log_bytes, max_audit_bytes
        self._slots: dict[str, _Slot] = {}
        self._changed = threading.Condition()
        self.tenant: str | None = None

    def for_tenant(self, tenant: str | None) -> MemoryEncounters:
        """This store as seen by `tenant` (same slots): new encounters are theirs, others' are not found."""
        scoped = copy.copy(self)
        scoped.tenant = tenant
        return scoped

    def create(self, ruleset: str, state: dict[str, Any], dice: dict[str, Any] | None = None
               ) -> tuple[Encounter, str]:
        """Store a new encounter with its committed dice; returns it and its token."""
        encounter = Encounter(records.new_id(), ruleset, 1, state, [], dice=dice or commitments.fresh_dice())
        token = records.new_token()
        with self._changed:
            self._slots[encounter.id] = _Slot(records.digest(token), encounter, self.clock() + self.ttl,
                                              self.tenant)
        return copy.deepcopy(encounter), token

    def get(self, encounter_id: str, token: str) -> Encounter:
        """The encounter (refreshing its TTL), or EncounterNotFound."""
        with self._changed:
            return copy.deepcopy(self._slot(encounter_id, token).encounter)

    def update(self, encounter_id: str, token: str, change: Callable[[Encounter], tuple[dict, list]],
               expected: int | None = None, edit: dict[str, Any] | None = None) -> Encounter:
        """Apply `change(current) -> (state, declarations)` if nobody wrote meanwhile (`edit`: see Redis)."""
        # the version is checked after `change`/`compute`: a bad body answers 422 even with a stale If-Match
        current = self._snapshot(encounter_id, token, None)
        new = records.written(current, *change(current), edit=edit)
        check_version(current, expected)
        with self._commit(encounter_id, token, current, expected) as slot:
            slot.encounter = new
            new = slot.encounter = _stored(slot)
        return copy.deepcopy(new)

    def resolve(self, encounter_id: str, token: str, compute: Callable[[Encounter], Segment],
                expected: int | None = None) -> tuple[Encounter, list[dict[str, Any]]]:
        """Resolve one segment with `compute(current)`; all of it lands, or none."""
        # the version is checked after `change`/`compute`: a bad body answers 422 even with a stale If-Match
        current = self._snapshot(encounter_id, token, None)
        segment = compute(current)
        check_version(current, expected)
        events = records.numbered(segment, current.seq)
        new = records.resolved(current, segment, events)
        nonce = None if segment.audit is None else segment.audit["nonce"]
        with self._commit(encounter_id, token, current, expected) as slot:
            slot.events = log.truncate([*slot.events, *copy.deepcopy(events)], self.max_log_bytes)
            slot.undo = [records.undo_entry(current, len(events), nonce), *slot.undo][:records.UNDO_DEPTH]
            slot.audit = audit.truncate([*slot.audit, *copy.deepcopy(records.audit_entries(segment, events))],
                                        self.max_audit_bytes)
            slot.encounter = new
            new = slot.encounter = _stored(slot)
        return copy.deepcopy(new), events

    def update_dice(self, encounter_id: str, token: str, change: Callable[[Encounter], dict[str, Any]],
                    expected: int | None = None) -> Encounter:
        """Replace the encounter's dice with `change(current)` (see RedisEncounters.update_dice)."""
        current = self._snapshot(encounter_id, token, None)
        new = records.dice_written(current, change(current))
        check_version(current, expected)
        with self._commit(encounter_id, token, current, expected) as slot:
            slot.encounter = new
        return copy.deepcopy(new)

    def audit(self, encounter_id: str, token: str) -> tuple[Encounter, list[dict[str, Any]]]:
        """The encounter and every entry of its audit log, oldest first."""
        with self._changed:
            slot = self._slot(encounter_id, token)
            return copy.deepcopy(slot.encounter), copy.deepcopy(slot.audit)

    def undo(self, encounter_id: str, token: str, expected: int | None = None,
             replay: Replay = replay_nothing) -> Encounter:
        """Undo the last resolved segment, replaying the edits made since (see RedisEncounters.undo)."""
        current = self._snapshot(encounter_id, token, expected)
        with self._changed:
            slot = self._slot(encounter_id, token)
            if not slot.undo:
                raise NothingToUndo("no resolved segment to undo", ("encounter_id",))
            entry = copy.deepcopy(slot.undo[0])
        state, declarations = replay(records.before_segment(current, entry), current.edits)
        new = records.undone(current, entry, state, declarations)
        removed = set(records.undone_seqs(entry, current))
        with self._commit(encounter_id, token, current, expected) as slot:
            slot.undo.pop(0)
            kept = [e for e in slot.events if e["seq"] not in removed or e["type"] == "truncated"]
            slot.events = log.truncate([*kept, records.undo_event(entry, current)], self.max_log_bytes)
            slot.audit = audit.truncate([*slot.audit, records.undo_marker(entry, current)], self.max_audit_bytes)
            slot.encounter = new
            new = slot.encounter = _stored(slot)
        return copy.deepcopy(new)

    def delete(self, encounter_id: str, token: str, expected: int | None = None
               ) -> tuple[Encounter, list[dict[str, Any]]]:
        """End the encounter; returns it and its audit log as they were."""
        with self._changed:
            slot = self._slot(encounter_id, token)
            check_version(slot.encounter, expected)
            del self._slots[encounter_id]
            self._changed.notify_all()
            return copy.deepcopy(slot.encounter), copy.deepcopy(slot.audit)

    def events(self, encounter_id: str, token: str, offset: int, limit: int) -> tuple[list[dict], int]:
        """One page of the event log and the log's length."""
        with self._changed:
            slot = self._slot(encounter_id, token)
            return copy.deepcopy(slot.events[offset:offset + limit]), len(slot.events)

    def log_page(self, encounter_id: str, token: str, since: int, max_bytes: int = log.PAGE_BYTES,
                 max_events: int = log.PAGE_EVENTS) -> tuple[list[dict[str, Any]], bool]:
        """One page of the logged events with `seq` above `since`, and whether more follow."""
        with self._changed:
            page, more = log.page_after(self._slot(encounter_id, token).events, since, max_bytes, max_events)
            return copy.deepcopy(page), more

    @contextmanager
    def listen(self, encounter_id: str) -> Iterator[Callable[[float], bool]]:
        """A `wait(timeout) -> bool` woken by any change to any encounter."""
        def wait(timeout: float) -> bool:
            with self._changed:
                return self._changed.wait(timeout)
        yield wait

    def _slot(self, encounter_id: str, token: str) -> _Slot:
        slot = self._slots.get(encounter_id)
        now = self.clock()
        foreign = slot is not None and self.tenant is not None and slot.tenant != self.tenant
        if slot is None or slot.expires <= now or foreign or not records.token_matches(token, slot.digest):
            if slot is not None and slot.expires <= now:
                del self._slots[encounter_id]
            raise not_found(encounter_id)
        slot.expires = now + self.ttl
        return slot

    def _snapshot(self, encounter_id: str, token: str, expected: int | None) -> Encounter:
        current = self.get(encounter_id, token)
        check_version(current, expected)
        return current

    @contextmanager
    def _commit(self, encounter_id: str, token: str, read: Encounter, expected: int | None) -> Iterator[_Slot]:
        with self._changed:
            slot = self._slot(encounter_id, token)
            if slot.encounter.version != read.version:
                if expected is not None:
                    raise VersionMismatch("the encounter changed meanwhile; read it again")
                raise Conflict("the encounter changed meanwhile; read it again and retry")
            yield slot
            self._changed.notify_all()


def _stored(slot: _Slot) -> Encounter:
    """The slot's encounter with its log's length and the bytes it holds (as the Redis store counts them)."""
    held = (slot.encounter.state, slot.encounter.declarations, list(slot.encounter.edits), *slot.events,
            *slot.undo, *slot.audit)
    return replace(slot.encounter, total=len(slot.events), stored=sum(len(log.dump(item)) for item in held))
