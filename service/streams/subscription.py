"""One process's Redis pub/sub connection for event streams, read from the hub's selector loop.

`Feed` keeps it up (reconnects with backoff, PINGs each heartbeat, re-subscribes after a reconnect) and
turns what arrives into (kind, encounter id, data); `Subscription` is one connection and its reader.

The hub subscribes to the channel of each encounter it has a stream for (SUBSCRIBE, not a pattern; on a
Redis Cluster of Redis 7+ SSUBSCRIBE, one connection per shard), so a process never receives, parses or
wakes up for the messages of encounters nobody watches through it.
The connection is made by redis-py (address, TLS, AUTH, HELLO, SELECT all as configured for the API's
client), then owned here: frames are parsed from the socket's bytes as they arrive, without redis-py's
blocking reader, so the selector loop never waits on Redis and one wake-up handles a whole burst.
"""
from __future__ import annotations

import logging
import selectors
import threading
from collections.abc import Callable, Iterable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError, ResponseError

from service.sessions.cluster import is_cluster, sharded
from service.sessions.repository import Keys

log = logging.getLogger("referee.streams")

_INCOMPLETE = -1


class Feed:
    """The hub's subscriptions, kept up: the encounters' channels it is told to follow, a reconnect (with
    backoff, every followed channel subscribed again) when a connection fails, misses a PING or the cluster
    moves a followed channel's slot, and `read(subscription)` giving ("message", encounter id, data) and
    ("subscribed", encounter id, None) in order.

    On one Redis (or a cluster older than Redis 7) that is one connection and SUBSCRIBE. On a Redis Cluster
    of Redis 7+ it is sharded pub/sub: one connection per shard that holds a followed encounter, each
    SSUBSCRIBEd to the channels of its own slots, so a message never leaves its encounter's shard.
    """

    def __init__(self, redis: Callable[[], Any], selector: selectors.BaseSelector, clock: Callable[[], float]):
        self._redis, self._selector, self._clock = redis, selector, clock
        self._subscriptions: dict[str, Subscription] = {}  # by shard (node name); "" on one Redis
        self._where: dict[str, str] = {}  # followed encounter -> the shard its subscription is on
        self._sharded = False
        self.reconnect_at = float("inf")  # when to connect again while the connection is down
        self._backoff = 0.5
        self._awaiting_pong: set[str] = set()
        self.connected = threading.Event()  # set once the first connection is up

    @property
    def shards(self) -> int:
        """How many subscribed connections this process holds (one per shard with a followed encounter)."""
        return len(self._subscriptions)

    def connect(self, encounter_ids: Iterable[str]) -> None:
        """Open the connection(s) and subscribe every encounter in `encounter_ids`: their confirmations tell
        the hub to read what the streams missed while the connection was down."""
        try:
            client = self._redis()
            self._sharded = sharded(client)
            if not self._sharded:
                self._open("", client.get_redis_connection(client.get_default_node()) if is_cluster(client)
                           else client)
            for encounter_id in encounter_ids:
                self._subscribe(encounter_id)
        except (RedisError, RedisClusterException, OSError, ValueError) as error:
            self._lost(error)
            return
        self.reconnect_at, self._backoff = float("inf"), 0.5
        self._awaiting_pong.clear()
        self.connected.set()

    def subscribe(self, encounter_id: str) -> None:
        try:
            self._subscribe(encounter_id)
        except (RedisError, RedisClusterException, OSError, ValueError) as error:
            self._lost(error)

    def unsubscribe(self, encounter_id: str) -> None:
        shard = self._where.pop(encounter_id, None)
        subscription = self._subscriptions.get(shard) if shard is not None else None
        if subscription is not None:
            self._send(lambda: subscription.unsubscribe([_channel(encounter_id)]))

    def ping(self) -> None:
        """A connection that did not answer the previous PING is dead even if its socket looks open (a
        peer that vanished): reconnect rather than wait on it."""
        if self._awaiting_pong & set(self._subscriptions):
            self._lost(TimeoutError("no answer to PING"))
            return
        for shard, subscription in list(self._subscriptions.items()):
            if shard not in self._subscriptions:
                return  # one failed: every connection is being made again
            self._send(subscription.ping)
            self._awaiting_pong.add(shard)

    def read(self, subscription: Any = None) -> list[tuple[str, str, bytes | None]]:
        """What arrived on `subscription` (default: the only one), when the selector says it is readable."""
        subscription = subscription or next(iter(self._subscriptions.values()), None)
        try:
            frames = subscription.read() if subscription is not None else []
        except (RedisError, OSError) as error:
            self._lost(error)
            return []
        out: list[tuple[str, str, bytes | None]] = []
        for frame in frames:
            if isinstance(frame, ResponseError):  # e.g. an ACL that refuses a channel: say so, keep going
                log.warning("the pub/sub connection answered an error: %s", frame)
                if str(frame).startswith(("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN")):
                    self._lost(frame)  # a slot moved: learn the topology again and subscribe everything anew
                    return out
            elif not isinstance(frame, list) or not frame or frame[0] == b"pong":
                self._awaiting_pong.discard(subscription.shard)  # +PONG (RESP3) or [pong, ""] (RESP2)
            elif frame[0] in (b"message", b"smessage"):
                out.append(("message", _encounter_of(frame[1]), frame[2]))
            elif frame[0] in (b"subscribe", b"ssubscribe"):
                out.append(("subscribed", _encounter_of(frame[1]), None))
            elif frame[0] == b"sunsubscribe" and self._where.get(_encounter_of(frame[1])) == subscription.shard:
                self._lost(ResponseError("the cluster moved a followed channel's slot"))  # not asked for
                return out
        return out

    def close(self) -> None:
        subscriptions, self._subscriptions = list(self._subscriptions.values()), {}
        self._where.clear()
        for subscription in subscriptions:
            try:
                self._selector.unregister(subscription)
            except (KeyError, ValueError, OSError):
                pass
            subscription.close()

    def _subscribe(self, encounter_id: str) -> None:
        if not self._subscriptions and not self._sharded:
            return  # down: the reconnect subscribes every followed encounter
        channel = _channel(encounter_id)
        shard = ""
        if self._sharded:
            client = self._redis()
            node = client.get_node_from_key(channel)
            shard = node.name
            if shard not in self._subscriptions:
                self._open(shard, client.get_redis_connection(node), sharded=True)
        self._where[encounter_id] = shard
        subscription = self._subscriptions[shard]
        self._send(lambda: subscription.subscribe([channel]))

    def _open(self, shard: str, client: Any, sharded: bool = False) -> None:
        subscription = Subscription(client, sharded, shard)
        self._subscriptions[shard] = subscription
        self._selector.register(subscription, selectors.EVENT_READ, self)

    def _send(self, command: Callable[[], None]) -> None:
        try:
            command()
        except (RedisError, OSError) as error:
            self._lost(error)

    def _lost(self, error: Exception) -> None:
        log.warning("stream subscription lost (%s); reconnecting in %.1f s", error, self._backoff)
        self.close()
        try:
            client = self._redis()
            if is_cluster(client):
                client.nodes_manager.initialize()  # who serves which slot now (after a failover)
        except (RedisError, RedisClusterException, OSError):
            pass
        self.reconnect_at = self._clock() + self._backoff
        self._backoff = min(self._backoff * 2, 5.0)


class Subscription:
    """A subscribed connection: `subscribe`/`unsubscribe`/`ping` send, `read` returns the frames that
    arrived (lists such as `[b"message", channel, data]`, `[b"subscribe", channel, count]`, or `b"PONG"`).
    Raises redis-py's ConnectionError (or OSError) when the connection is gone."""

    def __init__(self, client: Any, sharded: bool = False, shard: str = ""):
        self.shard = shard
        self._commands = ("SSUBSCRIBE", "SUNSUBSCRIBE") if sharded else ("SUBSCRIBE", "UNSUBSCRIBE")
        pool = client.connection_pool
        # No health check: redis-py would PING and read the answer itself, taking a frame meant for us.
        self._connection = pool.connection_class(**{**pool.connection_kwargs, "health_check_interval": 0})
        self._connection.connect()
        self._sock = self._connection._sock  # redis-py keeps the socket there; we read it ourselves
        self._reader = RespReader()

    def fileno(self) -> int:
        return self._sock.fileno()

    def subscribe(self, channels: Iterable[str]) -> None:
        self._send(self._commands[0], channels)

    def unsubscribe(self, channels: Iterable[str]) -> None:
        self._send(self._commands[1], channels)

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


def _channel(encounter_id: str) -> str:
    return Keys.of(encounter_id).live


def _encounter_of(channel: bytes) -> str:
    return channel.decode().partition("{")[2].partition("}")[0]
