"""One thread per worker process that writes every event stream handed to it, fed by Redis pub/sub.

A stream costs a socket, a few hundred bytes here and nothing else while idle. One thread (a selector
loop) does all the work: it adopts sockets, reads the process's pub/sub connection (`Feed`:
SUBSCRIBE to the channel of each encounter this process has a stream for, so unwatched encounters cost
it nothing), fans each message out to that encounter's local streams, sends heartbeats, ends streams at
their deadline, notices clients that went away, and renews or releases the streams' admission leases.
A message carries the events it logged; a stream that would miss one (it is behind the message, e.g. the
message raced the stream's hand-off or the subscription) reads the encounter's log from its last `seq`
instead. Every subscription's confirmation triggers that read for its streams, which covers what was
logged before the channel was live, and after a reconnect every channel is subscribed (and read) again.
"""
from __future__ import annotations

import json
import queue
import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from service.sessions.errors import EncounterNotFound
from service.streams import sse
from service.streams.admission import RENEW_SECONDS, Admission
from service.streams.stream import Stream
from service.streams.subscription import Feed

BUFFER_LIMIT = 512 * 1024  # bytes a stream may have unsent before it is dropped as too slow


class StreamHub:
    """The streams of one worker process. `redis` returns the shared client; nothing starts before use."""

    def __init__(self, redis: Callable[[], Any], admission: Admission | None, heartbeat: float,
                 clock: Callable[[], float] = time.monotonic, buffer_limit: int = BUFFER_LIMIT):
        self._redis, self.admission, self.heartbeat, self.clock = redis, admission, heartbeat, clock
        self.buffer_limit = buffer_limit
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._streams: dict[str, set[Stream]] = {}
        self._polled: set[Stream] = set()  # streams fed by polling (simulation progress), not by messages
        self._lock = threading.Lock()
        self._feed = Feed(redis, self._selector, clock)
        self._started = False
        self._stopping = False

    @property
    def open_streams(self) -> int:
        """How many streams this process is serving."""
        return sum(len(streams) for streams in self._streams.values()) + len(self._polled)

    def start(self, wait: float = 5.0) -> None:
        """Start the hub's thread once; return when its subscription is connected (or after `wait` s)."""
        with self._lock:
            if not self._started:
                self._started = True
                self._selector.register(self._wake_r, selectors.EVENT_READ, None)
                threading.Thread(target=self._run, name="referee-stream-hub", daemon=True).start()
        self._feed.connected.wait(wait)

    def adopt(self, stream: Stream) -> None:
        """Take over a connection whose response headers were sent; the hub owns the socket from now on."""
        self._post(("adopt", stream))

    def stop(self) -> None:
        """Close every stream (clients reconnect with Last-Event-ID) and release their leases."""
        self._post(("stop", None))

    # --- the hub thread ----------------------------------------------------------------------------
    def _post(self, item: tuple[str, Any]) -> None:
        self._inbox.put(item)
        try:
            self._wake_w.send(b"\0")
        except OSError:
            pass  # the wake-up pipe is full (the writer is due to wake anyway), or the hub stopped

    def _run(self) -> None:
        self._feed.connect(self._streams)
        next_beat = next_renew = self.clock()
        while True:
            now = self.clock()
            due = min(next_beat, next_renew, self._feed.reconnect_at, *(s.next_poll for s in self._polled))
            for key, mask in self._selector.select(max(0.0, due - now)):
                if key.data is None:
                    self._drain_inbox()
                elif key.data is self._feed:
                    self._on_messages()
                else:
                    if mask & selectors.EVENT_WRITE:
                        self._flush(key.data)
                    if mask & selectors.EVENT_READ and not key.data.closed:
                        self._on_readable(key.data)
            if self._stopping:
                self._feed.close()
                self._selector.close()
                self._wake_r.close()
                self._wake_w.close()
                return
            now = self.clock()
            if now >= self._feed.reconnect_at:
                self._feed.connect(self._streams)
            if now >= next_beat:
                next_beat = now + self.heartbeat
                self._beat(now)
                self._feed.ping()
            if now >= next_renew:
                next_renew = now + RENEW_SECONDS
                self._renew()
            for stream in [s for s in self._polled if s.next_poll <= now]:
                self._poll(stream, now)

    def _drain_inbox(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, OSError):
            pass
        while True:
            try:
                kind, payload = self._inbox.get_nowait()
            except queue.Empty:
                return
            if kind == "adopt":
                self._adopt(payload)
            elif kind == "stop":
                for stream in [s for streams in self._streams.values() for s in streams] + list(self._polled):
                    self._close(stream)
                self._stopping = True
                return

    def _adopt(self, stream: Stream) -> None:
        try:
            stream.sock.setblocking(False)
            self._selector.register(stream.sock, selectors.EVENT_READ, stream)
        except (OSError, ValueError):
            self._release(stream)
            return
        if stream.poll is not None:
            self._polled.add(stream)
            self._poll(stream, self.clock())
            return
        if stream.encounter_id not in self._streams:
            self._streams[stream.encounter_id] = set()
            self._feed.subscribe(stream.encounter_id)  # its confirmation reads the log once more
        self._streams[stream.encounter_id].add(stream)
        self._send(stream, sse.OPEN)
        self._catch_up(stream)  # whatever was logged after `since`, including what raced the hand-off

    def _deliver(self, encounter_id: str, data: bytes) -> None:
        streams = self._streams.get(encounter_id)
        if not streams:
            return
        message = json.loads(data)
        if message.get("end"):
            for stream in list(streams):
                self._send(stream, sse.END)
                self._close(stream, flush=True)
            return
        events = message.get("events", [])
        first = message["seq"] - len(events)  # the `seq` the log was at before this write
        encoded = [sse.event(item).encode() for item in events]  # once, whoever gets them
        tails: dict[int, bytes] = {}  # one send per stream: the events after the `seq` it is at
        for stream in list(streams):
            if stream.since < first:
                self._catch_up(stream)  # it missed a message: the log has everything
                continue
            start = next((i for i, item in enumerate(events) if item["seq"] > stream.since), len(events))
            if start < len(events):
                if start not in tails:
                    tails[start] = b"".join(encoded[start:])
                self._send(stream, tails[start])
                stream.since = events[-1]["seq"]

    def _catch_up(self, stream: Stream) -> None:
        try:
            items = stream.repository.events_after(stream.encounter_id, stream.token, stream.since)
        except EncounterNotFound:
            self._send(stream, sse.END)
            self._close(stream, flush=True)
            return
        except RedisError:
            self._close(stream)  # the client reconnects with Last-Event-ID once Redis is back
            return
        if items:
            self._send(stream, "".join(map(sse.event, items)))
            stream.since = items[-1]["seq"]

    def _poll(self, stream: Stream, now: float) -> None:
        stream.next_poll = now + stream.every
        try:
            text, done = stream.poll()  # type: ignore[misc]
        except RedisError:
            text, done = "", True  # the client reconnects once Redis is back
        if text:
            self._send(stream, text)
        if done or now >= stream.deadline:
            self._close(stream, flush=True)

    def _beat(self, now: float) -> None:
        beat = sse.HEARTBEAT.encode()
        for streams in list(self._streams.values()):
            for stream in list(streams):
                if now >= stream.deadline:
                    self._close(stream, flush=True)  # the client reconnects with Last-Event-ID
                elif not stream.pending:
                    self._send(stream, beat)

    def _renew(self) -> None:
        leases = [s.lease for streams in self._streams.values() for s in streams if s.lease is not None]
        if self.admission is not None and leases:
            try:
                self.admission.renew(leases)
            except RedisError:
                pass  # they lapse only after LEASE_SECONDS; the next renewal may reach Redis

    # --- the subscription ------------------------------------------------------------------------
    def _on_messages(self) -> None:
        for kind, encounter_id, data in self._feed.read():
            if kind == "message":
                self._deliver(encounter_id, data)
            else:  # subscribed: what was logged before the channel was live
                for stream in list(self._streams.get(encounter_id, ())):
                    self._catch_up(stream)

    # --- sockets -----------------------------------------------------------------------------------
    def _send(self, stream: Stream, data: bytes | str) -> None:
        if stream.closed:
            return
        stream.pending += data.encode() if isinstance(data, str) else data
        if len(stream.pending) > self.buffer_limit:
            self._close(stream)  # the client does not read: drop it rather than hold its backlog
            return
        self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        try:
            while stream.pending:
                sent = stream.sock.send(stream.pending)
                del stream.pending[:sent]
        except BlockingIOError:
            if not stream.waiting:
                stream.waiting = True
                self._selector.modify(stream.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, stream)
            return
        except OSError:
            self._close(stream)
            return
        if stream.waiting:
            stream.waiting = False
            self._selector.modify(stream.sock, selectors.EVENT_READ, stream)

    def _on_readable(self, stream: Stream) -> None:
        """A stream's client sends nothing after its request: readable means it closed (or misbehaves)."""
        try:
            data = stream.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(stream)

    def _close(self, stream: Stream, flush: bool = False) -> None:
        if stream.closed:
            return
        if flush and stream.pending:
            try:
                stream.sock.send(stream.pending)  # best effort: the hub never blocks on one client
            except OSError:
                pass
        stream.closed = True
        try:
            self._selector.unregister(stream.sock)
        except (KeyError, ValueError):
            pass
        self._polled.discard(stream)
        streams = self._streams.get(stream.encounter_id)
        if streams is not None and stream.poll is None:
            streams.discard(stream)
            if not streams:
                del self._streams[stream.encounter_id]
                self._feed.unsubscribe(stream.encounter_id)
        try:
            stream.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        stream.sock.close()
        self._release(stream)

    def _release(self, stream: Stream) -> None:
        if self.admission is not None and stream.lease is not None:
            try:
                self.admission.release([stream.lease])
            except RedisError:
                pass  # the lease lapses by itself

