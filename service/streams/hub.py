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

A stream's unsent bytes stay under `buffer_limit`: events that do not fit (a big step, a long catch-up, a
client reading slowly) wait in the log, and the stream reads them a page at a time as its socket drains,
one page per stream per turn of the loop, so no step is too big to stream and no catch-up holds the
thread or memory (issue 22, item 6). A client whose socket takes nothing for `stall_seconds` gets a last
`closed` event naming the reason and the `seq` to resume after (best effort: it is not reading), and is
closed; it resumes with `Last-Event-ID`, and a gap the log's cap made meanwhile reaches it as a
`truncated` event.
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

BUFFER_LIMIT = 512 * 1024  # unsent bytes a stream holds; more wait in the log (a polled stream past it is dropped)
STALL_SECONDS = 30.0  # a stream whose socket took nothing for this long is closed (with a `closed` event)


class StreamHub:
    """The streams of one worker process. `redis` returns the shared client; nothing starts before use."""

    def __init__(self, redis: Callable[[], Any], admission: Admission | None, heartbeat: float,
                 clock: Callable[[], float] = time.monotonic, buffer_limit: int = BUFFER_LIMIT,
                 stall_seconds: float = STALL_SECONDS):
        self._redis, self.admission, self.heartbeat, self.clock = redis, admission, heartbeat, clock
        self.buffer_limit, self.stall_seconds = buffer_limit, stall_seconds
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._streams: dict[str, set[Stream]] = {}
        self._polled: set[Stream] = set()  # streams fed by polling (simulation progress), not by messages
        self._filling: set[Stream] = set()  # streams behind the log with room for a page: one page each turn
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
            if self._filling:
                due = now
            for key, mask in self._selector.select(max(0.0, due - now)):
                if key.data is None:
                    self._drain_inbox()
                elif key.data is self._feed:
                    self._on_messages(key.fileobj)
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
            for stream in list(self._filling):
                self._fill(stream)

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
        stream.progress_at = self.clock()
        self._send(stream, sse.OPEN)
        self._behind(stream)  # whatever was logged after `since`, including what raced the hand-off

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
            if stream.closing_at is not None:
                continue
            if stream.behind or stream.since < first:
                self._behind(stream)  # it missed a message (or the message carried no events): read the log
                continue
            start = next((i for i, item in enumerate(events) if item["seq"] > stream.since), len(events))
            if start < len(events):
                if start not in tails:
                    tails[start] = b"".join(encoded[start:])
                if len(stream.pending) + len(tails[start]) > self.buffer_limit:
                    self._behind(stream)  # no room: the log keeps them, read a page at a time as it drains
                    continue
                self._send(stream, tails[start])
                stream.since = events[-1]["seq"]

    def _behind(self, stream: Stream) -> None:
        """The log holds events after the stream's `since` that it has not queued: read them page by page."""
        stream.behind = True
        self._filling.add(stream)

    def _fill(self, stream: Stream) -> None:
        """Queue one page of the log after the stream's `since` if its buffer has room (else `_flush` asks
        again once the socket drained)."""
        self._filling.discard(stream)
        if stream.closed or stream.closing_at is not None or not stream.behind or \
                len(stream.pending) >= self.buffer_limit // 2:
            return
        try:
            page, stream.behind = stream.repository.log_page(stream.encounter_id, stream.token, stream.since)
        except EncounterNotFound:
            self._send(stream, sse.END)
            self._close(stream, flush=True)
            return
        except RedisError:
            self._close(stream)  # the client reconnects with Last-Event-ID once Redis is back
            return
        if page:
            stream.since = page[-1]["seq"]
            self._send(stream, "".join(map(sse.event, page)))

    def _poll(self, stream: Stream, now: float) -> None:
        stream.next_poll = now + stream.every
        try:
            text, done = stream.poll()  # type: ignore[misc]
        except RedisError:
            text, done = "", True  # the client reconnects once Redis is back
        if text:
            self._send(stream, text, bounded=True)
        if done or now >= stream.deadline:
            self._close(stream, flush=True)

    def _beat(self, now: float) -> None:
        beat = sse.HEARTBEAT.encode()
        for streams in list(self._streams.values()):
            for stream in list(streams):
                if stream.closing_at is not None:
                    if now >= stream.closing_at:
                        self._close(stream)  # it did not take its last bytes within a heartbeat
                elif now >= stream.deadline:
                    self._close(stream, flush=True)  # the client reconnects with Last-Event-ID
                elif stream.pending and now - stream.progress_at >= self.stall_seconds:
                    self._close_stalled(stream, now)
                elif not stream.pending:
                    self._send(stream, beat)

    def _close_stalled(self, stream: Stream, now: float) -> None:
        """A client that took nothing for `stall_seconds`: queue a `closed` event (why, and the `seq` to
        resume after), give it a heartbeat to take it, then close."""
        stream.behind, stream.closing_at = False, now + self.heartbeat
        self._filling.discard(stream)
        stream.pending += sse.closed(f"the client read nothing for {self.stall_seconds:g} s", stream.since).encode()
        self._flush(stream)

    def _renew(self) -> None:
        leases = [s.lease for streams in self._streams.values() for s in streams if s.lease is not None]
        if self.admission is not None and leases:
            try:
                self.admission.renew(leases)
            except RedisError:
                pass  # they lapse only after LEASE_SECONDS; the next renewal may reach Redis

    # --- the subscription ------------------------------------------------------------------------
    def _on_messages(self, subscription: Any) -> None:
        for kind, encounter_id, data in self._feed.read(subscription):
            if kind == "message":
                self._deliver(encounter_id, data)
            else:  # subscribed: what was logged before the channel was live
                for stream in list(self._streams.get(encounter_id, ())):
                    self._behind(stream)

    # --- sockets -----------------------------------------------------------------------------------
    def _send(self, stream: Stream, data: bytes | str, bounded: bool = False) -> None:
        """Queue `data` and send what the socket takes. Encounter streams keep their own bound (events that
        do not fit wait in the log); a `bounded` (polled) stream past `buffer_limit` is dropped."""
        if stream.closed:
            return
        if not stream.pending:
            stream.progress_at = self.clock()
        stream.pending += data.encode() if isinstance(data, str) else data
        if bounded and len(stream.pending) > self.buffer_limit:
            self._close(stream)  # the client does not read: drop it rather than hold its backlog
            return
        self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        try:
            while stream.pending:
                sent = stream.sock.send(stream.pending)
                del stream.pending[:sent]
                stream.progress_at = self.clock()
        except BlockingIOError:
            pass
        except OSError:
            self._close(stream)
            return
        if stream.waiting != bool(stream.pending):
            stream.waiting = bool(stream.pending)
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.waiting else 0)
            self._selector.modify(stream.sock, events, stream)
        if not stream.pending and stream.closing_at is not None:
            self._close(stream)  # a stalled stream's last bytes went out
        elif stream.behind and len(stream.pending) < self.buffer_limit // 2:
            self._filling.add(stream)

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
        self._filling.discard(stream)
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

