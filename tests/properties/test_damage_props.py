"""Properties of the blow pipeline: armor never adds POT, wear never overflows, wounds follow WT."""
from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from service.rules.tactical.armor import (ARMOR_TYPES, WearStrike, catalog, common_strike, layer, strike,
                                          wear_sequence)
from service.rules.tactical.damage import Target, resolve_blow
from service.rules.tactical.potence import Attacker, Weapon
from service.rules.tactical.wounds import stun_penalty_after, wounds_from

layers = st.lists(st.sampled_from(ARMOR_TYPES).map(layer), max_size=4).map(tuple)
attacks = st.sampled_from(["common", "slash", "thrust"])


@given(layers, st.integers(0, 300), st.integers(0, 40), attacks)
def test_armor_never_adds_pot_or_dr(worn, pot, wear, attack):
    struck = strike(worn, pot, wear, attack)
    assert 0 <= struck.pot_through <= pot
    assert all(0 <= b.dr <= a.dr and b.rating <= a.rating for a, b in zip(worn, struck.layers))


@given(layers, st.integers(0, 300), st.integers(0, 40))
def test_common_wear_touches_one_layer_and_loses_the_excess(worn, pot, wear):
    after = common_strike(worn, pot, wear).layers
    lost = [a.rating - b.rating for a, b in zip(worn, after)]
    assert sum(1 for x in lost if x) <= 1 and sum(lost) <= wear
    assert common_strike(worn, pot, wear).pot_through == max(0, pot - sum(x.dr for x in worn))


@given(st.integers(1, 400), st.integers(1, 400), st.integers(0, 500))
def test_wounds_match_the_ceiling_form(msta_cnd, pot, extra):
    wt = Fraction(msta_cnd, 8)
    n = wounds_from(pot, wt)
    assert pot > n * wt or n == 0
    assert not pot > (n + 1) * wt
    assert n == max(0, math.ceil(Fraction(pot) / wt) - 1)
    assert wounds_from(pot + extra, wt) >= n


@given(st.integers(0, 5000), st.integers(0, 30))
def test_stun_penalty_decays_monotonically(p0, k):
    assert stun_penalty_after(p0, k + 1) <= stun_penalty_after(p0, k) <= p0


@given(st.lists(st.tuples(st.integers(0, 50), attacks, st.integers(0, 200)), min_size=1, max_size=30))
def test_wear_sequence_is_monotone(strikes):
    start = (layer("doublemail"), layer("padded"))
    states, _ = wear_sequence(start, [WearStrike(db, kind, pot) for db, kind, pot in strikes])
    previous = start
    for state in states:
        assert all(b.dr <= a.dr for a, b in zip(previous, state))
        previous = state


@settings(max_examples=200)
@given(st.integers(0, 60), st.integers(1, 60),
       st.sampled_from(["one-handed", "two-handed", "hand-and-a-half"]),
       st.integers(0, 20), st.integers(0, 5), st.sampled_from(["blunt", "edged", "pointed"]), layers,
       st.integers(0, 12))
def test_blow_pipeline_invariants(strength, size, grip, wsize, wclass, edge, worn, wounds):
    target = Target(size, 10, 15, worn, wounds=wounds)
    result = resolve_blow(Attacker(strength, size), Weapon(grip, wsize, wclass, edge), target)
    assert result.knockback_feet == max(0, result.pot - size)
    assert 0 <= result.pot_through_armor <= result.pot
    assert result.wounding.total == wounds + result.wounding.inflicted
    assert (result.stun is None) == (result.pot_through_armor <= 15)
    assert set(catalog()) >= {x.type for x in result.armor_after}
