"""service/devserver.py's port probe: a listening socket makes the port busy; TIME-WAIT sockets do not (gunicorn
binds with SO_REUSEADDR, and so does the probe)."""
from __future__ import annotations

import socket
from pathlib import Path

from service.devserver import _busy


def test_a_listening_port_is_busy():
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert _busy("127.0.0.1", listener.getsockname()[1]) == "the port is in use"


def test_time_wait_sockets_left_by_a_stop_do_not_make_the_port_busy():
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn's; accepted sockets inherit it
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        served, _ = listener.accept()
        served.close()  # the server closes first (as a stopping server closes its streams): TIME-WAIT on `port`
        client.recv(1)
        client.close()
    states = [line.split()[3] for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
              if int(line.split()[1].rsplit(":", 1)[1], 16) == port]
    assert "06" in states  # the socket really is in TIME-WAIT
    assert _busy("127.0.0.1", port) is None
