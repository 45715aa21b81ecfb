"""`make bench` for the smoting ruleset: to-hit and damage req/s against the bare Flask endpoint on the
same gunicorn in one run, one 20-combatant round in process, and simulated duels per second per core."""
from __future__ import annotations

import random
import time

from service.rules.dice import DiceSource
from service.rules.smoting import RULESET
from service.sim.simulator import simulator_for
from tests.perf.http_bench import TO_HIT, VARIED_TO_HIT, interleaved_rows, varied, with_bare

HIT = {"attack_dice": 5, "defence": {"type": "dodge", "dice": 3}}
DAMAGE = {"damage_dice": 5, "strength": 1, "extra_successes": 1, "target": {"rank": 5}}
VARIED_HIT = varied(HIT, {"attack_dice": list(range(1, 31)), "modifiers": list(range(-5, 6)),
                          "defence.type": ["dodge", "parry"], "defence.dice": list(range(11))})
VARIED_DAMAGE = varied(DAMAGE, {"damage_dice": list(range(31)), "strength": list(range(-3, 7)),
                                "extra_successes": list(range(11)), "target.rank": list(range(1, 10))})
SCENARIOS = [("bare Flask JSON endpoint", "bare", "/bare", TO_HIT),
             ("POST /v1/smoting/to-hit", "referee", "/v1/smoting/to-hit", HIT),
             ("POST /v1/smoting/damage", "referee", "/v1/smoting/damage", DAMAGE),
             ("bare Flask JSON endpoint, 5,000 different bodies", "bare", "/bare", VARIED_TO_HIT),
             ("POST /v1/smoting/to-hit, 5,000 different bodies", "referee", "/v1/smoting/to-hit", VARIED_HIT),
             ("POST /v1/smoting/damage, 5,000 different bodies", "referee", "/v1/smoting/damage", VARIED_DAMAGE)]
DUEL = {"sides": [{"name": "heroes", "combatants": [
            {"id": "georeg", "pc": True, "heroic": True, "physical_rank": 4, "mental_rank": 4,
             "attributes": {"str": 1, "agl": 2}, "xposures": {"attack": 5, "parry": 3}}]},
        {"name": "giants", "combatants": [
            {"id": "ginat", "physical_rank": 6, "mental_rank": 3, "xposures": {"attack": 4, "dodge": 2},
             "weapon": {"damage_dice": 5, "speed": 5}}]}]}


def round_ms(combatants: int = 20, repeats: int = 30) -> tuple[float, float]:
    """Median wall time and mean CPU time of one round of `combatants` fighters (pairs attacking each other)
    in process, in ms (CPU time is the fairer figure on a shared, loaded machine)."""
    people = [{"id": f"c{i}", "side": "red" if i % 2 else "blue", "physical_rank": 5, "mental_rank": 4,
               "xposures": {"attack": 4, "parry": 2}} for i in range(combatants)]
    engine = RULESET.engine
    state = engine.read_state({"combatants": people})
    declarations = engine.check_declarations(state, [
        {"combatant": f"c{i}", "action": "attack", "target": f"c{i ^ 1}", "defence": "parry"}
        for i in range(combatants)])
    times = []
    cpu = time.process_time()
    for seed in range(repeats):
        start = time.perf_counter()
        engine.resolve(state, declarations, DiceSource(seed))
        times.append(time.perf_counter() - start)
    cpu = (time.process_time() - cpu) / repeats
    return sorted(times)[len(times) // 2] * 1000, cpu * 1000


def duels_per_second() -> tuple[float, float, str]:
    """Simulated duels a second on one core (wall, and per CPU-second), and which path played them: one chunk
    of 20,000 fights on the vectorised engine (a job's default chunk), or 400 through the round resolver loop
    when the engine does not cover the matchup."""
    simulator = simulator_for("smoting")
    parsed = RULESET.duel.read_matchup(DUEL)
    vector = getattr(simulator, "vector", None) is not None and (simulator.accepts is None or simulator.accepts(parsed))
    trials = 20000 if vector else 400
    simulator.run_chunk(DUEL, 1, 200, 1)  # warm-up: tables built once per process
    start, cpu = time.perf_counter(), time.process_time()
    simulator.run_chunk(DUEL, 0, trials, random.randrange(2**32))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    path = "vectorised engine, 20,000 fights in one chunk" if vector else "round resolver loop"
    return trials / wall, trials / cpu, path


def report() -> str:
    """The markdown table `make bench` writes into the README."""
    rows = interleaved_rows(SCENARIOS, seconds=3, rounds=2)
    lines = ["| smoting | result | vs bare / target |", "|---|---:|---:|"]
    for row, bare in with_bare(rows):
        if row["scenario"].startswith("bare"):
            continue
        lines.append(f"| {row['scenario']} (gunicorn, wrk) | {row['rps']:.0f} req/s, p99 {row['p99_ms']:.1f} ms "
                     f"| {row['rps'] / bare:.0%} of bare ({bare:.0f} req/s) |")
    wall_ms, cpu_ms = round_ms()
    lines.append(f"| POST /v1/smoting/rounds/resolve work, 20 combatants, in process | {wall_ms:.2f} ms median "
                 f"(CPU {cpu_ms:.2f} ms) | target < 5 ms |")
    rate, per_cpu, path = duels_per_second()
    lines.append(f"| simulation, Georeg vs a Ginat, one core ({path}) | {rate:,.0f} duels/s "
                 f"({per_cpu:,.0f} per CPU-second) | target 20,000 |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
