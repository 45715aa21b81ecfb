"""A real Redis Cluster on 127.0.0.1 (3 primaries, 3 replicas, free ports, `redis-cli --cluster create`), a
plain redis-server for the Celery broker, and two API nodes (gunicorn) and two Celery workers on them.

Debian's `redis-server` (7 or later, for sharded pub/sub) and `redis-tools` are needed; `missing()` says
what is absent so the tests skip with the reason. Every process is started here and stopped here, by its
own pid.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import socket
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis

from tests.load.stack import GUNICORN, ROOT, start_worker, stop, wait_http
from tests.perf.http_bench import free_port

NODE_TIMEOUT_MS = 1000  # how long a primary may be silent before its replica is elected in its place


def missing() -> str | None:
    """Why no cluster can be started here (None when it can)."""
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: apt-get install redis-server redis-tools)"
    out = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout
    found = re.search(r"v=(\d+)\.", out)
    if not found or int(found.group(1)) < 7:
        return f"redis-server 7 or later is needed for sharded pub/sub, found: {out.strip()}"
    return None


@dataclass
class Node:
    port: int
    process: subprocess.Popen
    command: list[str] = field(default_factory=list)
    _client: Redis | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self) -> Redis:
        """A client of this node alone (kept: it reconnects by itself after a restart)."""
        if self._client is None:
            self._client = Redis(port=self.port, socket_timeout=2, socket_connect_timeout=1)
        return self._client


@dataclass
class Cluster:
    """Six cluster nodes and a broker under `workdir`; `close()` stops them."""

    workdir: Path
    nodes: list[Node] = field(default_factory=list)
    broker: Node | None = None

    @property
    def url(self) -> str:
        """REDIS_URL in cluster mode: two seed nodes, comma-separated."""
        return ",".join(f"redis://{node.address}" for node in self.nodes[:2])

    @property
    def broker_url(self) -> str:
        return f"redis://127.0.0.1:{self.broker.port}/0"  # type: ignore[union-attr]

    def primaries(self) -> list[Node]:
        """The nodes that serve slots now."""
        alive = [node for node in self.nodes if node.process.poll() is None]
        return [node for node in alive if _role(node) == "master"]

    def replica_of(self, primary: Node) -> Node:
        for node in self.nodes:
            if node.process.poll() is None and node is not primary:
                info = node.client().info("replication")
                if info.get("role") == "slave" and int(info.get("master_port", 0)) == primary.port:
                    return node
        raise LookupError(f"no replica follows {primary.address}")

    def kill(self, node: Node) -> None:
        """SIGKILL: the node vanishes without a word, as a crashed host does."""
        node.process.send_signal(signal.SIGKILL)
        node.process.wait()

    def restart(self, node: Node, timeout: float = 30.0) -> None:
        """Start a killed node again on its port and folder (it keeps its identity: a former primary whose
        replica took over rejoins as that one's replica); return once it answers and the cluster is ok."""
        node.process = subprocess.Popen(node.command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while _role(node) == "down":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{node.address} did not start again")
            time.sleep(0.05)
        self.wait_ok(max(deadline - time.monotonic(), 0.1))

    def wait_synced(self, timeout: float = 30.0) -> None:
        """Until every replica's link to its primary is up (a restarted replica has finished its sync)."""
        _wait_replicas_synced(self, timeout)

    def move_slot(self, slot: int, target: Node) -> None:
        """Migrate `slot` and its keys to the primary `target` (as `redis-cli --cluster reshard` does): clients
        that knew the old owner get MOVED from then on."""
        source = next(node for node in self.primaries() if slot in _slots_of(node))
        ids = {node.port: node.client().execute_command("CLUSTER MYID") for node in (source, target)}
        target.client().execute_command("CLUSTER SETSLOT", slot, "IMPORTING", ids[source.port])
        source.client().execute_command("CLUSTER SETSLOT", slot, "MIGRATING", ids[target.port])
        while keys := source.client().execute_command("CLUSTER GETKEYSINSLOT", slot, 100):
            source.client().execute_command("MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys)
        for node in self.primaries():
            node.client().execute_command("CLUSTER SETSLOT", slot, "NODE", ids[target.port])
        self.wait_ok()

    def wait_promoted(self, replica: Node, timeout: float = 30.0) -> None:
        """Until `replica` serves as a primary and every live node says the cluster is ok again."""
        deadline = time.monotonic() + timeout
        while _role(replica) != "master":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{replica.address} was not promoted")
            time.sleep(0.05)
        self.wait_ok(max(deadline - time.monotonic(), 0.1))

    def wait_ok(self, timeout: float = 30.0) -> float:
        """Seconds until every live node says cluster_state:ok with all slots served."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if all(_state_ok(node) for node in self.nodes if node.process.poll() is None):
                return time.monotonic() - start
            time.sleep(0.05)
        raise TimeoutError("the cluster did not reach cluster_state:ok")

    def close(self) -> None:
        for node in [*self.nodes, *([self.broker] if self.broker else [])]:
            if node._client is not None:
                node._client.close()
            if node.process.poll() is None:
                node.process.terminate()
                try:
                    node.process.wait(5)
                except subprocess.TimeoutExpired:
                    node.process.kill()
                    node.process.wait()


def _slots_of(node: Node) -> set[int]:
    """The slots `node` serves, by its own account."""
    served = set()
    for first, last, primary, *_ in node.client().execute_command("CLUSTER SLOTS"):
        if int(primary[1]) == node.port:
            served |= set(range(first, last + 1))
    return served


def _role(node: Node) -> str:
    try:
        return str(node.client().info("replication").get("role"))
    except Exception:  # noqa: BLE001 - a node that does not answer serves nothing
        return "down"


def _state_ok(node: Node) -> bool:
    try:
        info = node.client().execute_command("CLUSTER INFO")
    except Exception:  # noqa: BLE001
        return False
    if isinstance(info, (bytes, str)):
        text = info.decode() if isinstance(info, bytes) else info
        info = dict(line.split(":", 1) for line in text.split() if ":" in line)
    return str(info.get("cluster_state")) == "ok" and int(info.get("cluster_slots_ok", 0)) == 16384


def cluster_port() -> int:
    """A free port below 55536 whose cluster-bus port (10,000 higher) is free too."""
    for _ in range(200):
        port = random.randint(20000, 45000)
        if _free(port) and _free(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _server(workdir: Path, port: int, *options: str) -> Node:
    folder = workdir / str(port)
    folder.mkdir(parents=True, exist_ok=True)
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
               "--dir", str(folder), "--logfile", str(folder / "redis.log"), *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    node = Node(port, process, command)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if node.client().ping():
                return node
        except Exception:  # noqa: BLE001 - not listening yet
            time.sleep(0.02)
    raise RuntimeError(f"redis-server on {port} did not start (see {folder / 'redis.log'})")


def start_cluster(workdir: Path) -> Cluster:
    """3 primaries + 3 replicas (`redis-cli --cluster create --cluster-replicas 1`) and a plain broker."""
    cluster = Cluster(workdir)
    try:
        for _ in range(6):
            cluster.nodes.append(_server(workdir, cluster_port(), "--cluster-enabled", "yes",
                                         "--cluster-config-file", "nodes.conf",
                                         "--cluster-node-timeout", str(NODE_TIMEOUT_MS)))
        subprocess.run(["redis-cli", "--cluster", "create", *(node.address for node in cluster.nodes),
                        "--cluster-replicas", "1", "--cluster-yes"], check=True, capture_output=True, timeout=60)
        cluster.broker = _server(workdir, free_port())
        cluster.wait_ok()
        _wait_replicas_synced(cluster)
    except BaseException:
        cluster.close()
        raise
    return cluster


def _wait_replicas_synced(cluster: Cluster, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        links = [node.client().info("replication") for node in cluster.nodes if node.process.poll() is None]
        replicas = [info for info in links if info.get("role") == "slave"]
        if len(replicas) == 3 and all(info.get("master_link_status") == "up" for info in replicas):
            return
        time.sleep(0.05)
    raise TimeoutError("the replicas did not finish their first sync")


@dataclass
class Stack:
    """The cluster, two API nodes and two workers; `close()` stops them all."""

    cluster: Cluster
    urls: list[str]
    processes: list[subprocess.Popen]

    def close(self) -> None:
        """SIGTERM to every API node and worker at once, then wait for each; then the cluster."""
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            stop(process, timeout=15)
        self.cluster.close()


def cluster_env(cluster: Cluster, **extra: str) -> dict[str, str]:
    """The environment of a process on the cluster (every setting as deploy/ would give it)."""
    return {"REDIS_URL": cluster.url, "REFEREE_REDIS_MODE": "cluster", "REFEREE_BROKER_URL": cluster.broker_url,
            **extra}


def start_stack(workdir: Path, api_nodes: int = 2, workers: int = 2, **env: str) -> Stack:
    """A cluster with `api_nodes` gunicorn servers (one process, four threads each: two cores here) and
    `workers` Celery workers (one process each) on it."""
    cluster = start_cluster(workdir)
    processes: list[subprocess.Popen] = []
    urls = []
    try:
        settings = cluster_env(cluster, REFEREE_RATE_LIMIT="off", REFEREE_JOB_LEASE_SECONDS="3",
                               GUNICORN_GRACEFUL_TIMEOUT="3", **env)
        for index in range(workers):
            processes.append(start_worker(cluster.url, workdir / f"worker-{index}.log", "-c", "1",
                                          f"--hostname=cluster-{index}@%h", **settings))
        for index in range(api_nodes):  # started side by side, then awaited
            port = free_port()
            with (workdir / f"api-{index}.log").open("a") as out:
                processes.append(subprocess.Popen(GUNICORN, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={
                    **os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_LOGLEVEL": "warning",
                    "GUNICORN_WORKERS": "1", "GUNICORN_THREADS": "4", **settings}))
            urls.append(f"http://127.0.0.1:{port}")
        for url, process in zip(urls, processes[workers:]):
            wait_http(url + "/healthz", process, timeout=90)
    except BaseException:
        for process in processes:
            stop(process)
        cluster.close()
        raise
    return Stack(cluster, urls, processes)
