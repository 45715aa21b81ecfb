"""Invariants of the `ars-magica` exact odds: every outcome distribution sums to exactly 1, and a
simulation of 10^6 stress rolls agrees with every stated probability within 4 standard errors."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import registry
from service.rules.ars_magica import checks, damage, stress, to_hit

OPTIONS = registry.get("ars-magica").read_options({})
totals = st.integers(-30, 60)
botch = st.integers(0, 10)
N = 1_000_000


@settings(max_examples=60, deadline=None)
@given(totals, totals, st.sampled_from(["roll", "total", "surprised"]), botch, botch,
       st.sampled_from(["defender", "attacker"]), st.integers(1, 50))
def test_melee_outcomes_sum_to_one(attack, defence, mode, nb_a, nb_d, tie, margin):
    opts = {**OPTIONS, "attack_tie": tie, "exceptional_margin": margin}
    odds = to_hit.melee_odds(attack, defence, mode, {"attack": nb_a, "defence": nb_d}, opts)
    assert sum(odds.probabilities.values()) == 1 and all(0 <= p <= 1 for p in odds.probabilities.values())


@settings(max_examples=60, deadline=None)
@given(totals, st.integers(-20, 80), st.booleans(), botch)
def test_missile_outcomes_sum_to_one(attack, ef, into_melee, nb):
    odds = to_hit.missile_odds(attack, ef, into_melee, nb, OPTIONS)
    assert sum(odds.probabilities.values()) == 1 and all(p >= 0 for p in odds.probabilities.values())


@settings(max_examples=40, deadline=None)
@given(totals, totals, botch, botch, st.booleans(), st.booleans(), st.sampled_from(["margin", "levels"]))
def test_damage_levels_sum_to_one(dmg, soak, nb_d, nb_s, all_out, exceptional, doubles):
    odds = damage.damage_odds(dmg, soak, {"damage": nb_d, "soak": nb_s}, all_out, exceptional,
                              {**OPTIONS, "all_out_doubles": doubles})
    assert sum(odds.probabilities.values()) == 1 and all(p >= 0 for p in odds.probabilities.values())
    if exceptional:
        assert sum(odds.severity.values()) == 1


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["ease", "fatigue", "formulaic"]), totals, st.integers(-10, 80), botch)
def test_check_outcomes_sum_to_one(kind, total, ef, nb):
    probs, chance = checks.odds(checks.Check(kind, total, ef, nb), OPTIONS)
    assert sum(probs.values()) == 1 and 0 <= chance <= 1


def stress_dice(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n stress dice (values) and whether each showed a first 0."""
    first = rng.integers(0, 10, n)
    value = first.astype(np.int64)
    chain = first == 1
    multiplier = np.where(chain, 2, 1).astype(np.int64)
    while chain.any():
        face = rng.integers(0, 10, n)
        again = chain & (face == 1)
        done = chain & ~again
        value = np.where(done, multiplier * np.where(face == 0, 10, face), value)
        multiplier = np.where(again, multiplier * 2, multiplier)
        chain = again
    return value, first == 0


def within(p: Fraction, hits: int, n: int) -> bool:
    se = math.sqrt(float(p) * (1 - float(p)) / n) or 1 / n
    return abs(hits / n - float(p)) <= 4 * se + 1e-12


def test_a_million_rolls_agree_with_the_exact_odds():
    rng = np.random.default_rng(2026)
    a, a_zero = stress_dice(rng, N)
    d, d_zero = stress_dice(rng, N)
    a_botch = a_zero & (rng.integers(0, 10, N) == 0)
    d_botch = d_zero & (rng.integers(0, 10, N) == 0)
    for x in (1, 2, 5, 9, 10, 12, 16, 20, 30, 40):
        assert within(stress.stress_at_least(x), int((a >= x).sum()), N), x
    assert within(stress.botch_chance(1), int(a_botch.sum()), N)
    for attack, defence in ((10, 8), (5, 12), (15, 3)):
        odds = to_hit.melee_odds(attack, defence, "roll", {"attack": 1, "defence": 1}, OPTIONS)
        a_roll = np.where(a_botch, 0, attack + a)
        d_roll = np.where(d_botch, 0, defence + d)
        margin = a_roll - d_roll
        landed = (~a_botch) & (margin > 0)
        exceptional = landed & (margin >= 15)
        assert within(odds.chance, int(landed.sum()), N), (attack, defence)
        assert within(odds.probabilities["exceptional"], int(exceptional.sum()), N), (attack, defence)
    odds = damage.damage_odds(14, 8, {"damage": 1, "soak": 1}, False, False, OPTIONS)
    margin = np.where(a_botch, -10**6, 14 + a) - np.where(d_botch, 0, 8 + d)
    levels = np.where(margin > 0, -(-margin // 5), 0)
    for n in range(6):
        assert within(odds.probabilities[str(n)], int((levels == n).sum()), N), n
    assert within(odds.probabilities["6+"], int((levels >= 6).sum()), N)
