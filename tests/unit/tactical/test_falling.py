"""Falling objects: pulses to reach the impact point (F33, A38), impact POT / catch DV (F34), absorption (F35)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from service.rules.errors import OutOfRange
from service.rules.tactical import falling


@pytest.mark.parametrize("feet, pulses", [
    (0, 0), (15, 0), (F(159, 10), 0), (16, 1), (63, 1), (64, 2), (143, 2), (144, 3), (256, 4), (399, 4),
    (400, 5), (579, 5), (580, 6), (760, 7), (940, 8), (1119, 8), (1120, 9), (1299, 9), (1300, 10), (5000, 10),
])
def test_pulses_to_impact(feet, pulses):
    assert falling.pulses_to_impact(F(feet)) == pulses


@pytest.mark.parametrize("feet, pounds, pot", [(30, 10, 21), (64, 150, 58), (10, 5, 7), (1, 0, 1), (0, 0, 0),
                                               (F(3, 4), 0, 1), (F(3, 5), 1, 1), (4, 0, 3)])
def test_impact_pot_is_two_thirds_of_feet_plus_a_tenth_of_weight(feet, pounds, pot):
    assert falling.impact_pot(F(feet), F(pounds)) == pot


def test_fall_with_catcher_reports_excess_pot():
    found = falling.fall(F(64), F(150), falling.Catcher(modified_sta=18, str_mod=2, crd_mod=1, armor_dr=5))
    assert (found.pulses, found.adjacent_only, found.impact_pot, found.catch_dv) == (2, False, 58, 58)
    assert found.absorb == falling.Absorb(capacity=26, excess_pot=32)


def test_fall_fully_absorbed():
    found = falling.fall(F(16), F(20), falling.Catcher(20, 1, 1, 0))
    assert found.absorb == falling.Absorb(22, 0) and found.impact_pot == 13


def test_capacity_never_negative():
    assert falling.absorb(5, falling.Catcher(1, -3, -3, 0)) == falling.Absorb(0, 5)


def test_short_fall_is_adjacent_only_and_says_which_dv_it_used():
    found = falling.fall(F(10), F(5))
    assert found.adjacent_only and found.pulses == 0 and found.absorb is None and found.catch_dv == 7
    assert any(step.rule.startswith("Movement: Some Special") and "A39" in step.detail for step in found.trace)


@pytest.mark.parametrize("feet, pounds, field", [(F(-1), F(1), "distance_feet"), (F(1), F(-1), "weight_pounds"),
                                                 (F(10**6), F(1), "distance_feet")])
def test_bad_inputs(feet, pounds, field):
    with pytest.raises(OutOfRange) as caught:
        falling.fall(feet, pounds)
    assert caught.value.field == (field,)
