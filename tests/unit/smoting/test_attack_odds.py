"""The /attack odds by convolution (`service.rules.smoting.attack_odds`) against the enumeration they
replaced (`attack_oracle`): the very same fractions, key order and exactness over a grid of requests,
and a bounded amount of work for the largest request the schema accepts."""
from __future__ import annotations

import random
import time

import pytest

from service.rules.errors import RulesError
from service.rules.smoting import RULESET, attack_odds, pools
from service.rules.smoting import calculators as calc
from tests.unit.smoting import attack_oracle as oracle


def new_answer(body, options=None):
    o = RULESET.read_options(options)
    found = calc._attack.__wrapped__(body, o)  # the odds themselves, not a remembered answer
    probs, exact = found["odds"]["probabilities"]
    return (*found["chance"], exact, list(probs.items()))


def old_answer(body, options=None):
    hit, probs, exact, hit_exact = oracle.attack_odds(body, RULESET.read_options(options))
    return hit, hit_exact, exact, list(probs.items())


@pytest.mark.parametrize("explode", [True, False])
@pytest.mark.parametrize("success_min", [2, 5, 6])
def test_pool_probabilities_match_the_first_formula(success_min, explode):
    for n in range(0, 25, 3):
        for k in range(2 * n + 6):
            assert pools.exactly(n, k, success_min, explode) == oracle.exactly(n, k, success_min, explode)
            assert pools.at_least(n, k, success_min, explode) == oracle.at_least(n, k, success_min, explode)


def grid(count: int, seed: int):
    """Requests across every switch of the attack (defences, block, soak, domains, options), small
    enough for the oracle; the rarer combinations are listed by hand."""
    rng = random.Random(seed)
    for _ in range(count):
        body = {"attack_dice": rng.randint(1, 6), "modifiers": rng.choice([0, -2, 2, -9]),
                "damage_dice": rng.randint(0, 5), "strength": rng.randint(-3, 2),
                "armor_resist": rng.choice([0, 2]), "domain": rng.choice(["physical", "mental"]),
                "target": {"rank": rng.randint(1, 4), "bonus_ranks": rng.choice([0, 1]), "heroic": True,
                           "soak_dice": rng.randint(0, 3)}, "soak": rng.random() < 0.4}
        kind = rng.choice(["none", "dodge", "parry"])
        if kind != "none":
            body["defence"] = {"type": kind, rng.choice(["dice", "pool"]): rng.randint(0, 4)}
        block = rng.choice([None, "dice", "pool"])
        if block:
            body["block"] = {block: rng.randint(0, 3), "factor": rng.randint(0, 2)}
        options = {"success_min": rng.choice([3, 5, 6]), "explode": rng.random() < 0.5,
                   "dodge_floor": rng.choice(["none", "one"]), "massive_kia": rng.random() < 0.8,
                   "min_attack_dice": rng.choice([0, 1])}
        yield body, options


EDGES = [
    ({"attack_dice": 5, "damage_dice": 4, "target": {"rank": 6}}, None),
    ({"attack_dice": 1, "modifiers": -5, "damage_dice": 4, "target": {"rank": 2}}, {"min_attack_dice": 0}),
    ({"attack_dice": 1, "modifiers": -5, "damage_dice": 4, "target": {"rank": 2}},
     {"min_attack_dice": 0, "explode": False}),
    ({"attack_dice": 2, "defence": {"type": "dodge", "dice": 4}, "damage_dice": 3, "target": {"rank": 1}},
     {"dodge_floor": "one"}),
    ({"attack_dice": 3, "defence": {"type": "parry", "dice": 2, "running": True}, "damage_dice": 2,
      "block": {"dice": 2, "factor": 1}, "soak": True, "target": {"rank": 2, "heroic": True, "soak_dice": 2}},
     {"success_min": 4}),
    ({"attack_dice": 3, "surprised": True, "defence": {"type": "parry", "dice": 2}, "block": {"dice": 2},
      "soak": True, "damage_dice": 3, "target": {"rank": 2, "heroic": True, "soak_dice": 2}}, None),
    ({"attack_dice": 4, "damage_dice": 0, "armor_resist": 10, "target": {"rank": 1}}, {"massive_kia": False}),
]


@pytest.mark.parametrize("body, options", [*EDGES, *grid(24, 7)])
def test_the_convolution_gives_the_enumerations_fractions(body, options):
    try:
        expected = old_answer(body, options)
    except RulesError as refused:
        with pytest.raises(RulesError) as also:
            new_answer(body, options)
        assert also.value.args == refused.args
        return
    assert new_answer(body, options) == expected


LARGEST = {"attack_dice": 30, "modifiers": 30, "effort": 8, "advantage": True,
           "defence": {"type": "parry", "dice": 30}, "damage_dice": 30, "strength": 6, "bonus_dice": 30,
           "block": {"dice": 30}, "soak": True,
           "target": {"rank": 9, "bonus_ranks": 9, "heroic": True, "soak_dice": 30}}
LARGEST_OPTIONS = {"success_min": 2, "advantage_dice": 4}


def test_the_largest_attack_does_bounded_work(monkeypatch):
    # pool sizes x success counts: the whole cost; the old enumeration did ~10^7 fraction sums here
    steps = []
    grow = attack_odds.times_die
    monkeypatch.setattr(attack_odds, "times_die", lambda row, s, boom: steps.append(len(row)) or grow(row, s, boom))
    started = time.process_time()
    hit, _, exact, probs = new_answer(LARGEST, LARGEST_OPTIONS)
    spent = time.process_time() - started
    assert not exact and sum(p for _, p in probs) == 1 and 0 < hit < 1
    assert len(steps) < 500 and sum(steps) < 80_000
    assert spent < 3.0  # ~0.15 s of CPU on the build box; a bound 20 times that, never near a flake


def test_the_largest_attack_answers_over_http(client):
    answer = client.post("/v1/smoting/attack", json={**LARGEST, "options": LARGEST_OPTIONS}).get_json()
    assert answer["probabilities_exact"] is None and abs(sum(answer["probabilities"].values()) - 1) < 1e-9
    assert set(answer["probabilities"]) == {"defender_specials", "miss", "no_damage", "defeat", "trauma",
                                            "killing_blow", "massive"}
    hit = new_answer(LARGEST, LARGEST_OPTIONS)[0]
    assert answer["chance_exact"] is None and answer["chance"] == pytest.approx(float(hit), abs=1e-15)


@pytest.mark.parametrize("body, options", [*EDGES, *grid(16, 11)])
def test_to_hit_and_damage_odds_are_the_enumerations_fractions(body, options):
    o = RULESET.read_options(options)
    try:
        expected_hit = oracle.hit_extras(body, o)
        expected_damage = oracle.damage_odds(body, o, 2)
    except RulesError:
        return  # the refusals are the same code path as before (covered by the /attack test above)
    found = calc._hit.__wrapped__(body, o)
    assert found["odds"]["probabilities"][0] == expected_hit[0]
    assert list(found["odds"]["extra_success_probabilities"][0].items()) == list(expected_hit[1].items())
    bands, table, exact, pool = calc.damage_odds(body, o, 2)
    assert (list(bands.items()), list(table.items()), exact, pool) == (
        list(expected_damage[0].items()), list(expected_damage[1].items()), *expected_damage[2:])
