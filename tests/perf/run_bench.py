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
from tests.perf.http_bench import RUNS, http_benchmarks, http_table
from tests.perf.segment_bench import http_steps, resolve_times, step_cost_table, step_costs
from tests.perf.sim_bench import MEMORY_TRIALS, sim_benchmark

ROOT = Path(__file__).resolve().parents[2]


def segment_table(resolve: list[dict]) -> str:
    lines = ["| Combat Segment resolver | result |", "|---|---:|"]
    for row in resolve:
        lines.append(f"| one CS, {row['combatants']} combatants, in process | {row['ms_per_segment']:.2f} ms |")
    return "\n".join(lines)


def sim_table(sim: dict) -> str:
    engine, python = sim["engine"], sim["python"]
    memory = sim["peak_bytes_by_trials"]
    low, high = MEMORY_TRIALS
    return "\n".join([
        "| Monte Carlo simulator (one core) | fights/s | segments/s |", "|---|---:|---:|",
        f"| numpy engine, {sim['matchup']} | {engine['fights_per_s']:,.0f} | {engine['segments_per_s']:,.0f} |",
        f"| {python['baseline']} looped in Python | {python['fights_per_s']:,.0f} | {python['segments_per_s']:,.0f} |",
        f"| speed-up | {sim['speedup']:.0f}x | |",
        f"| peak memory, {low:,} vs {high:,} trials | {memory[low] / 1e6:.1f} MB vs {memory[high] / 1e6:.1f} MB "
        f"({'flat' if sim['memory_flat'] else 'growing'}) | |",
        f"| one 400,000-fight job on 1 vs 2 worker processes | {sim['workers']['seconds_1']:.2f} s vs "
        f"{sim['workers']['seconds_2']:.2f} s | {sim['workers']['speedup']:.2f}x speed-up |"])


def calculator_targets(runs: list[list[dict]]) -> list[tuple[str, str, str, bool]]:
    """Issue 27 item 1 for every to-hit and damage row of every interleaved run: req/s against the bare row
    fed the same way above it (>= 85% repeated, >= 80% with 5,000 different bodies) and p99 within 2x."""
    out = []
    for rows in runs:
        bare = None
        for row in rows:
            if row["scenario"].startswith("bare"):
                bare = row
                continue
            if bare is None or not any(f"/{kind}" in row["scenario"] for kind in ("to-hit", "damage")) \
                    or "yardstick" in row["scenario"]:
                continue
            varied = "different" in row["scenario"]
            share, floor = row["rps"] / bare["rps"], 0.80 if varied else 0.85
            out.append((row["scenario"], f">= {floor:.0%} of bare", f"{share:.0%} ({row['rps']:,.0f} req/s)",
                        share >= floor))
            out.append((f"{row['scenario']}: p99", f"<= 2x bare's ({2 * bare['p99_ms']:.1f} ms)",
                        f"{row['p99_ms']:.1f} ms", row["p99_ms"] <= 2 * bare["p99_ms"]))
    return out


def step_targets(rows: list[dict]) -> list[tuple[str, str, str, bool]]:
    """Issue 27 item 2: each ruleset's stored step >= 25% of bare req/s, p99 < 50 ms, no errors."""
    bare, out = rows[0], []
    for row in rows[1:]:
        errors = row["non_2xx"] + (1 if row["socket_errors"] else 0)
        share = row["rps"] / bare["rps"]
        out.append((row["scenario"], ">= 25% of bare, p99 < 50 ms, 0 errors",
                    f"{share:.0%} ({row['rps']:,.0f} req/s), p99 {row['p99_ms']:.1f} ms, {row['non_2xx']} non-2xx"
                    + (f", socket errors {row['socket_errors']}" if row["socket_errors"] else ""),
                    share >= 0.25 and row["p99_ms"] < 50 and errors == 0))
    return out


def engine_targets(rows: list[dict]) -> list[tuple[str, str, str, bool]]:
    """Issue 27 item 3 (engine_bench's rows): duels and 3-vs-3 fights per core."""
    out = []
    for r in rows:
        out.append((f"simulation, {r['ruleset']} duels/s/core", f">= {r['duel_target']:,}",
                    f"{r['duels_per_s']:,.0f} ({r['duel_engine']})", r["duels_per_s"] >= r["duel_target"]))
        if r["3v3_target"] is not None:
            out.append((f"simulation, {r['ruleset']} 3-vs-3 fights/s/core", f">= {r['3v3_target']:,}",
                        f"{r['3v3_per_s']:,.0f} ({r['3v3_engine']})", r["3v3_per_s"] >= r["3v3_target"]))
    return out


def load_targets(load: dict | None, streams: dict | None) -> list[tuple[str, str, str, bool]]:
    """Issue 27 item 4: `make loadtest` and `make streamtest` (run by `make bench` too)."""
    out = []
    if load is not None:
        errors = load["client_errors"] + load["server_errors"] + load["other"] + (1 if load.get("socket_errors") else 0)
        out.append(("make loadtest (mixed traffic)", ">= 1,500 req/s, p99 < 50 ms, 0 errors",
                    f"{load['rps']:,.0f} req/s, p99 {load['p99_ms']:.1f} ms, {errors} errors",
                    load["rps"] >= 1500 and load["p99_ms"] < 50 and errors == 0))
    if streams is not None:
        out.append((f"make streamtest ({streams['streams']:,} streams open)", ">= 90% of throughput",
                    f"{streams['throughput_ratio']:.0%} by req/s, {streams['cpu_throughput_ratio']:.0%} by CPU",
                    bool(streams["targets_met"])))
    return out


def growth_targets(sim: dict, costs: list[dict]) -> list[tuple[str, str, str, bool]]:
    """Issue 27 item 5: the step-cost table is printed above; simulation memory flat from 10^5 to 10^7."""
    memory, (low, high) = sim["peak_bytes_by_trials"], MEMORY_TRIALS
    return [(f"simulation peak memory, {low:,} vs {high:,} trials", "flat (< 1.5x)",
             f"{memory[low] / 1e6:.1f} MB vs {memory[high] / 1e6:.1f} MB", bool(sim["memory_flat"])),
            ("step time, 2 to 2,000 combatants", "a table in the README",
             f"{len(costs)} rulesets measured (table above)", True)]


def summary_table(rows: list[tuple[str, str, str, bool]]) -> str:
    """Every figure of issue 27 beside its target."""
    lines = ["| issue 27 figure | target | measured | met |", "|---|---|---|---|"]
    lines += [f"| {name} | {target} | {measured} | {'yes' if met else '**no**'} |" for name, target, measured, met in rows]
    met = sum(1 for *_, ok in rows if ok)
    return "\n".join([*lines, "", f"{met} of {len(rows)} targets met."])


def load_runs() -> tuple[dict | None, dict | None]:
    """`make loadtest` and `make streamtest` as they run alone; their JSON results (None: not run)."""
    from tests.load import run as load_run
    from tests.load import streams as stream_run

    out = ROOT / "bench" / "results"
    results = []
    for module, path in ((load_run, out / "load.json"), (stream_run, out / "streams.json")):
        try:
            module.main(["--out", str(path)])
            results.append(json.loads(path.read_text()))
        except Exception as error:  # noqa: BLE001 - a broken load run must not cost the run its other figures
            print(f"{module.__name__} did not run: {error}")
            results.append(None)
    return results[0], results[1]


def ruleset_reports() -> list[str]:
    """Each ruleset's own benchmark: `tests/perf/ruleset_<package>.py` with `report() -> str` (markdown)."""
    found = sorted((ROOT / "tests" / "perf").glob("ruleset_*.py"))
    return [importlib.import_module(f"tests.perf.{path.stem}").report() for path in found]


def main() -> None:
    started = time.strftime("%Y-%m-%d")
    rows = http_benchmarks()
    resolve, steps, costs = resolve_times(), http_steps(), step_costs()
    sim = sim_benchmark()
    engines, engine_rows = engine_report()
    report = (f"Measured {started} on {platform.machine()} ({platform.python_version()}), 2 cores shared with the "
              "load generator: `make bench` (wrk, 1 thread, 16 connections; every scenario on its own gunicorn "
              "with deploy/gunicorn.conf.py and 2 workers of 8 connections each, all started together, warmed up for 2 s, then measured in "
              "3 interleaved rounds of 2 s, best round shown; Referee's rate limit off, access log on).\n\n" + http_table(rows)
              + "\n\n" + segment_table(resolve) + "\n\n" + http_table(steps) + "\n\n" + step_cost_table(costs)
              + "\n\n" + sim_table(sim) + "\n\n" + engines)
    report = "\n\n".join([report, *ruleset_reports(), dice_report()])
    load, streams = load_runs()
    targets = (calculator_targets([run for run in RUNS if run is not steps]) + step_targets(steps)
               + engine_targets(engine_rows) + load_targets(load, streams) + growth_targets(sim, costs))
    report += "\n\n" + summary_table(targets)
    print(report)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps({"http": rows, "resolve": resolve, "steps_http": steps,
                                                 "step_costs": costs, "sim": sim, "engines": engine_rows,
                                                 "load": load, "streams": streams,
                                                 "targets": targets}, indent=2, default=str))
    for name in ("latest.md", f"{started}.md"):
        (out / name).write_text(report + "\n", encoding="utf-8")
    print(f"\nwritten to {out / 'latest.md'} (cite the figures in README.md's Performance section)")


if __name__ == "__main__":
    main()
