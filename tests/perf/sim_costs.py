"""Measure what a simulation chunk costs on one core, per ruleset and engine, against the cost model
(`service.sim.cost`): `python -m tests.perf.sim_costs` prints, for each engine and matchup size, the CPU
of a few chunks beside the model's estimate for them (the model must stay above: it is what the budget
counts). The matchups are built here (`matchup`), two sides of equal fighters, and are also what
tests/unit/sim/test_cost_model.py runs.
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import numpy as np

from service.rules import registry
from service.sim import rounds
from service.sim.cost import LOOP, Cost
from service.sim.simulator import simulator_for


def _tactical(ident: str) -> dict:
    return {"id": ident, "attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11},
            "mods": {"AWA": 1, "HRT": 0}, "dodge_dv": 20, "armor": [{"type": "padded", "dr": 10}],
            "weapons": [{"name": "sword", "av": 55, "parry": 35, "size": 6, "weight_class": 2}]}


def _smoting(ident: str) -> dict:
    return {"id": ident, "physical_rank": 3, "mental_rank": 3, "xposures": {"attack": 4, "parry": 2}}


def _runequest(ident: str) -> dict:
    return {"id": ident, "characteristics": {"str": 14, "con": 13, "siz": 13, "int": 12, "dex": 12},
            "weapons": [{"name": "broadsword", "attack": 70, "parry": 45}]}


def _war(ident: str) -> dict:
    return {"id": ident, "fighter_rank": 5, "strength": 10, "size": 9, "weapons": [{"name": "sword", "skill": 5}]}


def _ars(ident: str) -> dict:
    return {"id": ident, "weapon": "longsword", "abilities": {"weapon": 5},
            "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2}, "armor": "leather"}


def _smoting_unhurt(ident: str) -> dict:
    return {"id": ident, "physical_rank": 9, "mental_rank": 3, "armor_resist": 6, "xposures": {"attack": 1, "parry": 5},
            "weapon": {"damage_dice": 1, "speed": 3}}


def _tactical_unhurt(ident: str) -> dict:
    return {**_tactical(ident), "attributes": {"STR": 3, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11},
            "armor": [{"type": "field-plate", "dr": 40, "durability": 40}],
            "weapons": [{"name": "stick", "av": 30, "parry": 35, "size": 1, "weight_class": 0}]}


# Fighters who cannot hurt each other: every fight runs to its cap, the worst case the model charges for.
UNHURT = {"tactical": _tactical_unhurt, "smoting": _smoting_unhurt}
FIGHTERS: dict[str, Callable[[str], dict]] = {"tactical": _tactical, "smoting": _smoting, "runequest-house": _runequest,
                                               "war-and-combat": _war, "ars-magica": _ars}
CAP_OPTION = {"tactical": "max_segments"}
LARGEST = {"runequest-house": 100}  # combatants a ruleset's matchup may have, where below the API's 200


def matchup(ruleset: str, a: int, b: int, cap: int, unhurt: bool = False, **options: Any) -> dict:
    """`a` against `b` fighters of `ruleset` (`unhurt`: who cannot hurt each other), fights capped at `cap` steps."""
    make = UNHURT[ruleset] if unhurt else FIGHTERS[ruleset]
    return {"sides": [{"name": "red", "combatants": [make(f"r{i}") for i in range(a)]},
                      {"name": "blue", "combatants": [make(f"b{i}") for i in range(b)]}],
            "options": {CAP_OPTION.get(ruleset, "max_rounds"): cap, **options}}


def chunk_cpu(ruleset: str, body: dict, trials: int, loop: bool = False, seed: int = 1) -> float:
    """CPU seconds of one chunk of `trials` fights as a worker plays it (`loop`: the resolver loop even where
    a vectorised engine covers the matchup)."""
    simulator = simulator_for(ruleset)
    started = time.process_time()
    if loop:
        ruleset_of = registry.get(ruleset)
        rounds.play(ruleset_of, ruleset_of.duel.read_matchup(body), trials, random.Random(seed))
    else:
        simulator.run_chunk(body, 0, trials, seed)
    return time.process_time() - started


CASES = [  # (combatants a side, trials, cap)
    (1, 20_000, 20), (1, 2_000, 200), (1, 10, 200), (5, 2_000, 20), (25, 200, 10), (50, 100, 4), (100, 20, 2),
]


def rows(rulesets: list[str]) -> list[tuple]:
    """(ruleset, engine, combatants, trials, cap, measured s, estimated s) for every case."""
    out = []
    for ruleset in rulesets:
        simulator = simulator_for(ruleset)
        simulator.run_chunk(matchup(ruleset, 1, 1, 2), 0, 10, 1)  # warm-up: tables read once a process
        for side, trials, cap in CASES:
            if 2 * side > LARGEST.get(ruleset, 200):
                continue
            body = matchup(ruleset, side, side, cap)
            cost = simulator.cost(body)
            loop = cost.engine == LOOP
            trials = max(1, trials // 20) if loop else trials
            measured = chunk_cpu(ruleset, body, trials, loop)
            out.append((ruleset, cost.engine, 2 * side, trials, cap, measured, cost.chunk_seconds(trials)))
            if not loop and side == 1 and ruleset != "tactical":
                looped = Cost(LOOP, 2, cap, simulator.rates[LOOP])
                few = max(1, trials // 200)
                out.append((ruleset, "loop", 2, few, cap, chunk_cpu(ruleset, body, few, True),
                            looped.chunk_seconds(few)))
    return out


STALEMATES = [("tactical", 1, 2000, 200), ("tactical", 5, 100, 50), ("smoting", 1, 2000, 200), ("smoting", 2, 3, 1000)]


def stalemate_rows() -> list[tuple]:
    """The same for fights that all run to their cap."""
    out = []
    for ruleset, side, trials, cap in STALEMATES:
        body = matchup(ruleset, side, side if ruleset == "tactical" else 1, cap, unhurt=True)
        cost = simulator_for(ruleset).cost(body)
        measured = chunk_cpu(ruleset, body, trials)
        out.append((f"{ruleset} (every fight to its cap)", cost.engine, cost.combatants, trials, cap, measured,
                    cost.chunk_seconds(trials)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rulesets", nargs="*", default=list(FIGHTERS))
    args = parser.parse_args()
    np.seterr(all="ignore")
    print("| ruleset | engine | combatants | trials | cap | measured CPU s | model s | model / measured |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for ruleset, engine, n, trials, cap, measured, model in rows(args.rulesets) + stalemate_rows():
        print(f"| {ruleset} | {engine} | {n} | {trials:,} | {cap} | {measured:.3f} | {model:.3f} | "
              f"{model / max(measured, 1e-9):.1f} |", flush=True)


if __name__ == "__main__":
    main()
