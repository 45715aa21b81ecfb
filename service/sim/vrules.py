"""The tactical formulas the simulator needs, as integer numpy operations over many trials at once.

Each mirrors a function of `service.rules.tactical` (same rounding, same clamps); the unit tests
compare them value by value. Everything is integer arithmetic: round-half-up of a/b is (2a + b) // 2b.
"""
from __future__ import annotations

import numpy as np

Int = np.ndarray


def div_half_up(num: Int, den: Int | int) -> Int:
    """round_half_up(num / den) for non-negative num and positive den (RULINGS 2)."""
    return (2 * num + den) // (2 * den)


def halve_times(value: Int, times: Int) -> Int:
    """round_half_up(value / 2**times) from the original value (RULINGS 7, 14); value, times >= 0.

    (2v + 2^t) // 2^(t+1) with shifts: integer division is the engine's most expensive operation."""
    times = np.minimum(times, 40)
    if not times.any():  # the common case: a first use, no pain yet
        return np.array(value, dtype=np.int64)
    return (np.left_shift(value, 1) + np.left_shift(np.int64(1), times)) >> (times + 1)


def chance(av: Int, dv: Int, method: str = "ratio") -> Int:
    """Task Resolution Table chance % (RULINGS 4): Referee's `ratio` default or `linear`."""
    av = np.asarray(av, dtype=np.int64)
    dv = np.asarray(dv, dtype=np.int64)
    if method == "linear":
        return np.clip(50 + av - dv, 1, 99)
    total = np.maximum(av + dv, 1)
    ratio = np.clip(div_half_up(100 * np.maximum(av, 0), total), 1, 99)
    return np.where(av <= 0, 1, np.where(dv <= 0, 99, ratio))


def heroic_limit(chance_pct: Int) -> Int:
    """Highest roll that is Heroic: round_half_up(chance/10) (F3, RULINGS 6)."""
    return div_half_up(chance_pct, 10)


def bumble_floor(chance_pct: Int) -> Int:
    """Lowest roll that is a Bumble: 100 - round_half_up((100 - chance)/10) (F4, RULINGS 6)."""
    return 100 - div_half_up(100 - chance_pct, 10)


def progressive(n: Int, scheme: str = "triangular") -> Int:
    """Progressive(n) (RULINGS 3): n(n+1)/2, or n for `linear`; 0 for n <= 0."""
    n = np.maximum(n, 0)
    return n if scheme == "linear" else n * (n + 1) // 2


def wounds_from(pot_left: Int, threshold_x8: Int) -> Int:
    """Wounds from the POT left after armor: k >= 1 with POT > k*WT, WT = (mSTA + CND)/8 exact (F24)."""
    return np.where(pot_left > 0, (8 * pot_left - 1) // threshold_x8, 0)
