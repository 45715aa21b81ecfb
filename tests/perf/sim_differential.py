"""`make bench-differential`: every vectorised engine against the resolver it stands in for, on the matchups
of its differential test but larger: tactical at 5,000 resolver fights against 200,000 engine fights per
matchup (tests/unit/sim/test_differential.py), each round-based ruleset at `RESOLVER_FIGHTS` against
200,000 (its test module's `compare`, duels and group fights alike). Several minutes.

Prints every matchup's worst statistic and its z; exits 1 when any |z| exceeds 4.
`python -m tests.perf.sim_differential [ruleset ...]` runs only those.
"""
from __future__ import annotations

import importlib
import sys
import time

from tests.unit.sim import differential

RESOLVER_FIGHTS = 5_000
ENGINE_FIGHTS = 200_000
LIMIT = 4.0
# ruleset -> the differential test module with MATCHUPS and compare(name, resolver, engine, seed) -> {stat: z}
ROUND_BASED = {"ars-magica": "tests.unit.ars_magica.test_sim_engine",
               "war-and-combat": "tests.unit.war_and_combat.test_engine_differential",
               "smoting": "tests.unit.sim.test_smoting_engine",
               "runequest-house": "tests.unit.sim.test_runequest_house_engine"}


def tactical(resolver_fights: int, engine_fights: int) -> list[tuple[str, float, str, float]]:
    """(matchup, seconds, worst statistic, z) for each tactical matchup."""
    rows = []
    for name in differential.MATCHUPS:
        start = time.perf_counter()
        stats = differential.run(name, resolver_fights, engine_fights, seed=9)
        worst, (z, _, _) = max(stats.items(), key=lambda item: abs(item[1][0]))
        rows.append((name, time.perf_counter() - start, worst, z))
    return rows


def round_based(ruleset: str, resolver_fights: int, engine_fights: int) -> list[tuple[str, float, str, float]]:
    """The same for a round-based ruleset's matchups."""
    module = importlib.import_module(ROUND_BASED[ruleset])
    rows = []
    for name in module.MATCHUPS:
        start = time.perf_counter()
        zs = module.compare(name, resolver_fights, engine_fights, 9)
        worst, z = max(zs.items(), key=lambda item: abs(item[1]))
        rows.append((name, time.perf_counter() - start, worst, z))
    return rows


def report(rulesets: list[str] | None = None, resolver_fights: int = RESOLVER_FIGHTS,
           engine_fights: int = ENGINE_FIGHTS) -> tuple[str, bool]:
    """A markdown table (ruleset, matchup, seconds, worst statistic and its z) and whether every |z| <= 4."""
    lines = [f"| ruleset | matchup ({resolver_fights:,} resolver vs {engine_fights:,} engine fights) | seconds | "
             "worst statistic | z |", "|---|---|---:|---|---:|"]
    ok = True
    for ruleset in rulesets or ["tactical", *ROUND_BASED]:
        rows = (tactical(resolver_fights, engine_fights) if ruleset == "tactical"
                else round_based(ruleset, resolver_fights, engine_fights))
        for name, seconds, worst, z in rows:
            ok &= abs(z) <= LIMIT
            lines.append(f"| {ruleset} | {name} | {seconds:.1f} | {worst} | {z:+.2f} |")
            print(lines[-1], flush=True)
    return "\n".join(lines), ok


def main() -> None:
    """Run the comparison and print it; exit status 1 on any disagreement."""
    table, ok = report(sys.argv[1:] or None)
    print()
    print(table)
    print("all statistics within |z| <= 4" if ok else "DISAGREEMENT: see the table")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
