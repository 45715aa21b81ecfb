"""A hand of action dice as one number: every multiset of at most 8 d6 faces is enumerated once (3003 of
them), so the countdown's questions about a hand (highest die, dice held, a 1 at hand, the lowest die of 2+)
and its changes (a die spent, a die burned to a 1) are table look-ups over all fights at once."""
from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from service.rules.smoting.combatant import MAX_ACTION_DICE

STATES = [counts for size in range(MAX_ACTION_DICE + 1)
          for counts in sorted({tuple(faces.count(f) for f in range(1, 7))
                                for faces in combinations_with_replacement(range(1, 7), size)})]
INDEX = {counts: i for i, counts in enumerate(STATES)}
EMPTY = INDEX[(0,) * 6]
_C = np.array(STATES, dtype=np.int64)  # (states, 6): count of faces 1..6

SIZE = _C.sum(1)
ONES = _C[:, 0]
SPARE = _C[:, 1:].sum(1)                     # dice of 2 or more
TOP = np.array([max((f for f in range(1, 7) if c[f - 1]), default=0) for c in STATES])
TOP_USABLE = np.where(SPARE > 0, TOP, 0)
RANK = TOP_USABLE * 16 + SIZE                # the countdown's order: highest die of 2+, then most dice
LOWEST_USABLE = np.array([min((f for f in range(2, 7) if c[f - 1]), default=0) for c in STATES])


def _minus(counts: tuple[int, ...], face: int) -> int:
    if not face or not counts[face - 1]:
        return -1
    out = list(counts)
    out[face - 1] -= 1
    return INDEX[tuple(out)]


REMOVE = np.array([[_minus(c, f) for f in range(7)] for c in STATES])  # [state, face] -> state (-1: no such die)
_REMOVE = REMOVE.ravel()
REMOVE_ONE = REMOVE[:, 1].copy()


def minus(states: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Each hand with one die of the given face spent (`REMOVE` as one flat look-up)."""
    return _REMOVE[states * 7 + faces]


def _burned(counts: tuple[int, ...], face: int) -> int:
    if face:
        out = list(counts)
        out[face - 1] -= 1
        out[0] += 1
        return INDEX[tuple(out)]
    return _minus(counts, 1) if counts[0] else INDEX[counts]


BURN = {"lowest": np.array([_burned(c, LOWEST_USABLE[i]) for i, c in enumerate(STATES)]),
        "highest": np.array([_burned(c, TOP_USABLE[i]) for i, c in enumerate(STATES)])}
"""One die burned (seed *Burn 1 Action Dice*): the lowest (or highest) die of 2+ becomes a 1, else a 1 goes."""


@cache
def rolled(count: int, reroll_ones: bool) -> tuple[np.ndarray, np.ndarray]:
    """(states, probabilities) of a fresh roll of `count` action dice, the best 8 kept, or one die re-rolled
    until it is not a 1 (seed *Initiative & Actions*)."""
    if reroll_ones:
        states = np.array([INDEX[tuple(int(f == face) for f in range(1, 7))] for face in range(2, 7)])
        return states, np.full(5, 0.2)
    odds: dict[int, float] = {}
    for faces in combinations_with_replacement(range(6, 0, -1), count):
        ways = factorial(count) / prod(factorial(faces.count(f)) for f in set(faces))
        kept = faces[:MAX_ACTION_DICE]
        state = INDEX[tuple(kept.count(f) for f in range(1, 7))]
        odds[state] = odds.get(state, 0.0) + ways / 6**count
    states = np.array(sorted(odds))
    return states, np.array([odds[s] for s in states])
