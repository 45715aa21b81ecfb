"""Invariants of the to-hit chance, Heroic/Bumble partition, reuse and range DV."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from service.rules.tactical import to_hit
from service.rules.tactical.ranged import WEAPON_NAMES, range_of
from service.rules.tactical.task_resolution import chance

FAST = settings(max_examples=200, deadline=None)
scores = st.integers(-50, 500)
chances = st.integers(0, 100)


@FAST
@given(scores, scores, st.sampled_from(["ratio", "linear"]))
def test_chance_is_between_1_and_99(av, dv, method):
    assert 1 <= chance(av, dv, method) <= 99


@FAST
@given(st.integers(1, 500), st.integers(1, 500))
def test_ratio_is_monotone_and_symmetric(av, dv):
    assert chance(av + 1, dv) >= chance(av, dv) >= chance(av, dv + 1)
    assert chance(av, dv) + chance(dv, av) in (99, 100, 101)


@FAST
@given(chances, st.booleans(), st.booleans())
def test_outcomes_partition_the_hundred_faces(pct, heroic, bumble):
    odds = to_hit.outcomes(pct, heroic, bumble)
    assert sum(odds.as_dict().values()) == 1
    assert all(v >= 0 for v in odds.as_dict().values())
    assert odds.heroic + odds.success == Fraction(pct, 100)
    counted = {name: 0 for name in odds.as_dict()}
    for face in range(1, 101):
        counted[to_hit.outcome(face, pct, heroic, bumble)] += 1
    assert {k: Fraction(v, 100) for k, v in counted.items()} == odds.as_dict()


@FAST
@given(chances)
def test_heroic_is_a_success_and_bumble_a_failure(pct):
    assert to_hit.heroic_max_roll(pct) <= pct
    assert to_hit.bumble_min_roll(pct) > pct


@FAST
@given(st.integers(0, 1000), st.integers(1, 12), st.integers(1, 4))
def test_reuse_never_grows_and_halves_each_time(value, use, free):
    now, later = to_hit.reuse_value(value, use, free), to_hit.reuse_value(value, use + 1, free)
    assert later <= now <= value
    if use >= free:
        assert abs(later - Fraction(now, 2)) <= 1


distances = st.fractions(min_value=0, max_value=400, max_denominator=8)


@FAST
@given(st.sampled_from([w for w in WEAPON_NAMES if "crossbow" not in w]), st.integers(3, 25), distances, distances)
def test_range_dv_grows_with_distance(name, strength, near, far):
    near, far = sorted((near, far))
    a, b = range_of(name, near, strength), range_of(name, far, strength)
    assert a.dv_modifier <= b.dv_modifier
    assert list(("point-blank", "short", "medium", "long", "extreme")).index(a.band) <= \
        ["point-blank", "short", "medium", "long", "extreme"].index(b.band)


@FAST
@given(st.sampled_from(WEAPON_NAMES), st.integers(3, 25), st.fractions(min_value=0, max_value=150), distances)
def test_elevation_never_raises_limits(name, strength, rise, distance):
    flat, high = range_of(name, 0, strength), range_of(name, 0, strength, rise)
    assert high.limits.short <= flat.limits.short and high.limits.long <= flat.limits.long
    assert high.limits.point_blank >= 0
