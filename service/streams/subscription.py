"""One process's Redis pub/sub connection for event streams, read from the hub's selector loop.

The hub subscribes to the channel of each encounter it has a stream for (SUBSCRIBE, not a pattern), so
a process never receives, parses or wakes up for the messages of encounters nobody watches through it.
The connection is made by redis-py (address, TLS, AUTH, HELLO, SELECT all as configured for the API's
client), then owned here: frames are parsed from the socket's bytes as they arrive, without redis-py's
blocking reader, so the selector loop never waits on Redis and one wake-up handles a whole burst.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

_INCOMPLETE = -1


class Subscription:
    """A subscribed connection: `subscribe`/`unsubscribe`/`ping` send, `read` returns the frames that
    arrived (lists such as `[b"message", channel, data]`, `[b"subscribe", channel, count]`, or `b"PONG"`).
    Raises redis-py's ConnectionError (or OSError) when the connection is gone."""

    def __init__(self, client: Any):
        pool = client.connection_pool
        # No health check: redis-py would PING and read the answer itself, taking a frame meant for us.
        self._connection = pool.connection_class(**{**pool.connection_kwargs, "health_check_interval": 0})
        self._connection.connect()
        self._sock = self._connection._sock  # redis-py keeps the socket there; we read it ourselves
        self._reader = RespReader()

    def fileno(self) -> int:
        return self._sock.fileno()

    def subscribe(self, channels: Iterable[str]) -> None:
        self._send("SUBSCRIBE", channels)

    def unsubscribe(self, channels: Iterable[str]) -> None:
        self._send("UNSUBSCRIBE", channels)

    def ping(self) -> None:
        self._connection.send_packed_command(self._connection.pack_command("PING"), check_health=False)

    def read(self) -> list[Any]:
        """The frames that arrived; call when the socket is readable (it does not wait for more)."""
        data = self._sock.recv(65536)
        if not data:
            raise RedisConnectionError("the pub/sub connection was closed by the server")
        pending = getattr(self._sock, "pending", None)  # TLS: decrypted bytes the selector cannot see
        while pending is not None and pending():
            data += self._sock.recv(65536)
        return self._reader.feed(data)

    def close(self) -> None:
        try:
            self._connection.disconnect()
        except (OSError, RedisConnectionError):
            pass

    def _send(self, command: str, channels: Iterable[str]) -> None:
        names = list(channels)
        if names:
            self._connection.send_packed_command(self._connection.pack_command(command, *names),
                                                 check_health=False)


class RespReader:
    """An incremental reader of RESP2 and RESP3 replies: feed bytes, get every complete reply so far."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        self._buffer += data
        replies, position = [], 0
        while position < len(self._buffer):
            reply, end = self._parse(position)
            if end == _INCOMPLETE:
                break
            replies.append(reply)
            position = end
        del self._buffer[:position]
        return replies

    def _parse(self, position: int) -> tuple[Any, int]:
        buffer = self._buffer
        line_end = buffer.find(b"\r\n", position)
        if line_end < 0:
            return None, _INCOMPLETE
        kind, head, after = buffer[position], bytes(buffer[position + 1:line_end]), line_end + 2
        if kind in b"*>~":  # array, push, set
            count, items = int(head), []
            for _ in range(max(count, 0)):
                item, after = self._parse(after)
                if after == _INCOMPLETE:
                    return None, _INCOMPLETE
                items.append(item)
            return (items if count >= 0 else None), after
        if kind in b"$=":  # bulk string, verbatim string
            size = int(head)
            if size < 0:
                return None, after
            if len(buffer) < after + size + 2:
                return None, _INCOMPLETE
            return bytes(buffer[after:after + size]), after + size + 2
        if kind in b":":
            return int(head), after
        if kind in b"+":
            return head, after
        if kind in b"-":
            return ResponseError(head.decode(errors="replace")), after
        if kind in b"_":
            return None, after
        raise RedisConnectionError(f"unexpected reply type {chr(kind)!r} on the pub/sub connection")
