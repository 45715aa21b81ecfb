"""The vectorised formulas agree value by value with the exact rules functions."""
from __future__ import annotations

import importlib.util
from fractions import Fraction

import numpy as np
import pytest

from service.rules.rounding import halve_times, progressive, round_half_up
from service.sim import vrules

GRID = np.arange(-5, 160)


def test_div_half_up_matches_round_half_up():
    num, den = np.meshgrid(np.arange(0, 300), np.arange(1, 40))
    expected = np.vectorize(lambda a, b: round_half_up(Fraction(int(a), int(b))))(num, den)
    assert (vrules.div_half_up(num, den) == expected).all()


def test_halve_times_matches_rules():
    value, times = np.meshgrid(np.arange(0, 120), np.arange(0, 9))
    expected = np.vectorize(lambda v, t: halve_times(int(v), int(t)))(value, times)
    assert (vrules.halve_times(value, times) == expected).all()


@pytest.mark.parametrize("scheme", ["triangular", "linear"])
def test_progressive_matches_rules(scheme):
    n = np.arange(-3, 60)
    assert vrules.progressive(n, scheme).tolist() == [progressive(int(k), scheme) for k in n]


def test_ratio_chance_examples():
    # RULINGS 4: round_half_up(100*AV/(AV+DV)) clamped 1..99; AV<=0 -> 1; DV<=0 -> 99.
    av = np.array([50, 60, 1, 0, 30, 100, 3])
    dv = np.array([50, 40, 200, 10, 0, 1, 1])
    assert vrules.chance(av, dv).tolist() == [50, 60, 1, 1, 99, 99, 75]
    assert vrules.chance(np.array([55]), np.array([45]), "linear").tolist() == [60]


def test_heroic_and_bumble_thresholds_from_the_seed_examples():
    # chance 32 -> Heroic 1..3, Bumble 93+; chance 55 -> Heroic 1..6, Bumble 95+ (digest section 3).
    assert vrules.heroic_limit(np.array([32, 55])).tolist() == [3, 6]
    assert vrules.bumble_floor(np.array([32, 55])).tolist() == [93, 95]


def test_wounds_use_the_exact_threshold():
    # WT = 33/8 (mSTA + CND = 33): POT 33 gives 7 wounds, not the 8 a rounded WT of 4 would (A20).
    assert vrules.wounds_from(np.array([33, 4, 5, 0]), np.array([33, 33, 33, 33])).tolist() == [7, 0, 1, 0]


@pytest.mark.skipif(importlib.util.find_spec("service.rules.tactical.task_resolution") is None,
                    reason="service.rules.tactical.task_resolution missing")
@pytest.mark.parametrize("method", ["ratio", "linear"])
def test_chance_matches_the_resolution_module(method):
    from service.rules.tactical import task_resolution as resolution

    av, dv = np.meshgrid(GRID, GRID)
    got = vrules.chance(av, dv, method)
    expected = np.vectorize(lambda a, d: _chance(resolution, int(a), int(d), method))(av, dv)
    assert (got == expected).all()


def _chance(resolution, av: int, dv: int, method: str) -> int:
    result = resolution.chance(av, dv, method)
    return int(getattr(result, "percent", getattr(result, "chance", result)))
