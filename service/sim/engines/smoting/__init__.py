"""The vectorised `smoting` duel (`service.sim.rounds.RoundSimulator`'s `vector` engine): one-on-one fights
played with numpy arrays over every fight of a chunk, the same rules as the round resolver
(`service.rules.smoting.engine`) under the duel policy (`Duel.declare`). `accepts` says which matchups it
covers (`cover.py`); the rest go to the resolver loop. `tests/unit/sim/test_smoting_engine.py` holds the two
to the same distributions."""
from __future__ import annotations

import random
from typing import Any

import numpy as np

from service.sim.cost import LOOP_CHUNK, Rates
from service.sim.engines.smoting.cover import accepts, figures
from service.sim.engines.smoting.duel import Duels
from service.sim.stopping import checkpoint

__all__ = ["LOOP_RATES", "RATES", "accepts", "simulate"]

# CPU microseconds of a chunk (service.sim.cost): this vectorised duel, and the ruleset's resolver loop
# (every combatant declares and acts each round; targets are looked up among all the others).
RATES = Rates((2000.0, 0.0), (1000.0, 0.0), (3.0, 0.0, 0.0))
LOOP_RATES = Rates(LOOP_CHUNK, (0.0, 0.0), (100.0, 60.0, 0.8))


def simulate(matchup: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` duels of a parsed matchup as a `service.sim.rounds` tally (the resolver loop when the
    engine does not cover the matchup)."""
    if not accepts(matchup):
        from service.rules.smoting import RULESET
        from service.sim.rounds import play

        return play(RULESET, matchup, trials, random.Random(int(rng.integers(2**63))))
    f = figures(matchup)
    duels = Duels(trials, f, matchup.options, rng)
    rounds = np.zeros(trials, dtype=np.int64)
    over = np.zeros(trials, dtype=bool)
    for _ in range(matchup.options["max_rounds"]):
        checkpoint()
        live = np.nonzero(~over)[0]
        if not len(live):
            break
        duels.round(live)
        rounds[live] += 1
        over[live] = ~duels.standing()[live].all(axis=1)
    return _tally(f, duels, rounds, over)


def _tally(f: Any, duels: Duels, rounds: np.ndarray, over: np.ndarray) -> dict[str, Any]:
    n = len(rounds)
    up = duels.standing()
    wins = {}
    for i in (0, 1):
        won = int((over & up[:, i] & ~up[:, 1 - i]).sum())
        if won:
            wins[f.sides[i]] = won
    status = {}
    for i in (0, 1):
        names = np.where(duels.kia[i::2], "killed", np.where(duels.ooa[i::2], "out_of_action", "standing"))
        status[f.ids[i]] = {str(k): int(v) for k, v in zip(*np.unique(names, return_counts=True))}
    lengths, counts = np.unique(rounds, return_counts=True)
    details: dict[str, float] = {**duels.counts, "rounds": int(rounds.sum())}
    for name, per in duels.per_fighter.items():
        for i in (0, 1):
            if per[i]:
                details[f"{name}:{f.sides[i]}"] = int(per[i])
    return {"trials": n, "wins": wins, "draws": n - sum(wins.values()), "capped": int((~over).sum()),
            "rounds": {str(int(k)): int(v) for k, v in zip(lengths, counts)}, "status": status,
            "details": details}
