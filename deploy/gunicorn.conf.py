"""Gunicorn settings for Referee, each from an environment variable with a documented default.

Why these defaults (measured on a 2-core box, see the README's Reliability section):
- `service.streams.worker.StreamWorker`: gunicorn's `gthread` worker, plus hand-off of encounter event
  streams (SSE): once a stream's headers are sent its socket leaves the thread pool and one hub thread
  per worker writes every stream, fed by one Redis subscription per worker. Idle streams cost a socket,
  not a thread, so open streams cannot starve the calculators (README, Reliability). Not `sync`: a
  stream held by a sync worker stops its heartbeat and the arbiter kills it after `timeout` seconds
  (tests/deploy/test_commands.py). `GUNICORN_WORKER_CLASS=gthread` works too, one thread per stream.
- workers = cores + 1 (GUNICORN_WORKERS; set it explicitly in containers, where cpu_count() sees the
  node's cores rather than the pod's CPU limit), threads = 4: the calculators are CPU-bound under the
  GIL, so more threads than that only add latency; threads mostly cover Redis round trips and streams.
- `preload_app`: the master imports the app once before it opens the socket and forks, so a connection
  is refused (not left hanging) until the app can answer, workers share the imported code copy-on-write,
  and a killed worker is replaced in milliseconds. Nothing connects at import (Redis, Celery and the
  embedded server are all built on first use), so no connection is shared across the fork.
- `worker_connections` (GUNICORN_WORKER_CONNECTIONS, gunicorn's 1000 by default): how many client
  connections one worker holds at once. Workers accept in a race, so a handful of long-lived keep-alive
  connections (a benchmark's, or a proxy's pool) can all land on one worker while the others idle. Behind a
  proxy that keeps few connections open, cap it near `threads` x 2 so they spread; `make loadtest` and
  `make bench` use 8.
- `when_ready` freezes the preloaded objects (GUNICORN_GC_FREEZE): see its docstring below.
- `max_requests` with jitter recycles workers to bound memory without restarting them all at once.
- `worker_tmp_dir` on /dev/shm (when present): the heartbeat file never touches a slow or read-only disk.
- gunicorn's own refusals (414 URI too long, 431 header fields too large, 400 bad request line) are
  problem+json like every other error of the API (`_problem_error`), not gunicorn's HTML page.
- PROMETHEUS_MULTIPROC_DIR, when set, is emptied when this file is read (before the preloaded app makes
  its metric files) and a dead worker's metric files are marked,
  so /metrics adds up every worker (prometheus_client multiprocess mode).
"""
import gc
import json
import multiprocessing
import os
import shutil

from gunicorn import util

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "service.streams.worker.StreamWorker")
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
backlog = int(os.environ.get("GUNICORN_BACKLOG", "2048"))
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").strip().lower() in {"1", "true", "yes", "on"}
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "2000"))
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")


def _fresh_metrics_dir(directory):
    """An empty Prometheus multiprocess directory before the (preloaded) app creates its metric files."""
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory, exist_ok=True)


_fresh_metrics_dir(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def child_exit(server, worker):
    """Tell prometheus_client a worker is gone, so its live gauges stop counting."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def when_ready(server):
    """Freeze everything the preloaded app made at import (GUNICORN_GC_FREEZE, on by default).

    The master has imported the app and is about to fork the workers. Frozen objects sit in a permanent
    generation the collector never walks, so a worker's full collections cover only what it made itself
    (one full pass over the ~150,000 imported objects takes about 100 ms on a small VM: a latency spike
    on whichever requests it lands), and collections stop writing to pages the workers share with the
    master copy-on-write.
    """
    if preload_app and os.environ.get("GUNICORN_GC_FREEZE", "true").strip().lower() in {"1", "true", "yes", "on"}:
        gc.collect()
        gc.freeze()


def _problem_error(sock, status_int, reason, mesg):
    """gunicorn's error page (a request it refused before the app saw it) as application/problem+json."""
    body = json.dumps({"type": "about:blank", "title": reason, "status": int(status_int), "detail": str(mesg)},
                      ensure_ascii=True).encode("ascii")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin1") + body)


util.write_error = _problem_error  # gunicorn's workers call util.write_error for the errors they answer
