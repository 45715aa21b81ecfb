"""The tally of `service.sim.rounds` (trials, wins, draws, capped, rounds, status, details) counted from
the engine's arrays as fights end (duel.Duel.verdict); details as duel.Duel.details names them."""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from service.sim.engines.ars_magica.figures import Roster

ALWAYS = ("stress_rolls", "botches", "attacks", "exceptional")


class Tally:
    """Counts of the fights recorded so far."""

    def __init__(self, roster: Roster, codes: dict[str, int]):
        self.roster, self.codes = roster, codes  # status codes: filled as ladders are read
        self.wins: Counter = Counter()
        self.draws = self.capped = self.played = 0
        self.rounds: Counter = Counter()
        self.status = [Counter() for _ in roster.people]
        self.details: Counter = Counter()

    def sides_up(self, fights: Any) -> np.ndarray:
        """(S, n): does side s still have a fighter who can act."""
        able = fights.acts
        return np.array([able[self.roster.side == s].any(axis=0) for s in range(len(self.roster.sides))])

    def going(self, fights: Any) -> np.ndarray:
        """duel.Duel.verdict: fights in which at least two sides can still act."""
        return self.sides_up(fights).sum(axis=0) >= 2

    def record(self, play: Any, rows: np.ndarray, rounds: int, capped: bool) -> None:
        """The fights `rows` (a mask) ended after `rounds` rounds (or reached the cap)."""
        f, n = play.fights, int(rows.sum())
        if not n:
            return
        self.rounds[str(rounds)] += n
        self.played += n if rounds else 0
        names = {code: name for name, code in self.codes.items()}
        for i in range(self.roster.count):
            codes, counts = np.unique(f.status(i)[rows], return_counts=True)
            self.status[i].update({names[c]: int(k) for c, k in zip(codes, counts)})
        if capped:
            self.draws += n
            self.capped += n
            return
        up = self.sides_up(f)[:, rows]
        alone = up.sum(axis=0) == 1
        self.draws += int((~alone).sum())
        side = up.argmax(axis=0)
        for s, name in enumerate(self.roster.sides):
            won = alone & (side == s)
            self.wins[name] += int(won.sum())
            if rounds and won.any():
                lost = f.body[self.roster.side != s][:, rows][:, won].ravel()
                self.details.update({f"levels_lost_{k}": int(c) for k, c in zip(*np.unique(lost, return_counts=True))})

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
                "status": {p.ident: dict(s) for p, s in zip(self.roster.people, self.status)},
                "details": dict(self.details)}
