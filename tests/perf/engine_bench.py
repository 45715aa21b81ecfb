"""`make bench`: what each ruleset's simulation plays per core, beside the targets of issue 27 item 3.

One-on-one duels and 3-vs-3 fights of the standard fighters of `tests.perf.sim_costs` (default options),
played through the ruleset's `Simulator.run_chunk` exactly as a worker plays a default 20,000-fight chunk:
fights per CPU-second, the best of `repeats`, and the engine that played them (`vectorised` or the resolver
`loop`). CPU time, so that a shared box's other work counts less than on a wall clock.

Run alone: `.venv/bin/python -m tests.perf.engine_bench [ruleset ...]`.
"""
from __future__ import annotations

import sys
import time

from service.sim.simulator import simulator_for
from tests.perf.sim_costs import FIGHTERS

TRIALS = 20_000
TARGETS = {"tactical": (500_000, None)}  # (duels/s, 3-vs-3 fights/s) per core; None: no target
DEFAULT_TARGETS = (200_000, 50_000)


def matchup(ruleset: str, side: int) -> dict:
    """`side` against `side` of the ruleset's standard fighter, default options."""
    make = FIGHTERS[ruleset]
    return {"sides": [{"name": "red", "combatants": [make(f"r{i}") for i in range(side)]},
                      {"name": "blue", "combatants": [make(f"b{i}") for i in range(side)]}]}


def rate(ruleset: str, side: int, repeats: int = 3) -> tuple[float, str]:
    """Fights per CPU-second of one chunk of `side`-vs-`side` fights (best of `repeats`), and the engine."""
    simulator, body = simulator_for(ruleset), matchup(ruleset, side)
    engine = simulator.cost(body).engine
    trials = TRIALS if engine != "loop" else 200
    simulator.run_chunk(body, 0, 200, 0)  # warm-up: tables read once a process
    best = 0.0
    for seed in range(1, repeats + 1):
        start = time.process_time()
        simulator.run_chunk(body, 0, trials, seed)
        best = max(best, trials / max(time.process_time() - start, 1e-9))
    return best, engine


def measure(rulesets: list[str]) -> list[dict]:
    """Every ruleset's duel and 3-vs-3 rate with its targets."""
    rows = []
    for ruleset in rulesets:
        duel_target, group_target = TARGETS.get(ruleset, DEFAULT_TARGETS)
        duels, duel_engine = rate(ruleset, 1)
        groups, group_engine = rate(ruleset, 3)
        rows.append({"ruleset": ruleset, "duels_per_s": duels, "duel_engine": duel_engine, "duel_target": duel_target,
                     "3v3_per_s": groups, "3v3_engine": group_engine, "3v3_target": group_target})
    return rows


def _cell(value: float, engine: str, target: int | None) -> str:
    verdict = "" if target is None else (" (met)" if value >= target else " (**below**)")
    return f"{value:,.0f} {engine}{verdict}"


def table(rows: list[dict]) -> str:
    """The markdown table `make bench` prints."""
    lines = ["| simulation, one core (CPU time, best of 3 chunks of 20,000) | duels/s | target | 3-vs-3 fights/s "
             "| target |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        group_target = "—" if r["3v3_target"] is None else f">= {r['3v3_target']:,}"
        lines.append(f"| {r['ruleset']} | {_cell(r['duels_per_s'], r['duel_engine'], r['duel_target'])} | "
                     f">= {r['duel_target']:,} | {_cell(r['3v3_per_s'], r['3v3_engine'], r['3v3_target'])} | "
                     f"{group_target} |")
    return "\n".join(lines)


def report(rulesets: list[str] | None = None) -> tuple[str, list[dict]]:
    """The table and its rows."""
    rows = measure(rulesets or sorted(FIGHTERS))
    return table(rows), rows


if __name__ == "__main__":
    print(report(sys.argv[1:] or None)[0])
