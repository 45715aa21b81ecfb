"""`make bench` section for war-and-combat: to-hit and damage over HTTP against the bare Flask endpoint on the
same gunicorn setup in one run, one round of 20 combatants in process, and simulated duels per second."""
from __future__ import annotations

import random
import statistics
import time

import numpy as np

from tests.perf.http_bench import VARIED_TO_HIT, http_table, interleaved_rows, varied

TO_HIT = {"attacker": {"skill": 4, "attribute_mod": 1}, "defender": {"fighter_rank": 2, "agl_mod": 1,
                                                                     "state": "turned"}, "defence_bonus": {"head": 1}}
DAMAGE = {"impact_cap": 14, "margin": 6, "location": "left_leg", "weapon": {"penetration_value": 1, "damage_type": "cut"},
          "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}}}
SCENARIOS = [("bare Flask JSON endpoint", "tests.perf.bare_app:app", "/bare", {"av": 60, "dv": 45}),
             ("POST /v1/war-and-combat/to-hit", "service.wsgi:app", "/v1/war-and-combat/to-hit", TO_HIT),
             ("POST /v1/war-and-combat/damage", "service.wsgi:app", "/v1/war-and-combat/damage", DAMAGE),
             ("yardstick: POST /v1/tactical/to-hit", "service.wsgi:app", "/v1/tactical/to-hit", {"av": 60, "dv": 45}),
             ("bare Flask JSON endpoint, 5,000 different bodies", "tests.perf.bare_app:app", "/bare", VARIED_TO_HIT),
             ("POST /v1/war-and-combat/to-hit, 5,000 different bodies", "service.wsgi:app", "/v1/war-and-combat/to-hit",
              varied(TO_HIT, {"attacker.skill": list(range(-5, 21)), "attacker.attribute_mod": list(range(-3, 4)),
                              "defender.fighter_rank": list(range(11)), "defender.agl_mod": list(range(-3, 4))})),
             ("POST /v1/war-and-combat/damage, 5,000 different bodies", "service.wsgi:app", "/v1/war-and-combat/damage",
              varied(DAMAGE, {"impact_cap": list(range(40)), "margin": list(range(1, 11)),
                              "location": ["left_leg", "right_leg", "chest", "head"],
                              "target.size": list(range(5, 20))}))]
DUEL = {"sides": [{"name": "north", "combatants": [{"id": "sigrid", "fighter_rank": 5, "strength": 10, "size": 9,
                                                    "weapons": [{"name": "sword", "skill": 5}]}]},
                  {"name": "south", "combatants": [{"id": "ulf", "fighter_rank": 3, "strength": 12, "size": 10,
                                                    "weapons": [{"name": "axe", "skill": 4}]}]}]}


def twenty() -> dict:
    """Ten against ten in two facing lines, everyone engaging the foe opposite."""
    people = []
    for i in range(10):
        people.append({"id": f"n{i}", "side": "north", "fighter_rank": 4 + i % 3, "strength": 11, "size": 10,
                       "weapons": [{"name": "sword", "skill": 5}], "position": {"q": 0, "r": i}, "facing": 0})
        people.append({"id": f"s{i}", "side": "south", "fighter_rank": 3 + i % 4, "strength": 12, "size": 10,
                       "weapons": [{"name": "axe", "skill": 4}], "position": {"q": 1, "r": i}, "facing": 3})
    declarations = [{"combatant": p["id"], "action": "engage", "target": ("s" if p["side"] == "north" else "n")
                     + p["id"][1:]} for p in people]
    return {"state": {"combatants": people}, "declarations": declarations}


def round_ms(repeats: int = 200) -> float:
    """Median milliseconds of one round of 20 combatants through `resolve_once` (read, check, resolve, write)."""
    from service.sessions.encounters import resolve_once
    case = twenty()
    times = []
    for seed in range(repeats):
        start = time.perf_counter()
        resolve_once("war-and-combat", case["state"], case["declarations"], seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def duels_per_second() -> tuple[float, float]:
    """Duels a second on this core: the array engine (100,000 fights) and the resolver loop (500)."""
    from service.rules import registry
    from service.sim.engines.war_and_combat import simulate
    from service.sim.rounds import play
    ruleset = registry.get("war-and-combat")
    state = ruleset.duel.read_matchup(DUEL)
    simulate(state, 2000, np.random.default_rng(0))
    start = time.perf_counter()
    simulate(state, 100_000, np.random.default_rng(1))
    vector = 100_000 / (time.perf_counter() - start)
    start = time.perf_counter()
    play(ruleset, state, 500, random.Random(1))
    loop = 500 / (time.perf_counter() - start)
    return vector, loop


def report() -> str:
    """The markdown section `make bench` appends."""
    rows = interleaved_rows(SCENARIOS, seconds=2, rounds=3)
    lines = ["### war-and-combat", "", http_table(rows)]
    vector, loop = duels_per_second()
    from tests.perf.segment_bench import resolve_times
    tactical = resolve_times((20,), 2.0)[0]["ms_per_segment"]
    lines += ["", "| in process (one core) | result |", "|---|---:|",
              f"| one round, 20 combatants (`resolve_once`: read, check, resolve, write), median | {round_ms():.2f} ms |",
              f"| yardstick in the same run: one tactical Combat Segment, 20 combatants | {tactical:.2f} ms |",
              f"| simulated duels/s, numpy array engine (melee fights of any size) | {vector:,.0f} |",
              f"| simulated duels/s, round resolver loop (missiles, other intentions, moving tactics) | {loop:,.0f} |"]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
