"""Simulator benchmark: fights/s and segments/s on one core, against a Python loop, memory vs trials.

`sim_benchmark()` is what `make bench` calls. The Python baseline is the Combat Segment resolver looped
one fight at a time under the same fight policy (the tactical `DuelRules` through `service.sim.rounds`).
"""
from __future__ import annotations

import random
import time
import tracemalloc

import numpy as np

from service.rules.tactical import RULESET
from service.sim import chunks, rounds
from service.sim.matchup import parse

PAD = [{"type": "padded", "dr": 10}]


def _fighter(name: str, av: int, parry: int, armor: list[dict]) -> dict:
    return {"id": name, "attributes": {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11},
            "mods": {"AWA": 1, "HRT": 0}, "dodge_dv": 20, "armor": armor,
            "weapons": [{"name": "sword", "av": av, "parry": parry, "size": 6, "weight_class": 2}]}


DUEL = {"sides": [{"name": "a", "combatants": [_fighter("a", 55, 35, PAD)]},
                  {"name": "b", "combatants": [_fighter("b", 55, 40, [{"type": "singlemail", "dr": 10,
                                                                        "durability": 40}])]}]}


def _segments(tally) -> int:
    return int((np.arange(len(tally.segments)) * tally.segments).sum())


def engine_rate(matchup: dict, trials: int = 400_000, seed: int = 1) -> dict:
    """Fights/s and segments/s of the array engine, in this process (one core)."""
    m = parse(matchup)
    chunks.run(m, 20_000, seed)  # warm-up
    start = time.perf_counter()
    tally = chunks.run(m, trials, seed)
    elapsed = time.perf_counter() - start
    return {"fights_per_s": trials / elapsed, "segments_per_s": _segments(tally) / elapsed,
            "mean_segments": _segments(tally) / trials}


def python_rate(matchup: dict, fights: int = 1500, seed: int = 1) -> dict:
    """The same per second for one fight at a time through the Combat Segment resolver."""
    parsed = RULESET.duel.read_matchup(matchup)
    start = time.perf_counter()
    tally = rounds.play(RULESET, parsed, fights, random.Random(seed))
    elapsed = time.perf_counter() - start
    segments = sum(int(k) * n for k, n in tally["rounds"].items())
    return {"baseline": "segment resolver", "fights_per_s": fights / elapsed, "segments_per_s": segments / elapsed}


def peak_memory(matchup: dict, trials: int, chunk_size: int = chunks.DEFAULT_CHUNK) -> int:
    """Peak bytes allocated while simulating `trials` fights (numpy reports to tracemalloc)."""
    tracemalloc.start()
    chunks.run(matchup, trials, 5, chunk_size)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def _chunk(args: tuple) -> int:
    matchup, index, size, seed = args
    return int(chunks.run_chunk(matchup, index, size, seed).trials)


def worker_scaling(matchup: dict, trials: int = 400_000, seed: int = 9) -> dict:
    """Wall time of one job's chunks on one and on two worker processes (what Celery workers run)."""
    from concurrent.futures import ProcessPoolExecutor

    work = [(matchup, i, size, seed) for i, size in enumerate(chunks.plan(trials))]
    times = {}
    for workers in (1, 2):
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_chunk, work[:workers]))  # warm the processes up
            start = time.perf_counter()
            done = sum(pool.map(_chunk, work))
            times[workers] = time.perf_counter() - start
        assert done == trials
    return {"trials": trials, "seconds_1": times[1], "seconds_2": times[2], "speedup": times[1] / times[2]}


def sim_benchmark() -> dict:
    """The whole simulator benchmark as one dict (printed and stored by `make bench`)."""
    engine, python = engine_rate(DUEL), python_rate(DUEL)
    memory = {trials: peak_memory(DUEL, trials) for trials in MEMORY_TRIALS}
    return {"matchup": "one-on-one duel, full rules", "engine": engine, "python": python,
            "speedup": engine["fights_per_s"] / python["fights_per_s"],
            "peak_bytes_by_trials": memory,
            "memory_flat": memory[MEMORY_TRIALS[1]] < 1.5 * memory[MEMORY_TRIALS[0]], "workers": worker_scaling(DUEL)}


MEMORY_TRIALS = (100_000, 10_000_000)  # issue 27 item 5: peak memory flat from 10^5 to 10^7 trials


if __name__ == "__main__":
    import json

    print(json.dumps(sim_benchmark(), indent=2))
