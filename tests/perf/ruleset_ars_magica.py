"""`make bench` for the `ars-magica` ruleset: to-hit and damage req/s against the bare Flask endpoint on
the same gunicorn setup in one run, one round of 20 combatants in process, and simulated duels per second
on one core (the vectorised engine `service.sim.engines.ars_magica`, which plays melee fights of any size).

Run alone: `.venv/bin/python -m tests.perf.ruleset_ars_magica`.
"""
from __future__ import annotations

import time

from tests.perf.http_bench import VARIED_TO_HIT, interleaved_rows, varied, with_bare

TO_HIT = {"attack": 12, "defence": 9}
DAMAGE = {"damage": 14, "soak": 8}
SCENARIOS = [("bare Flask JSON endpoint", "tests.perf.bare_app:app", "/bare", TO_HIT),
             ("POST /v1/ars-magica/to-hit", "service.wsgi:app", "/v1/ars-magica/to-hit", TO_HIT),
             ("POST /v1/ars-magica/damage", "service.wsgi:app", "/v1/ars-magica/damage", DAMAGE),
             ("bare Flask JSON endpoint, 5,000 different bodies", "tests.perf.bare_app:app", "/bare", VARIED_TO_HIT),
             ("POST /v1/ars-magica/to-hit, 5,000 different bodies", "service.wsgi:app", "/v1/ars-magica/to-hit",
              varied(TO_HIT, {"attack": list(range(-20, 60)), "defence": list(range(-20, 60)),
                              "attack_modifiers.darkness": [0, 1, 2, 3]})),
             ("POST /v1/ars-magica/damage, 5,000 different bodies", "service.wsgi:app", "/v1/ars-magica/damage",
              varied(DAMAGE, {"damage": list(range(-20, 60)), "soak": list(range(-20, 60)),
                              "protection": list(range(11))}))]


def twenty_combatants() -> tuple[dict, list[dict]]:
    """Ten pairs of fighters, each attacking the other."""
    people, declared = [], []
    for i in range(10):
        a, b = f"red-{i}", f"blue-{i}"
        people += [{"id": a, "side": "red", "weapon": "longsword", "abilities": {"weapon": 5},
                    "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2}, "armor": "leather"},
                   {"id": b, "side": "blue", "weapon": "mace", "abilities": {"weapon": 5},
                    "characteristics": {"dex": 1, "str": 2, "stm": 2}, "shield": {"defence": 3}}]
        declared += [{"combatant": a, "action": "attack", "target": b},
                     {"combatant": b, "action": "attack", "target": a}]
    return {"round": 0, "options": {}, "combatants": people}, declared


def round_ms(repeats: int = 200) -> tuple[float, float]:
    """Mean CPU and wall milliseconds of one 20-combatant round through the resolver (read, check, resolve,
    write); on a shared box the CPU time is the fair figure."""
    from service.sessions.encounters import resolve_once

    state, declared = twenty_combatants()
    resolve_once("ars-magica", state, declared, 0)
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(repeats):
        resolve_once("ars-magica", state, declared, seed)
    return (time.process_time() - cpu) / repeats * 1000, (time.perf_counter() - wall) / repeats * 1000


def duels_per_second(trials: int = 20_000, repeats: int = 3) -> tuple[float, str]:  # CPU time: one core
    """Simulated one-on-one duels per second on one core through `run_chunk` (one default-size chunk of a
    job), the best of `repeats`; and which path played them (`engine` or `resolver loop`)."""
    from service.sim.simulator import simulator_for

    state, _ = twenty_combatants()
    matchup = {"sides": [{"name": "red", "combatants": [state["combatants"][0]]},
                         {"name": "blue", "combatants": [state["combatants"][1]]}]}
    simulator = simulator_for("ars-magica")
    parsed = simulator.ruleset.duel.read_matchup(matchup)
    path = "engine" if simulator.vector is not None and simulator.accepts(parsed) else "resolver loop"
    best = 0.0
    for seed in range(repeats):
        start = time.process_time()
        simulator.run_chunk(matchup, 0, trials, seed=seed)
        best = max(best, trials / (time.process_time() - start))
    return best, path


def report() -> str:
    """The markdown table `make bench` prints."""
    rows = interleaved_rows(SCENARIOS, seconds=2, rounds=3)
    lines = ["### ars-magica", "", "| measure | value | target |", "|---|---:|---|"]
    for row, bare in with_bare(rows):
        ratio = "" if row["scenario"].startswith("bare") else f" ({row['rps'] / bare:.0%} of bare)"
        target = ">= 80% of bare" if "different" in row["scenario"] else ">= 85% of bare"
        lines.append(f"| {row['scenario']} req/s | {row['rps']:,.0f}{ratio} | {target} |")
    cpu, wall = round_ms()
    lines.append(f"| rounds/resolve, 20 combatants, in process | {cpu:.2f} ms CPU ({wall:.2f} ms wall) | < 5 ms |")
    rate, path = duels_per_second()
    lines.append(f"| simulation, duels/s/core ({path}) | {rate:,.0f} | >= 20,000 |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
