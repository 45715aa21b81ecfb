"""What the encounter store keeps, and how each write changes it (shared by the Redis and memory stores).

An encounter is a versioned JSON snapshot: the state, the declarations pending for the next segment, an
append-only event log (every event numbered with a `seq` that is never reused, even after an undo), and
an undo stack holding the snapshot before each of the last `UNDO_DEPTH` resolved segments.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

UNDO_DEPTH = 20


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

    @property
    def segment(self) -> int:
        """The state's segment counter (segments resolved so far)."""
        return int(self.state.get("segment", 0))


@dataclass(frozen=True)
class Segment:
    """What resolving one segment produced, before the store numbers its events."""

    number: int
    seed: int | None
    events: list[dict[str, Any]]
    state: dict[str, Any]
    summary: dict[str, Any] = field(default_factory=dict)  # the ruleset's round summary fields


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


def written(current: Encounter, state: dict[str, Any], declarations: list[dict[str, Any]]) -> Encounter:
    """The encounter after a plain write (state and/or pending declarations)."""
    return replace(current, version=current.version + 1, state=state, declarations=declarations)


def numbered(segment: Segment, last_seq: int) -> list[dict[str, Any]]:
    """The segment's events, each carrying its segment number and a log sequence number."""
    return [{**event, "segment": segment.number, "seq": last_seq + i}
            for i, event in enumerate(segment.events, start=1)]


def undo_entry(current: Encounter, events: int) -> dict[str, Any]:
    """What the undo stack keeps for one resolved segment."""
    return {"state": current.state, "declarations": current.declarations, "events": events}


def resolved(current: Encounter, segment: Segment, events: list[dict[str, Any]]) -> Encounter:
    """The encounter after a segment: new state, declarations cleared, events appended."""
    return replace(current, version=current.version + 1, state=segment.state, declarations=[],
                   seq=current.seq + len(events), total=current.total + len(events),
                   undo=min(current.undo + 1, UNDO_DEPTH))


def undone(current: Encounter, entry: dict[str, Any]) -> Encounter:
    """The encounter after undoing its last segment (its events trimmed; `seq` keeps counting up)."""
    return replace(current, version=current.version + 1, state=entry["state"],
                   declarations=entry["declarations"], total=current.total - entry["events"],
                   undo=current.undo - 1)
