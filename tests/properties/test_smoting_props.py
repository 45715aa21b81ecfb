"""Properties of the smoting odds: exclusive outcomes sum to exactly 1 (or within 1e-12 where the sum is
unbounded), and a 10^6-roll sample agrees with every stated probability within 4 standard errors."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.smoting import RULESET
from service.rules.smoting import calculators as calc
from service.rules.smoting import pools

DEFAULTS = RULESET.read_options({})
options = st.fixed_dictionaries({"success_min": st.integers(2, 6), "explode": st.booleans()})


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 12), o=options)
def test_a_pool_table_sums_to_one(n, o):
    assert sum(pools.table(n, o["success_min"], o["explode"]).values()) == 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10), kind=st.sampled_from(["none", "dodge", "parry"]), dice=st.integers(0, 6),
       live=st.booleans(), o=options, floor=st.sampled_from(["none", "one"]))
def test_to_hit_outcomes_are_exclusive(n, kind, dice, live, o, floor):
    defence = {"type": kind, "pool" if live else "dice": dice}
    found = calc.hit({"attack_dice": n, "defence": defence}, {**DEFAULTS, **o, "dodge_floor": floor}, None)
    values, exact = found["odds"]["probabilities"]
    total = sum(values.values(), Fraction(0))
    assert total == 1 if exact else abs(total - 1) < Fraction(1, 10**12)
    assert all(v >= 0 for v in values.values())


@settings(max_examples=40, deadline=None)
@given(dice=st.integers(0, 10), strength=st.integers(-3, 4), extra=st.integers(0, 3), rank=st.integers(1, 9),
       block=st.one_of(st.none(), st.integers(0, 4)), soak=st.integers(0, 4), o=options,
       domain=st.sampled_from(["physical", "mental"]))
def test_damage_bands_are_exclusive(dice, strength, extra, rank, block, soak, o, domain):
    body = {"damage_dice": dice, "strength": strength, "extra_successes": extra, "domain": domain,
            "block": None if block is None else {"dice": block, "factor": 1},
            "target": {"rank": rank, "heroic": True, "soak_dice": soak}, "soak": soak > 0}
    values, exact = calc.damage(body, {**DEFAULTS, **o}, None)["odds"]["probabilities"]
    total = sum(values.values(), Fraction(0))
    assert total == 1 if exact else abs(total - 1) < Fraction(1, 10**12)


def sample_pool(rng: np.random.Generator, n: int, size: int, success_min: int = 5) -> np.ndarray:
    """Successes of `size` exploding pools of n d6, chains followed until no 6 is left."""
    successes = np.zeros(size, dtype=np.int64)
    live = np.full(size, n, dtype=np.int64)
    while live.any():
        faces = rng.integers(1, 7, size=(size, int(live.max())))
        mask = np.arange(faces.shape[1]) < live[:, None]
        successes += ((faces >= success_min) & mask).sum(axis=1)
        live = ((faces == 6) & mask).sum(axis=1)
    return successes


def within(observed: int, p: float, trials: int) -> bool:
    se = max((p * (1 - p) / trials) ** 0.5, 1 / trials)
    return abs(observed / trials - p) <= 4 * se


def test_a_million_pool_rolls_agree_with_the_exact_tables():
    rng, trials = np.random.default_rng(20261127), 1_000_000
    for n in (1, 4, 7):
        counts = np.bincount(sample_pool(rng, n, trials))
        for k, p in pools.table(n).items():
            observed = int(counts[2 * n + 1:].sum()) if k == "more" else int(counts[int(k)]) if int(k) < len(counts) else 0
            assert within(observed, float(p), trials), (n, k)


def test_a_million_dodged_attacks_agree_with_to_hit():
    rng, trials = np.random.default_rng(7), 1_000_000
    dodge = sample_pool(rng, 3, trials)
    left = np.maximum(5 - dodge, 0)
    attack = np.zeros(trials, dtype=np.int64)
    for m in range(6):
        rows = left == m
        attack[rows] = sample_pool(rng, m, int(rows.sum()))
    found = calc.hit({"attack_dice": 5, "defence": {"type": "dodge", "dice": 3}}, DEFAULTS, None)
    odds = found["odds"]["probabilities"][0]
    assert within(int((attack >= 1).sum()), float(odds["hit"]), trials)
    assert within(int((dodge > 5).sum()), float(odds["defender_specials"]), trials)
    extras = found["odds"]["extra_success_probabilities"][0]
    for k in range(4):
        assert within(int((attack == k + 1).sum()), float(extras[str(k)]), trials)


def test_a_million_blocked_and_soaked_blows_agree_with_the_damage_bands():
    rng, trials = np.random.default_rng(11), 1_000_000
    block = sample_pool(rng, 2, trials)
    dice = np.maximum(8 - 1 - block, 0)
    damage = np.zeros(trials, dtype=np.int64)
    for m in range(8):
        rows = dice == m
        damage[rows] = sample_pool(rng, m, int(rows.sum()))
    final = np.maximum(damage - sample_pool(rng, 3, trials), 0)
    body = {"damage_dice": 8, "block": {"dice": 2, "factor": 1}, "soak": True,
            "target": {"rank": 2, "heroic": True, "soak_dice": 3}}
    bands = calc.damage(body, DEFAULTS, None)["odds"]["probabilities"][0]
    limits = {"no_damage": (0, 0), "defeat": (1, 2), "trauma": (3, 4), "killing_blow": (5, 6), "massive": (7, 99)}
    for band, (low, high) in limits.items():
        assert within(int(((final >= low) & (final <= high)).sum()), float(bands[band]), trials), band
