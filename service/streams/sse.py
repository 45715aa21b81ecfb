"""The bytes of the encounter event stream (text/event-stream), shared by both ways of serving it."""
from __future__ import annotations

import json
from typing import Any

OPEN = ": stream open\n\n"
HEARTBEAT = ": heartbeat\n\n"
END = 'event: end\ndata: {"type": "end"}\n\n'  # the encounter ended (deleted or expired); the stream closes


def event(item: dict[str, Any]) -> str:
    """One logged event: `id` is its `seq` (what Last-Event-ID resumes from), `event` its type."""
    return f"id: {item['seq']}\nevent: {item.get('type', 'event')}\ndata: {json.dumps(item)}\n\n"


def closed(reason: str, last_seq: int) -> str:
    """The last event of a stream the server closes early (a client that stopped reading): why, and the
    `seq` of the last event it was sent (what `Last-Event-ID` resumes from)."""
    body = json.dumps({"type": "closed", "reason": reason, "last_seq": last_seq})
    return f"id: {last_seq}\nevent: closed\ndata: {body}\n\n"
