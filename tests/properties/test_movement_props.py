"""Properties of the table 7-2 rule, the pulse ramp, charge and falling objects."""
from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, strategies as st

from service.rules.rounding import round_half_up
from service.rules.tactical import falling, movement, pulse

mphs = st.fractions(min_value=0, max_value=1000, max_denominator=100)
scales = st.sampled_from(sorted(pulse.SCALES))
shares = st.sampled_from([F(0), F(1, 4), F(1, 2), F(3, 4), F(1)])
plans = st.lists(shares, min_size=10, max_size=10)


@given(mphs, scales)
def test_rule_is_close_to_exact_and_text_matches_mm(mph, scale):
    found = pulse.by_rule(mph, scale)
    assert abs(found.feet - found.feet_exact) <= F(11, 20)
    assert abs(found.scale_mm - pulse.scale_exact(found.feet_exact, found.feet, scale)) <= F(1, 2)
    assert pulse.parse_cell(found.scale_text) == (found.scale_mm, found.scale_text)


@given(mphs, mphs, scales)
def test_faster_never_shorter(a, b, scale):
    slow, fast = sorted((a, b))
    assert pulse.by_rule(slow, scale).scale_mm <= pulse.by_rule(fast, scale).scale_mm
    assert pulse.by_rule(slow, scale).feet <= pulse.by_rule(fast, scale).feet


@given(plans)
def test_ramp_caps_only_first_moving_pulses_and_is_idempotent(plan):
    allowed = movement.ramp_rates(plan)
    assert movement.ramp_rates(allowed) == allowed
    for n, (want, got) in enumerate(zip(plan, allowed)):
        starts = want > 0 and (n == 0 or plan[n - 1] == 0)
        assert got == (min(want, F(1, 2)) if starts else want)


@given(mphs, plans)
def test_ramp_never_beats_the_full_cs_from_standstill(mph, plan):
    found = movement.ramp(mph, plan)
    assert found.total_feet_exact <= F(19, 2) * pulse.feet_exact(mph)
    assert found.total_feet == round_half_up(found.total_feet_exact)


@given(plans, st.integers(1, 10))
def test_charge_needs_five_full_pulses(plan, attack_pulse):
    eligible = movement.charge_eligible(plan, attack_pulse)
    allowed = movement.ramp_rates(plan)[:attack_pulse]
    assert eligible == (attack_pulse >= 5 and all(s == 1 for s in allowed[-5:]))
    if eligible:
        assert attack_pulse >= 6


@given(st.fractions(0, 100_000, max_denominator=10), st.fractions(0, 10_000, max_denominator=10))
def test_falling_pulses_grow_with_height_and_dv_equals_pot(feet, pounds):
    found = falling.fall(feet, pounds)
    assert found.catch_dv == found.impact_pot >= 0
    assert 0 <= found.pulses <= 10 and found.adjacent_only == (feet < 16) == (found.pulses == 0)
    assert falling.pulses_to_impact(feet + 1) >= found.pulses


@given(st.integers(0, 200), st.integers(-20, 20), st.integers(-20, 20), st.integers(0, 100), st.integers(0, 500))
def test_absorbed_plus_excess_covers_the_impact(sta, str_mod, crd_mod, dr, pot):
    got = falling.absorb(pot, falling.Catcher(sta, str_mod, crd_mod, dr))
    assert got.excess_pot == max(0, pot - got.capacity) and got.capacity >= 0
