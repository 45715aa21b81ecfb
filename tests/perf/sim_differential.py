"""`make bench-differential`: the engine-vs-resolver comparison of tests/unit/sim/test_differential.py at
the size of the issue that asked for it (5,000 resolver fights and 200,000 engine fights per matchup).

Prints every statistic's z per matchup and the worst one; exits 1 when any |z| exceeds 4.
"""
from __future__ import annotations

import sys
import time

from tests.unit.sim import differential

RESOLVER_FIGHTS = 5_000
ENGINE_FIGHTS = 200_000


def report(resolver_fights: int = RESOLVER_FIGHTS, engine_fights: int = ENGINE_FIGHTS) -> tuple[str, bool]:
    """A markdown table (matchup, seconds, worst statistic and its z) and whether every |z| <= 4."""
    lines = [f"| matchup ({resolver_fights:,} resolver vs {engine_fights:,} engine fights) | seconds | worst "
             "statistic | z |", "|---|---:|---|---:|"]
    ok = True
    for name in differential.MATCHUPS:
        start = time.perf_counter()
        stats = differential.run(name, resolver_fights, engine_fights, seed=9)
        worst, (z, _, _) = max(stats.items(), key=lambda item: abs(item[1][0]))
        ok &= not differential.failures(stats)
        lines.append(f"| {name} | {time.perf_counter() - start:.1f} | {worst} | {z:+.2f} |")
    return "\n".join(lines), ok


def main() -> None:
    """Run the comparison and print it; exit status 1 on any disagreement."""
    table, ok = report()
    print(table)
    print("all statistics within |z| <= 4" if ok else "DISAGREEMENT: see the table")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
