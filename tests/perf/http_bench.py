"""HTTP benchmarks with wrk against gunicorn on loopback: our endpoints vs a bare Flask endpoint."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TO_HIT = {"av": 60, "dv": 45}
DAMAGE = {
    "attacker": {"strength": 14, "modified_sta": 15, "coordination": 12},
    "weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"},
    "target": {"modified_sta": 14, "condition": 13, "pain_resistance": 12,
               "armor": [{"type": "doublemail"}, {"type": "padded"}]},
}

SCENARIOS = [
    ("bare Flask JSON endpoint", "bare", "/bare", TO_HIT),
    ("POST /v1/tactical/to-hit", "referee", "/v1/tactical/to-hit", TO_HIT),
    ("POST /v1/tactical/damage", "referee", "/v1/tactical/damage", DAMAGE),
]

APPS = {"bare": "tests.perf.bare_app:app", "referee": "service.wsgi:app"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(target: str, port: int, workers: int) -> subprocess.Popen:
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(workers),
           "GUNICORN_LOGLEVEL": "warning"}
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", target],
                               cwd=ROOT, env=env)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"gunicorn for {target} did not start")


def run_wrk(url: str, body: dict, seconds: int, connections: int) -> dict:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                 f"wrk.body = {json.dumps(json.dumps(body))}\n")
    script.close()
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script.name, url],
                         capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    return parse_wrk(out)


def parse_wrk(text: str) -> dict:
    def ms(value: str) -> float:
        number, unit = re.match(r"([\d.]+)(\w+)", value).groups()
        return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", text, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket_errors = re.search(r"Socket errors: (.*)", text)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
            "p50_ms": ms(latency["50"]), "p99_ms": ms(latency["99"]),
            "non_2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else ""}


def http_benchmarks(seconds: int = 8, connections: int = 16, workers: int = 2) -> list[dict]:
    """Run every scenario in turn on its own gunicorn; return one row per scenario."""
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed for HTTP benchmarks: apt-get install -y wrk")
    rows = []
    for label, app_name, path, body in SCENARIOS:
        port = free_port()
        server = start_gunicorn(APPS[app_name], port, workers)
        try:
            run_wrk(f"http://127.0.0.1:{port}{path}", body, 2, connections)  # warm-up
            rows.append({"scenario": label, **run_wrk(f"http://127.0.0.1:{port}{path}", body, seconds, connections)})
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    return rows
