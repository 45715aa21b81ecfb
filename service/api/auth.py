"""API keys, tenants and rate limits for /v1.

API keys are off by default (`api_keys_required`). When on, every /v1 call sends `X-API-Key: <key>`
(not `Authorization`, which the encounter endpoints use for their bearer tokens); a key maps to a
tenant, and encounters and simulations a tenant creates are invisible (404) to every other tenant.
Keys live in Redis as the hash `referee:apikey:<sha256 of the key>` {tenant, created}, made with
`python -m service apikey create <tenant>`. Checked keys are remembered for a minute (at most
KEY_CACHE_SIZE of them, oldest forgotten first), so calculators keep working through a short Redis
outage; an unknown key with Redis down gets 503. Failed key checks are themselves limited per client IP
(`bad_key_rate_limit`): past it a client gets 429 without its keys being looked up.

Rate limits count in a fixed window (INCR + EXPIRE on the same Redis): `rate_limit` (e.g. "600/minute")
per API key when keys are on, `ip_rate_limit` per client IP when they are off (off by default: a virtual
tabletop calls from one IP for all its players). Counting is exact across processes (one INCR a request)
for limits under 10,000 a window; above that, processes sync in batches. With Redis down requests pass
uncounted (fail open). With no REDIS_URL at all (a single development process) counts live in memory,
so a limit never starts a Redis server by itself.
Every counted response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds);
a refused one is a 429 problem with Retry-After.
"""
from __future__ import annotations

import hashlib
import math
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, Request, Response, current_app, g, request
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from service.sessions.errors import SessionError

HEADER = "X-API-Key"
KEY_PREFIX = "referee:apikey:"
RATE_PREFIX = "referee:rate:"
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
KEY_CACHE_SECONDS = 60.0
KEY_CACHE_SIZE = 10_000
EXACT_BELOW = 10_000  # limits (per window) under this are counted exactly: one Redis INCR per request


class ApiKeyRequired(SessionError):
    """No valid `X-API-Key` was sent while keys are required."""

    status = 401
    title = "Unauthorized"
    headers = {"WWW-Authenticate": 'ApiKey realm="referee", header="X-API-Key"'}


def key_digest(key: str) -> str:
    """The stored form of an API key."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def create_key(redis: Any, tenant: str) -> str:
    """Make a new key for `tenant`, store its digest, and return the key (shown once)."""
    key = "rk_" + secrets.token_urlsafe(32)
    redis.hset(KEY_PREFIX + key_digest(key), mapping={"tenant": tenant, "created": int(time.time())})
    return key


def current_tenant() -> str | None:
    """The tenant of this request's API key (None when keys are off)."""
    return g.get("tenant")


def parse_rate(text: str) -> tuple[int, int] | None:
    """"600/minute" -> (600, 60); "" or "off" -> None (no limit)."""
    text = text.strip().lower()
    if text in {"", "off", "none"}:
        return None
    count, _, unit = text.partition("/")
    period = PERIODS.get(unit.strip().removesuffix("s"))
    if not count.strip().isdigit() or period is None or int(count) < 1:
        raise ValueError(f"rate_limit must look like '600/minute', not {text!r}")
    return int(count), period


@dataclass(frozen=True)
class Window:
    """One fixed-window count: the limit, what is left, and seconds until the window resets."""

    limit: int
    remaining: int
    reset: int

    @property
    def exceeded(self) -> bool:
        return self.remaining < 0


class KeyBook:
    """Looks API keys up in Redis, remembering answers for KEY_CACHE_SECONDS."""

    def __init__(self, gate: Any, clock: Callable[[], float] = time.monotonic, size: int = KEY_CACHE_SIZE):
        self.gate, self.clock, self.size = gate, clock, size
        self._seen: OrderedDict[str, tuple[str | None, float]] = OrderedDict()
        self._lock = threading.Lock()

    def tenant(self, key: str) -> str | None:
        """The key's tenant, None for an unknown key; ServiceUnavailable when Redis cannot say."""
        digest = key_digest(key)
        cached = self._seen.get(digest)
        if cached and cached[1] > self.clock():
            return cached[0]
        found = self.gate.call(lambda redis: [redis.hget(KEY_PREFIX + digest, "tenant")])
        if found is None:
            raise ServiceUnavailable("API keys cannot be checked right now (Redis is unreachable).")
        tenant = found[0].decode() if found[0] is not None else None
        with self._lock:
            self._seen[digest] = (tenant, self.clock() + KEY_CACHE_SECONDS)
            self._seen.move_to_end(digest)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        return tenant

    def __len__(self) -> int:
        return len(self._seen)


def hit(gate: Any, identity: str, rate: tuple[int, int], now: float | None = None) -> Window | None:
    """Count one request of `identity` in the current window; None when Redis is down (fail open)."""
    limit, period = rate
    now = time.time() if now is None else now
    window = int(now // period)
    key = f"{RATE_PREFIX}{identity}:{period}:{window}"

    def count(redis: Any) -> int:
        with redis.pipeline() as pipe:
            return int(pipe.incr(key).expire(key, period + 1).execute()[0])
    used = gate.call(count)
    if used is None:
        return None
    return Window(limit, limit - used, max(1, math.ceil((window + 1) * period - now)))


class LocalCounts:
    """Fixed-window counters in this process's memory, behind the same `call(use)` face as RedisGate."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._counts: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def call(self, use: Callable[[Any], Any]) -> Any:
        return use(self)

    def pipeline(self) -> "_LocalPipe":
        return _LocalPipe(self)

    def incr(self, key: str, seconds: int) -> int:
        """Add one to `key` (kept `seconds`); forgets expired keys as it goes."""
        now = self.clock()
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
            count, until = self._counts.get(key, (0, now + seconds))
            self._counts[key] = (count + 1, until)
            return count + 1


class _RedisDown(Exception):
    """Raised inside `BatchedCounts` when a sync cannot reach Redis."""


class BatchedCounts(LocalCounts):
    """Fixed-window counters shared through Redis, synced in batches to spare a round trip per request.

    Each process counts locally and adds its pending count to Redis (one INCRBY) every `every` requests
    of a key, or when `seconds` passed since its last sync; in between it adds its own requests to the
    last total Redis gave it. A limit can be overshot by at most (processes x `every`) in a window, so
    `every` shrinks with the limit (a limit under 100 a window is counted exactly, one sync a request).
    """

    def __init__(self, gate: Any, every: int, seconds: float = 0.25, clock: Callable[[], float] = time.monotonic):
        super().__init__(clock)
        self.gate, self.every, self.seconds = gate, max(1, every), seconds
        self._synced: dict[str, tuple[int, int, float]] = {}

    def call(self, use: Callable[[Any], Any]) -> Any:
        try:
            return use(self)
        except _RedisDown:
            return None

    def incr(self, key: str, seconds: int) -> int:
        now = self.clock()
        with self._lock:
            if len(self._synced) > 10_000:
                self._synced = {k: v for k, v in self._synced.items() if now - v[2] < 2 * seconds}
            total, pending, synced_at = self._synced.get(key, (0, 0, float("-inf")))
            pending += 1
            if pending >= self.every or now - synced_at >= self.seconds:
                total, pending, synced_at = self._push(key, pending, seconds), 0, now
            self._synced[key] = (total, pending, synced_at)
            return total + pending

    def _push(self, key: str, pending: int, seconds: int) -> int:
        def add(redis: Any) -> int:
            with redis.pipeline() as pipe:
                return int(pipe.incrby(key, pending).expire(key, seconds).execute()[0])
        total = self.gate.call(add)
        if total is None:
            raise _RedisDown()
        return total


class _LocalPipe:
    def __init__(self, counts: LocalCounts):
        self.counts, self.key, self.seconds = counts, "", 1

    def __enter__(self) -> "_LocalPipe":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def incr(self, key: str) -> "_LocalPipe":
        self.key = key
        return self

    def expire(self, key: str, seconds: int) -> "_LocalPipe":
        self.seconds = seconds
        return self

    def execute(self) -> list[Any]:
        return [self.counts.incr(self.key, self.seconds), True]


def _guarded(req: Request) -> bool:
    return req.method != "OPTIONS" and req.path.startswith("/v1/")


def _identify(req: Request, config: Any, keys: KeyBook, refuse_bad_key: Callable[[], None]) -> str:
    if not config.api_keys_required:
        return f"ip:{req.remote_addr}"
    key = req.headers.get(HEADER, "").strip()
    tenant = keys.tenant(key) if 0 < len(key) <= 200 else None
    if tenant is None:
        refuse_bad_key()
        raise ApiKeyRequired(f"send a valid API key in the {HEADER} header")
    g.tenant = tenant
    return f"key:{key_digest(key)[:32]}"


def counter_for(gate: Any, rate: tuple[int, int] | None) -> Any:
    """How a limit is counted: in memory with no Redis configured, else in Redis, exactly below EXACT_BELOW
    a window (one INCR a request) and in batches of limit/EXACT_BELOW (at most 50) above."""
    if gate.embedded:
        return LocalCounts()
    every = 1 if rate is None or rate[0] < EXACT_BELOW else min(50, rate[0] // EXACT_BELOW)
    return BatchedCounts(gate, every=every)


def init_app(app: Flask) -> None:
    """Check API keys and count requests before every /v1 view; add RateLimit-* headers after."""
    config = app.extensions["referee.config"]
    gate = app.extensions["referee.redis"]
    keys = KeyBook(gate)
    limits_on = not config.testing or config.limits_in_testing
    text = config.rate_limit if config.api_keys_required else config.ip_rate_limit
    rate = parse_rate(text) if limits_on else None
    bad_key_rate = parse_rate(config.bad_key_rate_limit) if limits_on and config.api_keys_required else None
    counter, bad_keys = counter_for(gate, rate), counter_for(gate, bad_key_rate)
    app.extensions["referee.apikeys"] = keys

    blocked: OrderedDict[str, float] = OrderedDict()  # client IP -> when its bad-key window ends

    def bad_key_seen() -> None:
        """Count a failed key check of this client IP; 429 past `bad_key_rate_limit`."""
        window = hit(bad_keys, f"badkey:ip:{request.remote_addr}", bad_key_rate) if bad_key_rate else None
        if window is not None and window.exceeded:
            blocked[request.remote_addr or ""] = time.monotonic() + window.reset
            while len(blocked) > KEY_CACHE_SIZE:
                blocked.popitem(last=False)
            _too_many_bad_keys(window.reset)

    def refuse_bad_key_early() -> None:
        """A client IP past its bad-key limit is refused before any key it sends is looked up."""
        until = blocked.get(request.remote_addr or "")
        if until is not None:
            if until > time.monotonic():
                _too_many_bad_keys(math.ceil(until - time.monotonic()))
            blocked.pop(request.remote_addr or "", None)

    def _too_many_bad_keys(reset: int) -> None:
        raise TooManyRequests(f"too many requests with an invalid API key (limit {config.bad_key_rate_limit}); "
                              f"retry in {reset} s", retry_after=reset)

    def admit() -> None:
        req = request._get_current_object()  # type: ignore[attr-defined]
        if not _guarded(req):
            return
        if config.api_keys_required:
            refuse_bad_key_early()
        identity = _identify(req, config, keys, bad_key_seen)
        window = hit(counter, identity, rate) if rate else None
        g.rate_window = window
        if window is not None and window.exceeded:
            raise TooManyRequests(f"rate limit of {text} exceeded; retry in {window.reset} s",
                                  retry_after=window.reset)

    def rate_headers(response: Response) -> Response:
        window = g.get("rate_window")
        if window is not None:
            response.headers.update({"RateLimit-Limit": str(window.limit),
                                     "RateLimit-Remaining": str(max(window.remaining, 0)),
                                     "RateLimit-Reset": str(window.reset)})
        return response

    # With keys off and no limit (the default for a VTT server's own calls) there is nothing to check or count.
    if config.api_keys_required or rate:
        app.before_request(admit)
    if rate:
        app.after_request(rate_headers)


def redis_for_cli() -> Any:
    """The Redis client of an app built from the environment (for the `apikey` command)."""
    from service.app import create_app

    app = create_app()
    with app.app_context():
        return current_app.extensions["referee.redis"].redis()
