"""API keys, tenants and rate limits for /v1.

API keys are off by default (`api_keys_required`). When on, every /v1 call sends `X-API-Key: <key>`
(not `Authorization`, which the encounter endpoints use for their bearer tokens); a key maps to a
tenant, and encounters and simulations a tenant creates are invisible (404) to every other tenant.
Keys live in Redis as the hash `referee:apikey:<sha256 of the key>` {tenant, created}, made with
`python -m service apikey create <tenant>`. Checked keys are remembered for a minute (at most
KEY_CACHE_SIZE of them, oldest forgotten first), so calculators keep working through a short Redis
outage; an unknown key with Redis down gets 503. Failed key checks are themselves limited per client IP
(`bad_key_rate_limit`): past it a client gets 429 without its keys being looked up.

Rate limits (counted by `service.api.http.rate_counts`): `rate_limit` (e.g. "600/minute") per API key when
keys are on, `ip_rate_limit` per client IP when they are off (off by default: a virtual tabletop calls
from one IP for all its players).
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
from typing import Any, Callable

from flask import Flask, Request, Response, g, request
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from service.api.http.rate_counts import counter_for, hit, parse_rate
from service.sessions.errors import SessionError

HEADER = "X-API-Key"
KEY_PREFIX = "referee:apikey:"
KEY_CACHE_SECONDS = 60.0
KEY_CACHE_SIZE = 10_000


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

