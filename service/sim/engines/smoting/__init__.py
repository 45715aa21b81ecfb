"""The vectorised `smoting` engine (`service.sim.rounds.RoundSimulator`'s `vector` engine): fights of any
size (any number of fighters on two or more sides) played with numpy arrays over every fight of a chunk, the same rules as the round resolver
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
RATES = Rates((2000.0, 50.0), (1000.0, 500.0), (1.5, 0.8, 0.02))
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
        over[live] = ~duels.going(live)
    return _tally(f, duels, rounds, over)


def _tally(f: Any, duels: Duels, rounds: np.ndarray, over: np.ndarray) -> dict[str, Any]:
    n, k = len(rounds), len(f.ids)
    up = duels.sides_up()
    names = list(dict.fromkeys(f.sides))
    alone = over & (up.sum(axis=1) == 1)
    won = np.bincount(up[alone].argmax(axis=1), minlength=len(names))
    wins = {side: int(w) for side, w in zip(names, won) if w}
    status = {}
    for i in range(k):
        fate = np.where(duels.kia[i::k], "killed", np.where(duels.ooa[i::k], "out_of_action", "standing"))
        status[f.ids[i]] = {str(s): int(v) for s, v in zip(*np.unique(fate, return_counts=True))}
    lengths, counts = np.unique(rounds, return_counts=True)
    details: dict[str, float] = {**duels.counts, "rounds": int(rounds.sum())}
    for name, per in duels.per_fighter.items():
        for side in names:
            total = int(per[[s == side for s in f.sides]].sum())
            if total:
                details[f"{name}:{side}"] = total
    return {"trials": n, "wins": wins, "draws": n - sum(wins.values()), "capped": int((~over).sum()),
            "rounds": {str(int(k)): int(v) for k, v in zip(lengths, counts)}, "status": status,
            "details": details}
