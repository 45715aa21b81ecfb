"""Redis Cluster mode (`REFEREE_REDIS_MODE=cluster`, issue 26): the client, its health, and durable writes.

`REDIS_URL` then names any node, or a comma-separated list of seed nodes (`redis://a:6379,redis://b:6379`);
redis-py's `RedisCluster` learns the rest, follows MOVED and ASK, and retries through a topology change.
Every key of an encounter (and of the jobs, and of each client's counters) carries one hash tag
(service.sessions.keys), so each script and transaction runs on one shard.

Durability: the cluster replicates asynchronously, so an encounter write is sent with `WAIT` on the same
connection (`Durable`): it is answered once `replicas` replicas hold it, or after `timeout_ms` without them
(the write stands on the primary; it is counted as unreplicated, and that shard is not waited on for a few
seconds, so a primary that lost its replica does not add the timeout to every write).
"""
from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from redis import Redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import (AskError, ClusterDownError, ConnectionError, MovedError, RedisClusterException,
                              NoScriptError, RedisError, TimeoutError, TryAgainError)

log = logging.getLogger("referee.redis")

MODES = ("single", "cluster")
SLOTS = 16384
# A shard answering these is switching over (CLUSTERDOWN, TRYAGAIN, MASTERDOWN, a node gone, a slot without
# a primary): the API answers 503 with Retry-After, never 500.
UNAVAILABLE: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError, ClusterDownError, TryAgainError,
                                                RedisClusterException)
LONELY_SECONDS = 5.0  # a shard whose replica did not confirm a write is not waited on for this long


def seeds(url: str) -> list[ClusterNode]:
    """The seed nodes of `url`: one URL, or several separated by commas (`host:port` alone is fine too)."""
    nodes = []
    for part in filter(None, (item.strip() for item in url.split(","))):
        where = urlsplit(part if "://" in part else f"redis://{part}")
        nodes.append(ClusterNode(where.hostname or "127.0.0.1", where.port or 6379))
    return nodes


def connect_cluster(url: str, connect_timeout: float, timeout: float) -> RedisCluster:
    """A cluster client seeded by `url` (its first URL gives the password, TLS and options of every node)."""
    first = url.split(",")[0].strip()
    options = {"socket_connect_timeout": connect_timeout, "socket_timeout": timeout}
    parts = urlsplit(first if "://" in first else f"redis://{first}")
    if parts.password:
        options["password"] = parts.password
    if parts.username:
        options["username"] = parts.username
    if parts.scheme == "rediss":
        options["ssl"] = True
    return RedisCluster(startup_nodes=seeds(url), require_full_coverage=False, **options)


def is_cluster(client: Any) -> bool:
    return isinstance(client, RedisCluster)


_said_lock = threading.Lock()
SAID = "_referee_said"  # set on a client once its pub/sub mode is in the log


def sharded(client: Any) -> bool:
    """Whether streams use sharded pub/sub (SPUBLISH/SSUBSCRIBE): on a cluster of Redis 7 or later. Said
    once per client in the log, with the cluster's size (the first connection of a process)."""
    if not is_cluster(client):
        return False
    version = str(client.execute_command("INFO", "server", target_nodes=RedisCluster.RANDOM)
                  .get("redis_version", "0"))
    major = int(version.split(".")[0] or 0)
    with _said_lock:
        if not getattr(client, SAID, False):
            setattr(client, SAID, True)
            how = ("sharded pub/sub (SPUBLISH/SSUBSCRIBE): an encounter's messages stay on its shard"
                   if major >= 7 else "classic PUBLISH/SUBSCRIBE (the server is older than 7: every message "
                   "crosses the whole cluster)")
            log.log(logging.INFO if major >= 7 else logging.WARNING,
                    "Redis Cluster of %d primaries, redis %s: encounter streams use %s",
                    len(client.get_primaries()), version, how)
    return major >= 7


def announce(url: str) -> None:
    """Say at start how streams will travel on the cluster at `url` (sharded or classic pub/sub), then
    let the connection go (the server forks after this; each process connects on first use)."""
    client = connect_cluster(url, 2, 5)
    try:
        major = sharded(client)
    finally:
        client.close()
    print(f"referee: Redis Cluster at {_safe(url)}: encounter streams on "
          f"{'sharded pub/sub (SPUBLISH/SSUBSCRIBE)' if major else 'classic PUBLISH (server older than 7)'}",
          file=sys.stderr, flush=True)


def health(client: Any) -> str:
    """"ok" when the cluster says `cluster_state:ok` and every slot has a live primary, else what is wrong
    (a node's own view, asked of each primary in turn until one answers)."""
    info: dict[str, Any] | None = None
    for node in client.get_primaries():
        try:
            info = client.get_redis_connection(node).execute_command("CLUSTER INFO")
            break
        except RedisError:
            continue
    if info is None:
        raise ConnectionError("no primary of the cluster answered")
    if isinstance(info, (bytes, str)):
        text = info.decode() if isinstance(info, bytes) else info
        info = dict(line.split(":", 1) for line in text.split() if ":" in line)
    state, covered = str(info.get("cluster_state")), int(info.get("cluster_slots_ok", 0))
    if state != "ok" or covered != SLOTS:
        return f"cluster_state:{state}, {covered} of {SLOTS} slots served"
    return "ok"


def refuse_cluster_broker(broker_url: str) -> None:
    """Celery's Redis transport needs a plain Redis (its queue, unacked and fanout keys are not hash-tagged):
    raise a clear error when `broker_url` names a Redis Cluster node."""
    if not broker_url.startswith(("redis://", "rediss://", "unix://")):
        return  # RabbitMQ and the like
    client = Redis.from_url(broker_url.split(",")[0], socket_connect_timeout=2, socket_timeout=2)
    try:
        enabled = str(client.info("cluster").get("cluster_enabled", 0))
    finally:
        client.close()
    if enabled == "1":
        raise SystemExit(f"REFEREE_BROKER_URL ({_safe(broker_url)}) is a Redis Cluster node; Celery's broker must "
                         "be a plain Redis (or RabbitMQ): run a separate redis-server for the queue")


def _safe(url: str) -> str:
    parts = urlsplit(url.split(",")[0])
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}"


class Durable:
    """Run an encounter's write script on its shard's primary followed by `WAIT replicas timeout_ms` on the
    same connection (WAIT counts the replicas holding that connection's writes). MOVED and ASK are followed
    (the topology is read again); TRYAGAIN is retried shortly; what still fails is raised (the API: 503)."""

    def __init__(self, cluster: RedisCluster, replicas: int, timeout_ms: int,
                 unreplicated: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic):
        self.cluster, self.replicas, self.timeout_ms = cluster, replicas, timeout_ms
        self.unreplicated, self.clock = unreplicated, clock
        self._lonely: dict[str, float] = {}

    def run(self, script: Any, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """`script` (a redis-py Script: `sha`, `script`) on `keys` and `args`, answered once a replica holds
        it (see the class)."""
        target, asking = None, False
        for attempt in range(4):
            node = target or self.cluster.get_node_from_key(keys[0])
            try:
                return self._once(node, script, keys, args, asking)
            except MovedError as error:  # MovedError is an AskError: test it first
                self._refresh()
                target, asking = None, False
                last: Exception = error
            except AskError as error:
                target, asking = self.cluster.get_node(error.host, error.port) or \
                    ClusterNode(error.host, error.port), True
                last = error
            except TryAgainError as error:
                time.sleep(0.05 * (attempt + 1))
                last = error
            except NoScriptError as error:  # this node has not seen the script (e.g. a replica just promoted)
                (node.redis_connection or self.cluster.get_redis_connection(node)).script_load(script.script)
                last = error
            except (ConnectionError, TimeoutError):
                self._refresh()  # the primary is gone: let the cluster client learn who serves its slots
                raise
        raise last

    def _once(self, node: Any, script: Any, keys: Sequence[str], args: Sequence[Any], asking: bool) -> Any:
        client = node.redis_connection or self.cluster.get_redis_connection(node)
        wait = self.replicas > 0 and self._lonely.get(node.name, 0.0) <= self.clock()
        with client.pipeline(transaction=False) as pipe:
            if asking:
                pipe.execute_command("ASKING")
            pipe.evalsha(script.sha, len(keys), *keys, *args)  # no SCRIPT EXISTS first: NOSCRIPT loads it
            if wait:
                pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
            answers = pipe.execute()
        result = answers[1 if asking else 0]
        if self.replicas > 0 and (not wait or int(answers[-1]) < self.replicas):
            self.unreplicated()
            if wait:
                self._lonely[node.name] = self.clock() + LONELY_SECONDS
                log.warning("no replica of %s confirmed a write within %d ms; not waiting on it for %.0f s",
                            node.name, self.timeout_ms, LONELY_SECONDS)
        return result

    def _refresh(self) -> None:
        try:
            self.cluster.nodes_manager.initialize()
        except (RedisError, RedisClusterException):
            pass  # no node answers yet: the next request tries again
