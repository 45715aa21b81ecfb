"""`make bench` for runequest-house: to-hit and damage against the bare Flask endpoint on the same gunicorn
setup, rounds/resolve for 20 combatants in process, and simulated duels per second per core."""
from __future__ import annotations

import time

from tests.perf.http_bench import VARIED_TO_HIT, interleaved_rows, varied, with_bare

BARE = {"av": 60}
TO_HIT = {"attack": 70, "defence": {"type": "parry", "skill": 55, "item": "medium_shield"}}
DAMAGE = {"weapon": "broadsword", "damage_bonus": "+1d4", "degree": "special", "location": "chest",
          "target": {"siz": 13, "dex": 14, "armor": ["ringmail", "soft_leather"], "location_hp": 6, "hp": 13}}
SCENARIOS = [("bare Flask JSON endpoint", "bare", "/bare", BARE),
             ("POST /v1/runequest-house/to-hit", "referee", "/v1/runequest-house/to-hit", TO_HIT),
             ("POST /v1/runequest-house/damage", "referee", "/v1/runequest-house/damage", DAMAGE),
             ("bare Flask JSON endpoint, 5,000 different bodies", "bare", "/bare", VARIED_TO_HIT),
             ("POST /v1/runequest-house/to-hit, 5,000 different bodies", "referee", "/v1/runequest-house/to-hit",
              varied(TO_HIT, {"attack": list(range(201)), "defence.skill": list(range(201)),
                              "defence.type": ["parry", "dodge"]})),
             ("POST /v1/runequest-house/damage, 5,000 different bodies", "referee", "/v1/runequest-house/damage",
              varied(DAMAGE, {"weapon": ["broadsword", "dagger", "mace", "flail", "long_spear"],
                              "degree": ["success", "special", "critical"],
                              "location": ["right_leg", "left_leg", "abdomen", "chest", "right_arm", "left_arm", "head"],
                              "target.siz": list(range(5, 26)), "target.location_hp": list(range(1, 11)),
                              "target.armor": [[], ["soft_leather"], ["ringmail", "soft_leather"], ["chainmail"]]}))]


def fighter(ident: str, side: str, dex: int) -> dict:
    return {"id": ident, "side": side, "characteristics": {"str": 13, "con": 13, "siz": 13, "int": 10 + dex % 7,
                                                           "dex": dex},
            "weapons": [{"name": "broadsword", "attack": 65, "parry": 50}],
            "shield": {"size": "medium", "ap": 12, "parry": 55}, "armor": {"chest": ["ringmail"], "head": [5]}}


def twenty() -> tuple[dict, list[dict]]:
    """A 10 against 10 melee: each figure attacks its opposite number and parries."""
    people = [fighter(f"red-{i}", "red", 8 + i) for i in range(10)] + \
        [fighter(f"blue-{i}", "blue", 9 + i) for i in range(10)]
    declarations = [{"combatant": f"{side}-{i}", "actions": [
        {"type": "attack", "target": f"{other}-{i}", "weapon": 0}, {"type": "parry"}]}
        for side, other in (("red", "blue"), ("blue", "red")) for i in range(10)]
    return {"ruleset": "runequest-house", "round": 0, "options": {}, "combatants": people}, declarations


def resolve_ms(repeats: int = 200, whole: bool = True) -> float:
    """Median ms of one 20-combatant round: through the same call the HTTP resolver makes (reading and
    writing the JSON state), or (`whole` false) the engine's resolution of an already read state, as the
    tactical segment bench measures."""
    from service.rules.dice import DiceSource
    from service.rules.runequest_house import RULESET
    from service.sessions.encounters import resolve_once

    state, declarations = twenty()
    parsed = RULESET.engine.read_state(state)
    checked = RULESET.engine.check_declarations(parsed, declarations)
    times = []
    for seed in range(repeats):
        start = time.perf_counter()
        if whole:
            resolve_once("runequest-house", state, declarations, seed, ("state",), [])
        else:
            RULESET.engine.resolve(parsed, checked, DiceSource(seed))
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1000


MATCHUP = {"sides": [{"name": "red", "combatants": [fighter("ann", "red", 15)]},
                     {"name": "blue", "combatants": [{**fighter("bob", "blue", 10),
                                                      "weapons": [{"name": "mace", "attack": 60, "parry": 45}],
                                                      "shield": None}]}]}


def duels_per_second(trials: int = 20000) -> tuple[float, str]:
    """Duels per second on one core through the simulator the jobs use, and which path made them."""
    from service.sim.simulator import simulator_for

    simulator = simulator_for("runequest-house")
    start = time.perf_counter()
    simulator.run_chunk(MATCHUP, 0, trials, 1)
    path = "vectorised engine" if getattr(simulator, "vector", None) else "round resolver loop"
    return trials / (time.perf_counter() - start), path


def report() -> str:
    """The markdown table `make bench` prints."""
    rows = interleaved_rows(SCENARIOS, seconds=2, rounds=3)
    lines = ["runequest-house (seed 004):", "", "| measurement | value | vs bare / target |", "|---|---|---|"]
    for row, bare in with_bare(rows):
        target = "80%" if "different" in row["scenario"] else "85%"
        lines.append(f"| {row['scenario']} | {row['rps']:.0f} req/s (p50 {row['p50_ms']:.2f} ms, p99 "
                     f"{row['p99_ms']:.2f} ms) | {row['rps'] / bare:.0%} of bare (target >= {target}) |")
    lines.append(f"| rounds/resolve, 20 combatants, in process: resolution of a read state | "
                 f"{resolve_ms(whole=False):.2f} ms (median) | target < 5 ms |")
    lines.append(f"| the same with reading, checking and writing the JSON state | {resolve_ms():.2f} ms (median) | |")
    rate, path = duels_per_second()
    lines.append(f"| simulation, one core | {rate:,.0f} duels/s ({path}) | target >= 20,000 |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
