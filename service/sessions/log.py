"""An encounter's event log kept within a byte cap, and read a page at a time (issue 22, items 6 and 7).

The log keeps at most `max_log_bytes` of event JSON. A write that takes it past the cap drops the oldest
events, and one `truncated` event takes their place at the head of the log: it carries the `seq` of the
last event dropped (so `seq` still rises along the log, and a stream resuming from before it receives
it in place of what it can no longer get) and how many events were dropped in all (earlier markers'
counts included). The Redis store does this inside its commit script; `truncate` is the same rule for
the in-memory twin, and the tests hold both to it.

Readers take the log in pages cut by bytes (at least one event each), never the whole of it at once.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

PAGE_BYTES = 64 * 1024  # a stream's catch-up reads the log in pages of about this many bytes
PAGE_EVENTS = 256  # ... and at most this many events
LIVE_EVENTS_BYTES = 64 * 1024  # a write's message carries its events up to this size; past it streams page
MARKER_ROOM = 128  # bytes kept free under the cap for the marker (its JSON is under 100 bytes)


def dump(value: Any) -> str:
    """The stored form of an event (compact JSON); its length is what the cap counts."""
    return json.dumps(value, separators=(",", ":"))


def marker(last: dict[str, Any], dropped: int) -> dict[str, Any]:
    """The event that stands for `dropped` events ending with `last` (the newest one dropped)."""
    found = {"type": "truncated", "seq": last["seq"], "dropped": dropped}
    if last.get("segment") is not None:
        found["segment"] = last["segment"]
    return found


def dropped_by(event: dict[str, Any]) -> int:
    """How many logged events `event` stands for once dropped (a marker stands for the ones it replaced)."""
    return int(event.get("dropped", 1)) if event.get("type") == "truncated" else 1


def truncate(events: list[dict[str, Any]], cap: int) -> list[dict[str, Any]]:
    """`events` with the oldest dropped, and a marker put first, until their JSON fits in `cap` bytes
    (0: no cap). The same rule as the Redis commit script's."""
    total = sum(len(dump(event)) for event in events)
    if not cap or total <= cap:
        return events
    kept, dropped, last = list(events), 0, None
    while kept and total + MARKER_ROOM > cap:
        last = kept.pop(0)
        total -= len(dump(last))
        dropped += dropped_by(last)
    return [marker(last, dropped), *kept] if last is not None else kept


def page_after(events: Sequence[dict[str, Any]], since: int, max_bytes: int = PAGE_BYTES,
               max_events: int = PAGE_EVENTS) -> tuple[list[dict[str, Any]], bool]:
    """The events after `since`, cut to `max_bytes` (at least one) and `max_events`; and whether more
    follow. The in-memory twin's page; Redis finds the page with a script (repository.PAGE)."""
    after = [event for event in events if event["seq"] > since]
    page, size = [], 0
    for event in after[:max_events]:
        size += len(dump(event))
        if page and size > max_bytes:
            break
        page.append(event)
    return page, len(page) < len(after)


def live_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a write's message carries: its events, or none when they pass LIVE_EVENTS_BYTES (a stream
    then reads them from the log, page by page, as it would after missing a message)."""
    size = 0
    for event in events:
        size += len(dump(event))
        if size > LIVE_EVENTS_BYTES:
            return []
    return list(events)
