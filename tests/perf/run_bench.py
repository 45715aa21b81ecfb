"""`make bench`: every benchmark in one run; prints a table and writes it into the README."""
from __future__ import annotations

import json
import platform
import re
import time
from pathlib import Path

from tests.perf.http_bench import http_benchmarks

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def http_table(rows: list[dict]) -> str:
    bare = rows[0]["rps"]
    lines = ["| scenario | req/s | vs bare | p50 ms | p99 ms | non-2xx |", "|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['scenario']} | {row['rps']:.0f} | {row['rps'] / bare:.0%} | {row['p50_ms']:.2f} "
                     f"| {row['p99_ms']:.2f} | {row['non_2xx']} |")
    return "\n".join(lines)


def main() -> None:
    started = time.strftime("%Y-%m-%d")
    rows = http_benchmarks()
    report = (f"Measured {started} on {platform.machine()} ({platform.python_version()}), 2 cores shared with the "
              "load generator: `make bench` (wrk, 1 thread, 16 connections, 8 s per scenario after 2 s warm-up; "
              "gunicorn with deploy/gunicorn.conf.py and 2 sync workers for every scenario).\n\n" + http_table(rows))
    print(report)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(rows, indent=2))
    readme = ROOT / "README.md"
    text = readme.read_text()
    if START in text:
        text = re.sub(re.escape(START) + ".*?" + re.escape(END), f"{START}\n{report}\n{END}", text, flags=re.S)
        readme.write_text(text)


if __name__ == "__main__":
    main()
