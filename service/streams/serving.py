"""Serving one encounter stream: admit it (caps), then hand it to this process's hub, or, where the server
cannot hand a connection off, stream it from the request's own thread."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response, request, stream_with_context
from redis.exceptions import RedisError

from service.sessions.errors import EncounterNotFound
from service.streams import HANDOFF, sse
from service.streams.admission import Admission, Lease
from service.streams.hub import Stream, StreamHub

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_hubs: dict[int, StreamHub] = {}  # id(app) -> the hub of this process (built after gunicorn forked)
_lock = threading.Lock()


def client_of(tenant: str | None) -> str:
    """Whose streams count together: the API key's tenant (passed in by the API), else the client address."""
    return f"tenant:{tenant}" if tenant else f"ip:{request.remote_addr}"


def admission(app: Flask) -> Admission:
    """The app's stream caps (one per app, built on first use)."""
    found = app.extensions.get("referee.stream_admission")
    if found is None:
        config, store = app.extensions["referee.config"], app.extensions["referee.encounters"]
        found = Admission(lambda: store.redis, config.streams_per_client, config.streams_per_encounter)
        app.extensions["referee.stream_admission"] = found
    return found


def hub_for(app: Flask) -> StreamHub:
    """This process's hub for `app`, started on first use (so after gunicorn forked the worker)."""
    with _lock:
        hub = _hubs.get(id(app))
        if hub is None:
            config, store = app.extensions["referee.config"], app.extensions["referee.encounters"]
            hub = _hubs[id(app)] = StreamHub(lambda: store.redis, admission(app), config.sse_heartbeat_seconds,
                                             buffer_limit=config.sse_buffer_bytes,
                                             stall_seconds=config.sse_stall_seconds)
    hub.start()
    return hub


def stop_hubs() -> None:
    """Close every stream of this process (a worker that stops)."""
    for hub in list(_hubs.values()):
        hub.stop()


def open_stream(app: Flask, repository: Any, encounter_id: str, token: str, since: int,
                tenant: str | None) -> Response:
    """The stream's response: admitted against the caps (429 past them), then served."""
    if request.method == "HEAD":  # the headers a GET would send, and no stream to hold open
        return Response(mimetype="text/event-stream", headers=HEADERS)
    config = app.extensions["referee.config"]
    gate = admission(app)
    lease = gate.admit(client_of(tenant), encounter_id)
    handoff = request.environ.get(HANDOFF)
    try:
        if handoff is not None:
            hub = hub_for(app)
            stream = Stream(None, encounter_id, token, repository, since,  # type: ignore[arg-type]
                            time.monotonic() + config.sse_max_seconds, lease)
            return Response(_handed_off(handoff, hub, stream), mimetype="text/event-stream", headers=HEADERS)
        response = Response(stream_with_context(_threaded(repository, encounter_id, token, since,
                                                          config.sse_max_seconds, config.sse_heartbeat_seconds)),
                            mimetype="text/event-stream", headers=HEADERS)
    except BaseException:
        gate.release([lease])
        raise
    response.call_on_close(lambda: _release(gate, lease))  # however the stream ends, even unread
    return response


def open_polled_stream(app: Flask, key: str, poll: Callable[[], tuple[str, bool]], every: float,
                       seconds: float, threaded: Iterator[str], tenant: str | None) -> Response:
    """A stream fed by polling (`poll() -> (text, done)` every `every` s, for at most `seconds`), under the
    per-client cap and a per-`key` cap: handed to the hub where the server can, else `threaded`."""
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream", headers=HEADERS)
    gate = admission(app)
    lease = gate.admit(client_of(tenant), key)
    handoff = request.environ.get(HANDOFF)
    try:
        if handoff is not None:
            stream = Stream(None, key, "", None, 0, time.monotonic() + seconds, lease,  # type: ignore[arg-type]
                            poll=poll, every=every)
            return Response(_handed_off(handoff, hub_for(app), stream), mimetype="text/event-stream",
                            headers=HEADERS)
        response = Response(stream_with_context(threaded), mimetype="text/event-stream", headers=HEADERS)
    except BaseException:
        gate.release([lease])
        raise
    response.call_on_close(lambda: _release(gate, lease))
    return response


def _release(gate: Admission, lease: Lease) -> None:
    try:
        gate.release([lease])
    except RedisError:
        pass  # the lease lapses by itself


def _handed_off(handoff: Callable, hub: StreamHub, stream: Stream) -> Iterator[str]:
    """A body that sends nothing itself: on first iteration the worker sends the headers and the hub takes
    the socket (and writes the opening comment, the catch-up and everything after)."""
    def adopt(sock: Any) -> None:
        stream.sock = sock
        hub.adopt(stream)
    try:
        handoff(adopt)
    except BaseException:
        if stream.sock is None and hub.admission is not None and stream.lease is not None:
            hub.admission.release([stream.lease])
        raise
    return
    yield  # a generator that yields nothing


def _threaded(repository: Any, encounter_id: str, token: str, since: int, seconds: float,
              heartbeat: float) -> Iterator[str]:
    """The stream from the request's own thread (servers that cannot hand a connection off)."""
    deadline = time.monotonic() + seconds
    try:
        with repository.listen(encounter_id) as wait:
            try:
                yield sse.OPEN
                while True:
                    more = True
                    while more:  # the log a page at a time (the client's reading paces it)
                        page, more = repository.log_page(encounter_id, token, since)
                        for event in page:
                            since = event["seq"]
                            yield sse.event(event)
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return
                    if not wait(min(heartbeat, left)):
                        yield sse.HEARTBEAT
            except EncounterNotFound:  # the encounter ended (deleted or expired): its last news, then `end`
                while wait(0):
                    pass
                for event in getattr(wait, "events", ()):
                    if event["seq"] > since:
                        since = event["seq"]
                        yield sse.event(event)
                yield sse.END
    except RedisError:
        return  # the store went away: close the stream (the client reconnects with Last-Event-ID)
