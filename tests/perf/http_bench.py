"""HTTP benchmarks with wrk against gunicorn on loopback: our endpoints vs a bare Flask endpoint."""
from __future__ import annotations

import json
import os
import random
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


def varied_bodies(count: int = 5000, seed: int = 7) -> tuple[list[dict], list[dict]]:
    """Distinct to-hit and damage bodies (more than the rules' memo keeps), so no answer is remembered."""
    rng = random.Random(seed)
    armors = ["padded", "singlemail", "doublemail", "jazeraint", "brigandine", "field-plate", "cuerbully-plate"]
    to_hits = [{"av": rng.randint(1, 200), "dv": rng.randint(1, 200)} for _ in range(count)]
    damages = [{"attacker": {"strength": rng.randint(6, 25), "modified_sta": rng.randint(6, 25),
                             "coordination": 12},
                "weapon": {"grip": "one-handed", "size": rng.randint(1, 12), "weight_class": rng.randint(0, 5),
                           "edge": "edged"},
                "target": {"modified_sta": rng.randint(6, 25), "condition": rng.randint(6, 25),
                           "pain_resistance": rng.randint(6, 25),
                           "armor": [{"type": rng.choice(armors)}, {"type": "padded"}]}} for _ in range(count)]
    return to_hits, damages


VARIED_TO_HIT, VARIED_DAMAGE = varied_bodies()


def varied(base: dict, choices: dict[str, list], count: int = 5000, seed: int = 7) -> list[dict]:
    """`count` distinct copies of `base`, each dotted path of `choices` set to one of its values at random
    (every combination valid for the endpoint): a ruleset's varied bodies."""
    rng, seen, bodies = random.Random(seed), set(), []
    while len(bodies) < count:
        body = json.loads(json.dumps(base))
        for path, values in choices.items():
            *parents, last = path.split(".")
            holder = body
            for part in parents:
                holder = holder.setdefault(part, {})
            holder[last] = rng.choice(values)
        text = json.dumps(body, sort_keys=True)
        if text not in seen:
            seen.add(text)
            bodies.append(body)
    return bodies

# Rows sending one body over and over show what a VTT re-asking the same question costs (the rules
# remember pure answers); rows sending 5,000 different bodies in turn show the full work. Each kind is
# compared with the bare endpoint fed the same way, since wrk's Lua picking the next body costs the shared
# CPU something too.
SCENARIOS = [
    ("bare Flask JSON endpoint", "bare", "/bare", TO_HIT),
    ("POST /v1/tactical/to-hit", "referee", "/v1/tactical/to-hit", TO_HIT),
    ("POST /v1/tactical/damage", "referee", "/v1/tactical/damage", DAMAGE),
    ("bare Flask JSON endpoint, 5,000 different bodies", "bare", "/bare", VARIED_TO_HIT),
    ("POST /v1/tactical/to-hit, 5,000 different bodies", "referee", "/v1/tactical/to-hit", VARIED_TO_HIT),
    ("POST /v1/tactical/damage, 5,000 different bodies", "referee", "/v1/tactical/damage", VARIED_DAMAGE),
]

APPS = {"bare": "tests.perf.bare_app:app", "referee": "service.wsgi:app"}
RUNS: list[list[dict]] = []  # every interleaved run of this process, for `make bench`'s summary of targets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(target: str, port: int, workers: int, **extra: str) -> subprocess.Popen:
    # One client on one IP would trip the per-IP rate limit at once; the bare endpoint has none either.
    # Each worker takes at most its share of wrk's keep-alive connections (16 over 2 workers): uncapped, one
    # worker can win every connection at the start and serve the whole run alone (gunicorn issues 2817, 3433).
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(workers),
           "GUNICORN_LOGLEVEL": "warning", "REFEREE_RATE_LIMIT": "off", "GUNICORN_WORKER_CONNECTIONS": "8", **extra}
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


def run_wrk(url: str, body: dict | list[dict] | Path, seconds: int, connections: int) -> dict:
    """wrk POSTing `body` (or each of a list of bodies in turn) to `url`, or running the wrk script at a
    `Path`; the parsed figures."""
    if isinstance(body, Path):
        return parse_wrk(subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s",
                                         str(body), url], capture_output=True, text=True, check=True).stdout)
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    if isinstance(body, dict):
        script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                     f"wrk.body = {json.dumps(json.dumps(body))}\n")
    else:
        entries = ",\n".join(json.dumps(json.dumps(item)) for item in body)
        script.write(f"local bodies = {{{entries}}}\nlocal i = 0\n"
                     'local headers = {["Content-Type"] = "application/json"}\n'
                     "request = function()\n  i = i % #bodies + 1\n"
                     '  return wrk.format("POST", nil, headers, bodies[i])\nend\n')
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


def interleaved_rows(scenarios: list[tuple], seconds: int, rounds: int = 3, connections: int = 16,
                     workers: int = 2) -> list[dict]:
    """Each scenario `(label, app, path, body)` on its own gunicorn (`app`: a key of APPS or a "module:app"
    target), all started together, warmed up for 2 s, then measured in `rounds` interleaved rounds of `seconds`
    (bare, to-hit, damage, bare, ...); each row is the scenario's best round, labelled `scenario`. This box's
    speed drifts from minute to minute, so a ratio of runs made minutes apart says more about the drift than
    the code."""
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed for HTTP benchmarks: apt-get install -y wrk")
    servers, urls = [], []
    try:
        for _, app, path, _ in scenarios:
            port = free_port()
            servers.append(start_gunicorn(APPS.get(app, app), port, workers))
            urls.append(f"http://127.0.0.1:{port}{path}")
        for url, (*_, body) in zip(urls, scenarios):
            run_wrk(url, body, 2, connections)  # warm-up
        best: list[dict | None] = [None] * len(scenarios)
        for _ in range(rounds):
            for i, (url, (*_, body)) in enumerate(zip(urls, scenarios)):
                result = run_wrk(url, body, seconds, connections)
                if best[i] is None or result["rps"] > best[i]["rps"]:
                    best[i] = result
        rows = [{"scenario": label, **row} for (label, *_), row in zip(scenarios, best)]
        RUNS.append(rows)
        return rows
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            server.wait(timeout=30)


def http_benchmarks(seconds: int = 8, connections: int = 16, workers: int = 2, rounds: int = 3) -> list[dict]:
    """The tactical scenarios against the bare endpoint: `seconds` shared by `rounds` interleaved rounds."""
    return interleaved_rows(SCENARIOS, max(2, seconds // rounds), rounds, connections, workers)


def with_bare(rows: list[dict]) -> list[tuple[dict, float]]:
    """Each row with the req/s of the bare endpoint's row fed the same way (the last bare row above it)."""
    out, bare = [], 0.0
    for row in rows:
        bare = row["rps"] if row["scenario"].startswith("bare") else bare
        out.append((row, bare))
    return out


def http_table(rows: list[dict]) -> str:
    """Each row's req/s as a share of the bare endpoint's row fed the same way (the last bare row above it)."""
    lines = ["| scenario | req/s | vs bare | p50 ms | p99 ms | non-2xx |", "|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        if row["scenario"].startswith("bare"):
            bare = row["rps"]
        lines.append(f"| {row['scenario']} | {row['rps']:.0f} | {row['rps'] / bare:.0%} | {row['p50_ms']:.2f} "
                     f"| {row['p99_ms']:.2f} | {row['non_2xx']} |")
    return "\n".join(lines)
