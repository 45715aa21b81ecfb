"""`make bench`: every benchmark in one run; prints the tables and writes them to bench/results/ (latest.md,
latest.json and a dated copy), untracked: the README cites a run's figures, it is never rewritten."""
from __future__ import annotations

import importlib
import json
import platform
import time
from pathlib import Path

from tests.perf.dice_bench import report as dice_report
from tests.perf.engine_bench import report as engine_report
from tests.perf.http_bench import http_benchmarks, http_table
from tests.perf.segment_bench import http_segments, resolve_times
from tests.perf.sim_bench import sim_benchmark

ROOT = Path(__file__).resolve().parents[2]


def segment_table(resolve: list[dict], http: dict) -> str:
    lines = ["| Combat Segment resolver | result |", "|---|---:|"]
    for row in resolve:
        lines.append(f"| one CS, {row['combatants']} combatants, in process | {row['ms_per_segment']:.2f} ms |")
    lines.append(f"| POST /v1/encounters/{{id}}/segments (4 combatants, gunicorn + Redis) | {http['rps']:.0f} req/s, "
                 f"p50 {http['p50_ms']:.1f} ms, p99 {http['p99_ms']:.1f} ms, {http['non_2xx']} non-2xx (409s: wrk's "
                 "round robin over 32 encounters sometimes laps one whose segment is still in flight) |")
    return "\n".join(lines)


def sim_table(sim: dict) -> str:
    engine, python = sim["engine"], sim["python"]
    memory = sim["peak_bytes_by_trials"]
    return "\n".join([
        "| Monte Carlo simulator (one core) | fights/s | segments/s |", "|---|---:|---:|",
        f"| numpy engine, {sim['matchup']} | {engine['fights_per_s']:,.0f} | {engine['segments_per_s']:,.0f} |",
        f"| {python['baseline']} looped in Python | {python['fights_per_s']:,.0f} | {python['segments_per_s']:,.0f} |",
        f"| speed-up | {sim['speedup']:.0f}x | |",
        f"| peak memory, 40,000 vs 400,000 trials | {memory[40_000] / 1e6:.1f} MB vs {memory[400_000] / 1e6:.1f} MB "
        f"({'flat' if sim['memory_flat'] else 'growing'}) | |",
        f"| one 400,000-fight job on 1 vs 2 worker processes | {sim['workers']['seconds_1']:.2f} s vs "
        f"{sim['workers']['seconds_2']:.2f} s | {sim['workers']['speedup']:.2f}x speed-up |"])


def ruleset_reports() -> list[str]:
    """Each ruleset's own benchmark: `tests/perf/ruleset_<package>.py` with `report() -> str` (markdown)."""
    found = sorted((ROOT / "tests" / "perf").glob("ruleset_*.py"))
    return [importlib.import_module(f"tests.perf.{path.stem}").report() for path in found]


def main() -> None:
    started = time.strftime("%Y-%m-%d")
    rows = http_benchmarks()
    resolve, segments = resolve_times(), http_segments()
    sim = sim_benchmark()
    engines, engine_rows = engine_report()
    report = (f"Measured {started} on {platform.machine()} ({platform.python_version()}), 2 cores shared with the "
              "load generator: `make bench` (wrk, 1 thread, 16 connections; every scenario on its own gunicorn "
              "with deploy/gunicorn.conf.py and 2 workers of 8 connections each, all started together, warmed up for 2 s, then measured in "
              "3 interleaved rounds of 2 s, best round shown; Referee's rate limit off, access log on).\n\n" + http_table(rows)
              + "\n\n" + segment_table(resolve, segments) + "\n\n" + sim_table(sim) + "\n\n" + engines)
    report = "\n\n".join([report, *ruleset_reports(), dice_report()])
    print(report)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps({"http": rows, "resolve": resolve, "segments_http": segments,
                                                 "sim": sim, "engines": engine_rows}, indent=2, default=str))
    for name in ("latest.md", f"{started}.md"):
        (out / name).write_text(report + "\n", encoding="utf-8")
    print(f"\nwritten to {out / 'latest.md'} (cite the figures in README.md's Performance section)")


if __name__ == "__main__":
    main()
