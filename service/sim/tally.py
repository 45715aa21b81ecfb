"""Counts from a block of simulated fights: sums and histograms only, so merging is plain addition.

A `Tally` depends on nothing but the fights it counted; `merge` is associative and commutative,
and `to_dict`/`from_dict` carry it through JSON (Celery, Redis) without loss.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

import numpy as np

from service.sim.matchup import Matchup
from service.sim.state import State

MAX_WOUNDS = 11
EVENTS = ("attacks", "hits", "heroics", "bumbles", "reprisals", "reprisal_hits")


@dataclass
class Tally:
    """Everything the summary needs, as integer arrays (sizes fixed by the matchup)."""

    trials: np.ndarray  # () fights counted
    wins: np.ndarray  # (S,) fights each side won
    draws: np.ndarray  # () no side left standing, or the segment cap reached
    capped: np.ndarray  # () of the draws, those stopped by the segment cap
    segments: np.ndarray  # (cap + 1,) fights ending after k segments
    first: np.ndarray  # (S,) fights in which side s acted first in segment 1
    first_wins: np.ndarray  # (S,) of those, fights side s won
    wounds: np.ndarray  # (N, 12) wound counts at the end, per combatant
    status: np.ndarray  # (N, 4) standing / unconscious / collapsed / dead at the end
    armor_dr: np.ndarray  # (N, L) sum of each layer's DR left (min of DR and durability)
    armor_durability: np.ndarray  # (N, L) sum of each layer's durability left
    events: np.ndarray  # (6,) attacks, hits, heroics, bumbles, reprisals, reprisal hits

    @classmethod
    def empty(cls, m: Matchup) -> "Tally":
        """All zeros, shaped for matchup `m`."""
        s, n, layers = len(m.sides), m.size, m.arrays["a_dr"].shape[1]
        z = lambda *shape: np.zeros(shape, np.int64)  # noqa: E731
        return cls(z(), z(s), z(), z(), z(m.options.max_segments + 1), z(s), z(s), z(n, MAX_WOUNDS + 1),
                   z(n, 4), z(n, layers), z(n, layers), z(len(EVENTS)))

    def record(self, m: Matchup, st: State, segments: int, capped: bool) -> None:
        """Count the fights of `st` (all finished) as ending after `segments` segments."""
        side_up = _sides_standing(m, st)
        alone = side_up.sum(axis=1) == 1
        winner = np.where(alone, side_up.argmax(axis=1), -1)
        if capped:
            winner[:] = -1
            self.capped += st.size
        self.trials += st.size
        self.wins += np.bincount(winner[winner >= 0], minlength=len(m.sides))
        self.draws += int((winner < 0).sum())
        self.segments[segments] += st.size
        acted = st.first_side >= 0
        self.first += np.bincount(st.first_side[acted], minlength=len(m.sides))
        self.first_wins += np.bincount(winner[acted & (winner == st.first_side)], minlength=len(m.sides))
        self._record_people(m, st)

    def _record_people(self, m: Matchup, st: State) -> None:
        for n in range(m.size):
            self.wounds[n] += np.bincount(np.minimum(st.wounds[:, n], MAX_WOUNDS), minlength=MAX_WOUNDS + 1)
            self.status[n] += np.bincount(st.status[:, n], minlength=4)
        met = np.maximum(np.minimum(m.arrays["a_dr"][None], st.durability), 0)
        self.armor_dr += met.sum(axis=0)
        self.armor_durability += st.durability.sum(axis=0)

    def count(self, counts: Mapping[str, int]) -> None:
        """Add the attack events a block of segments produced."""
        self.events += np.array([counts.get(name, 0) for name in EVENTS], np.int64)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: every field as (nested) lists of ints."""
        return {f.name: getattr(self, f.name).tolist() for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Tally":
        """The inverse of `to_dict`."""
        return cls(**{f.name: np.array(data[f.name], dtype=np.int64) for f in fields(cls)})


def merge(*tallies: Tally) -> Tally:
    """The tally of all the fights of `tallies` together (elementwise sums)."""
    first, *rest = tallies
    out = Tally(**{f.name: getattr(first, f.name).copy() for f in fields(Tally)})
    for other in rest:
        for f in fields(Tally):
            setattr(out, f.name, getattr(out, f.name) + getattr(other, f.name))
    return out


def _sides_standing(m: Matchup, st: State) -> np.ndarray:
    """(trials, S): does side s still have someone standing."""
    standing = st.standing()
    return np.column_stack([standing[:, m.side == s].any(axis=1) for s in range(len(m.sides))])


def finished(m: Matchup, st: State) -> np.ndarray:
    """Fights in which at most one side has anyone standing."""
    return _sides_standing(m, st).sum(axis=1) <= 1
