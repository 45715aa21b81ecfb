"""Counting requests against a rate limit: fixed windows, in Redis or (with no Redis configured) in memory.

A window is INCR + EXPIRE on the same Redis the API uses. Counting is exact across processes (one INCR a
request) for limits under EXACT_BELOW a window; above that, processes sync in batches (`BatchedCounts`).
With Redis down requests pass uncounted (fail open). With no REDIS_URL at all (a single development
process) counts live in memory (`LocalCounts`), so a limit never starts a Redis server by itself.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.sessions.keys import rate_window

RATE_PREFIX = "referee:rate:"  # keys: service.sessions.keys.rate_window
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
EXACT_BELOW = 10_000  # limits (per window) under this are counted exactly: one Redis INCR per request


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


def hit(gate: Any, identity: str, rate: tuple[int, int], now: float | None = None) -> Window | None:
    """Count one request of `identity` in the current window; None when Redis is down (fail open)."""
    limit, period = rate
    now = time.time() if now is None else now
    window = int(now // period)
    key = rate_window(identity, period, window)

    def count(redis: Any) -> int:
        with redis.pipeline(transaction=True) as pipe:  # MULTI, on a cluster too (its default is none)
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

    def pipeline(self, transaction: bool = True) -> _LocalPipe:
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
            with redis.pipeline(transaction=True) as pipe:  # MULTI, on a cluster too
                return int(pipe.incrby(key, pending).expire(key, seconds).execute()[0])
        total = self.gate.call(add)
        if total is None:
            raise _RedisDown()
        return total


class _LocalPipe:
    def __init__(self, counts: LocalCounts):
        self.counts, self.key, self.seconds = counts, "", 1

    def __enter__(self) -> _LocalPipe:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def incr(self, key: str) -> _LocalPipe:
        self.key = key
        return self

    def expire(self, key: str, seconds: int) -> _LocalPipe:
        self.seconds = seconds
        return self

    def execute(self) -> list[Any]:
        return [self.counts.incr(self.key, self.seconds), True]


def counter_for(gate: Any, rate: tuple[int, int] | None) -> Any:
    """How a limit is counted: in memory with no Redis configured, else in Redis, exactly below EXACT_BELOW
    a window (one INCR a request) and in batches of limit/EXACT_BELOW (at most 50) above."""
    if gate.embedded:
        return LocalCounts()
    every = 1 if rate is None or rate[0] < EXACT_BELOW else min(50, rate[0] // EXACT_BELOW)
    return BatchedCounts(gate, every=every)
