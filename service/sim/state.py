"""The changing part of many fights at once: one row per trial, one column per combatant.

Rows of finished fights are dropped after every segment (`keep`), so the work of a segment is
proportional to the fights still going.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.sim.matchup import Matchup
from service.sim.vrules import halve_times

STANDING, UNCONSCIOUS, COLLAPSED, DEAD = 0, 1, 2, 3
STATUSES = ("standing", "unconscious", "collapsed", "dead")


@dataclass
class State:
    """Arrays shaped (trials, combatants[, weapons | layers])."""

    wounds: np.ndarray
    status: np.ndarray
    pain0: np.ndarray  # stun-by-pain penalty as first taken (RULINGS 14)
    pain_age: np.ndarray  # segments ended since it was taken
    durability: np.ndarray  # armor wear number per layer (RULINGS 12)
    uses: np.ndarray  # uses of each weapon this segment
    dodges: np.ndarray  # Dodges used this segment
    parried: np.ndarray  # (trials, N) bool: weapon 0 has defended this segment
    recovered: np.ndarray  # (trials, N) bool: weapon 0 defended a Reprisal first, next defence at full DV
    first_side: np.ndarray  # (trials,) side of the first actor of segment 1, -1 before it

    @classmethod
    def start(cls, m: Matchup, trials: int) -> "State":
        """Every trial begins from the matchup as given (wounds and pain carried in)."""
        a = m.arrays
        n, w = a["w_av"].shape
        tile = lambda row: np.tile(row, (trials,) + (1,) * row.ndim)  # noqa: E731
        status = np.where(a["wounds"] >= 11, DEAD, a["status"])
        return cls(wounds=tile(a["wounds"]), status=tile(status).astype(np.int8), pain0=tile(a["pain"]),
                   pain_age=tile(a["pain_age"]), durability=tile(a["a_dur"]),
                   uses=np.zeros((trials, n, w), np.int64), dodges=np.zeros((trials, n), np.int64),
                   parried=np.zeros((trials, n), bool), recovered=np.zeros((trials, n), bool),
                   first_side=np.full(trials, -1, np.int64))

    @property
    def size(self) -> int:
        return len(self.wounds)

    def standing(self) -> np.ndarray:
        return self.status == STANDING

    def pain(self) -> np.ndarray:
        """Current stun-by-pain penalty: round_half_up(P0 / 2^k) after k segments (RULINGS 14)."""
        return halve_times(self.pain0, self.pain_age)

    def end_segment(self) -> None:
        """End of a CS: penalties wane, per-segment use counters reset (digest section 17 step 4)."""
        self.pain_age += 1
        self.pain0[self.pain() == 0] = 0
        self.uses[:] = 0
        self.dodges[:] = 0
        self.parried[:] = False
        self.recovered[:] = False

    def keep(self, rows: np.ndarray) -> "State":
        """The same fights restricted to `rows` (a boolean mask or indices)."""
        return State(**{name: value[rows] for name, value in vars(self).items()})
