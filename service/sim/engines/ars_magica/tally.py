"""The tally of `service.sim.rounds` (trials, wins, draws, capped, rounds, status, details) counted from
the engine's arrays as fights end; details as duel.Duel.details names them."""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from service.sim.engines.ars_magica.figures import Duellist

ALWAYS = ("stress_rolls", "botches", "attacks", "exceptional")


class Tally:
    """Counts of the fights recorded so far."""

    def __init__(self, people: list[Duellist], codes: dict[str, int]):
        self.people = people
        self.names = {code: name for name, code in codes.items()}
        self.wins: Counter = Counter()
        self.draws = self.capped = self.played = 0
        self.rounds: Counter = Counter()
        self.status = [Counter() for _ in people]
        self.details: Counter = Counter()

    def record(self, play: Any, rows: np.ndarray, rounds: int, capped: bool) -> None:
        """The fights `rows` (a mask) ended after `rounds` rounds (or reached the cap)."""
        f, n = play.fights, int(rows.sum())
        if not n:
            return
        up = [f.able(i)[rows] for i in range(2)]
        self.rounds[str(rounds)] += n
        self.played += n if rounds else 0
        for i in range(len(self.people)):
            codes, counts = np.unique(f.status(i)[rows], return_counts=True)
            self.status[i].update({self.names[c]: int(k) for c, k in zip(codes, counts)})
        if capped:
            self.draws += n
            self.capped += n
            return
        for i, p in enumerate(self.people):
            won = up[i] & ~up[1 - i]
            self.wins[p.side] += int(won.sum())
            if rounds and won.any():
                lost = f.body[1 - i][rows][won]
                self.details.update({f"levels_lost_{k}": int(c) for k, c in zip(*np.unique(lost, return_counts=True))})
        self.draws += int((~up[0] & ~up[1]).sum())

    def counts(self, counts: dict[str, int]) -> None:
        """duel.details' per-round counts (the always-present four, the decided-round pair when any)."""
        if self.played:
            self.details.update({name: counts.get(name, 0) for name in ALWAYS})
        if counts.get("decided_rounds"):
            self.details.update({k: counts.get(k, 0) for k in ("decided_rounds", "first_strike_rounds")})

    def as_dict(self, trials: int) -> dict[str, Any]:
        """JSON as `service.sim.rounds.empty` shapes it."""
        return {"trials": trials, "wins": {k: v for k, v in self.wins.items() if v}, "draws": self.draws,
                "capped": self.capped, "rounds": dict(self.rounds),
                "status": {p.ident: dict(s) for p, s in zip(self.people, self.status)},
                "details": dict(self.details)}
