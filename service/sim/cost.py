"""What a simulation costs a worker: CPU seconds estimated from the engine that will play it.

A chunk of `t` fights of a matchup of `n` combatants capped at `S` steps costs at most
    chunk(n) + S x step(n) + t x S x fight_step(n)   microseconds
(reading the matchup and building its arrays; the engine's own work per step of the chunk, which a
vectorised engine pays once for all its fights; and each fight's step). Every fight is counted to its cap:
a matchup whose fighters cannot hurt each other does run that long. The rates are per ruleset and engine
(`vectorised`, or the round resolver `loop`), declared in the ruleset's engine module beside the engine,
measured on the development box (`python -m tests.perf.sim_costs` prints what chunks really cost beside their
estimates) and multiplied here by MARGIN, headroom for a slower or busier core;
`tests/unit/sim/test_cost_model.py` fails when a measured chunk costs more than its estimate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

MARGIN = 1.5
VECTORISED, LOOP = "vectorised", "loop"


@dataclass(frozen=True)
class Rates:
    """Microseconds, each a polynomial in the number of combatants n: (a, b) is a + b n, (a, b, c) adds c n^2."""

    chunk: tuple[float, float]
    step: tuple[float, float]
    fight_step: tuple[float, float, float]


LOOP_CHUNK = (1000.0, 500.0)  # reading the matchup: every ruleset's loop measured below this
UNMEASURED = Rates(LOOP_CHUNK, (2000.0, 0.0), (300.0, 150.0, 1.5))  # an engine not measured yet: the dearest


def _poly(coefficients: Sequence[float], n: int) -> float:
    return sum(c * n**power for power, c in enumerate(coefficients))


@dataclass(frozen=True)
class Cost:
    """The estimated CPU of a matchup's chunks on one engine: `rates` are that engine's, declared beside
    it (`RATES` of a vectorised engine, `LOOP_RATES` of a ruleset's resolver loop)."""

    engine: str
    combatants: int
    steps: int
    rates: Rates = UNMEASURED

    def chunk_seconds(self, trials: int) -> float:
        """At most what a chunk of `trials` fights costs, in CPU seconds."""
        r, n, s = self.rates, self.combatants, self.steps
        micro = _poly(r.chunk, n) + s * _poly(r.step, n) + trials * s * _poly(r.fight_step, n)
        return MARGIN * micro / 1e6

    def seconds(self, sizes: Sequence[int]) -> float:
        """At most what a job of chunks of these sizes costs, in CPU seconds."""
        return sum(self.chunk_seconds(size) for size in sizes)

    def fight_seconds(self) -> float:
        """What one more fight adds to a chunk, in CPU seconds."""
        return MARGIN * self.steps * _poly(self.rates.fight_step, self.combatants) / 1e6

    def largest_chunk(self, seconds: float) -> int:
        """The most fights one chunk may hold within `seconds` (0: not even one)."""
        room = seconds - self.chunk_seconds(0)
        if room <= 0:
            return 0
        return int(min(room / self.fight_seconds(), 2**62))
