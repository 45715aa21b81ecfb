"""A raw-socket event-stream client for the fault tests: it keeps only each event's `id` and `event` name,
so reading a stream of millions of bytes costs the test little, and it can pause to play a slow client."""
from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit


class SseClient:
    """One open `GET .../stream` connection; `read_until(seq)` collects (id, event) pairs up to `seq`."""

    def __init__(self, encounter_url: str, token: str, since: int | None = None, rcvbuf: int | None = None):
        parts = urlsplit(encounter_url)
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect((parts.hostname, parts.port))
        query = "" if since is None else f"?since={since}"
        self.sock.sendall(f"GET {parts.path}/stream{query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                          f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self._buffer = b""
        self.status = int(self._headers().split(b" ", 2)[1])
        self.events: list[tuple[int | None, str]] = []

    def _headers(self) -> bytes:
        self.sock.settimeout(10)
        while b"\r\n\r\n" not in self._buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the headers")
            self._buffer += chunk
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        return head

    def read_until(self, seq: int, seconds: float = 30.0, chunk: int = 262144) -> bool:
        """Read until an event with id `seq` (True), the connection closes or `seconds` pass (False)."""
        deadline = time.monotonic() + seconds
        self.sock.settimeout(0.5)
        while time.monotonic() < deadline:
            if self._parse(seq):
                return True
            try:
                data = self.sock.recv(chunk)
            except TimeoutError:
                continue
            if not data:
                return self._parse(seq)
            self._buffer += data
        return False

    def _parse(self, seq: int) -> bool:
        *frames, self._buffer = self._buffer.split(b"\n\n")
        found = False
        for frame in frames:
            ident, name = None, None
            for line in frame.split(b"\n"):
                if line.startswith(b"id: "):
                    ident = int(line[4:])
                elif line.startswith(b"event: "):
                    name = line[7:].decode()
            if name is not None:
                self.events.append((ident, name))
                found = found or ident == seq
        return found

    def close(self) -> None:
        self.sock.close()
