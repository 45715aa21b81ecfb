"""One open event stream as the hub holds it: its socket, what it wants and how far it has got."""
from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.streams.admission import Lease


@dataclass(eq=False)
class Stream:
    """One adopted connection: whose events it wants, from which `seq`, until when."""

    sock: socket.socket
    encounter_id: str
    token: str
    repository: Any  # the tenant-scoped encounter repository the stream was opened with
    since: int
    deadline: float
    lease: Lease | None = None
    pending: bytearray = field(default_factory=bytearray)
    poll: Callable[[], tuple[str, bool]] | None = None  # a polled stream: (text to send, done) every `every` s
    every: float = 0.5
    next_poll: float = 0.0
    waiting: bool = False  # the socket was full: the selector watches it for writability too
    behind: bool = False  # the log holds events after `since` not queued yet: read them a page at a time
    progress_at: float = 0.0  # when the socket last took bytes (or the stream last had none pending)
    closing_at: float | None = None  # a stalled stream: its `closed` event is queued; closed by this time
    closed: bool = False
