"""What the encounter store keeps, and how each write changes it (shared by the Redis and memory stores).

An encounter is a versioned JSON snapshot: the state, the declarations pending for the next segment, an
event log (every event numbered with a `seq` that is never reused, even after an undo), an undo stack
holding the snapshot before each of the last `UNDO_DEPTH` resolved segments, and the edits made since
the last resolved segment (so an undo can replay them: undo reverts the step, not the edits after it).

An undo removes the undone segment's events from the log and appends one `undo` event naming them, so a
stream resuming from `Last-Event-ID` learns about it.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from service.rules import registry
from service.rules.errors import NotFound
from service.sessions import audit

UNDO_DEPTH = 20
MAX_EDITS = 50  # edits kept for replay after a segment; past this an undo of that segment answers 409
MAX_LOG_BYTES = 8 * 1024 * 1024  # event JSON one encounter's log keeps; past it the oldest give way (log.py)
MAX_AUDIT_BYTES = 16 * 1024 * 1024  # audit JSON one encounter keeps; past it the oldest entries give way (audit.py)


@dataclass(frozen=True)
class Encounter:
    """One stored encounter as read: `total` events in its log, `undo` segments that can be undone."""

    id: str
    ruleset: str
    version: int
    state: dict[str, Any]
    declarations: list[dict[str, Any]]
    seq: int = 0
    total: int = 0
    undo: int = 0
    edits: tuple[dict[str, Any], ...] = ()  # edits since the last resolved segment, oldest first
    stored: int = 0  # bytes the store holds for it (state, declarations, edits, log, undo stack), after a write
    dice: dict[str, Any] = field(default_factory=dict)  # committed dice (service.sessions.audit); secret

    @property
    def segment(self) -> int:
        """Steps resolved so far: the state's counter of its ruleset's own step (`RoundEngine.step`: Combat
        Segments for tactical, rounds elsewhere), what the API answers as `segment`."""
        return int(self.state.get(step_of(self.ruleset), 0))


def step_of(ruleset: str) -> str:
    """The state field that counts a ruleset's resolved steps (the interface's `RoundEngine.step`)."""
    try:
        engine = registry.get(ruleset).engine
    except NotFound:
        engine = None
    return "segment" if engine is None else engine.step


@dataclass(frozen=True)
class Segment:
    """What resolving one segment produced, before the store numbers its events."""

    number: int
    seed: int | None
    events: list[dict[str, Any]]
    state: dict[str, Any]
    summary: dict[str, Any] = field(default_factory=dict)  # the ruleset's round summary fields
    audit: dict[str, Any] | None = None  # its audit entry (service.sessions.audit.resolution), when audited


def new_id() -> str:
    """A fresh, unguessable-enough encounter id (the token is the secret)."""
    return secrets.token_hex(12)


def new_token() -> str:
    """The secret that unlocks one encounter; only its sha256 is stored."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored: str) -> bool:
    """Constant-time comparison of a presented token with the stored digest."""
    return hmac.compare_digest(digest(token), stored)


def written(current: Encounter, state: dict[str, Any], declarations: list[dict[str, Any]],
            edit: dict[str, Any] | None = None) -> Encounter:
    """The encounter after a plain write (state and/or pending declarations); `edit` describes it for a
    later undo to replay (it is stamped with the version it made)."""
    edits = current.edits if edit is None else (*current.edits, {**edit, "version": current.version + 1})
    if len(edits) > MAX_EDITS:
        edits = ({"op": "many_edits", "version": current.version + 1},)  # too many to replay: blocks the undo
    return replace(current, version=current.version + 1, state=state, declarations=declarations, edits=edits)


def numbered(segment: Segment, last_seq: int) -> list[dict[str, Any]]:
    """The segment's events, each carrying its segment number and a log sequence number."""
    return [{**event, "segment": segment.number, "seq": last_seq + i}
            for i, event in enumerate(segment.events, start=1)]


def undo_entry(current: Encounter, events: int, nonce: int | None = None) -> dict[str, Any]:
    """What the undo stack keeps for one resolved segment: the encounter before it, which events it
    logged (`events` of them, numbered after `seq`) and the nonce of its dice."""
    return {"state": current.state, "declarations": current.declarations, "events": events,
            "seq": current.seq, "edits": list(current.edits), "nonce": nonce}


def resolved(current: Encounter, segment: Segment, events: list[dict[str, Any]]) -> Encounter:
    """The encounter after a segment: new state, declarations cleared, events appended."""
    return replace(current, version=current.version + 1, state=segment.state, declarations=[],
                   seq=current.seq + len(events), total=current.total + len(events),
                   undo=min(current.undo + 1, UNDO_DEPTH), edits=(),
                   dice=current.dice if segment.audit is None else audit.after_step(current.dice))


def audit_entries(segment: Segment, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a resolved segment appends to the audit log (nothing when it was not audited)."""
    return [] if segment.audit is None else [audit.logged(segment.audit, segment.number, events)]


def dice_written(current: Encounter, dice: dict[str, Any]) -> Encounter:
    """The encounter after its dice changed (client seed replaced, seed revealed): a new version."""
    return replace(current, version=current.version + 1, dice=dice)


def undone_seqs(entry: dict[str, Any], current: Encounter) -> list[int]:
    """The `seq` numbers of the events the undone segment logged (old entries: the last `events` ones)."""
    first = entry.get("seq", current.seq - entry["events"]) + 1
    return list(range(first, first + entry["events"]))


def undo_marker(entry: dict[str, Any], current: Encounter) -> dict[str, Any]:
    """The audit entry an undo appends: the nonce it took back (the resolution's entry stays)."""
    return audit.undo_marker(entry.get("nonce"), current.seq + 1)


def undo_event(entry: dict[str, Any], current: Encounter) -> dict[str, Any]:
    """The log entry an undo appends: which segment was undone and which events went with it."""
    return {"type": "undo", "segment": current.segment, "seq": current.seq + 1,
            "removed_seqs": undone_seqs(entry, current)}


def undone(current: Encounter, entry: dict[str, Any], state: dict[str, Any] | None = None,
           declarations: list[dict[str, Any]] | None = None) -> Encounter:
    """The encounter after undoing its last segment: the snapshot before it, or `state`/`declarations`
    when the edits made since were replayed onto that snapshot; its events leave the log and one `undo`
    event joins it (`seq` keeps counting up)."""
    return replace(current, version=current.version + 1,
                   state=entry["state"] if state is None else state,
                   declarations=entry["declarations"] if declarations is None else declarations,
                   seq=current.seq + 1, total=current.total - entry["events"] + 1, undo=current.undo - 1,
                   edits=(*entry.get("edits", ()), *current.edits))


def before_segment(current: Encounter, entry: dict[str, Any]) -> Encounter:
    """The encounter as it was before its last resolved segment (what edits are replayed onto)."""
    return replace(current, state=entry["state"], declarations=entry["declarations"], edits=())
