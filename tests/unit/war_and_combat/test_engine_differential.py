"""The array duel engine against the round resolver it stands in for: the same matchups give the same win
shares, fight lengths, landed blows, criticals, actions and rounds the first side won the initiative
(|z| <= 4 on each)."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from service.rules import registry
from service.sim.engines.war_and_combat.duel import simulate, vectorisable
from service.sim.rounds import fight

RULESET = registry.get("war-and-combat")


def fighter(fr, skill, strength, size, weapon="sword", **extra):
    return {"fighter_rank": fr, "strength": strength, "size": size, "weapons": [{"name": weapon, "skill": skill}],
            **extra}


MATCHUPS = {
    "unequal": ([fighter(5, 5, 10, 9)], [fighter(3, 4, 12, 10, "axe")], {}),
    "armored": ([fighter(7, 6, 12, 10, "mace", agl_mod=1, armor={"head": {"absorption": 2, "penetration_threshold": 3,
                                                                           "defence_bonus": 1},
                                                                  "chest": {"absorption": 4, "penetration_threshold": 8}})],
                [fighter(8, 7, 11, 12, "spear", dex_mod=1, innate_absorption=1)], {}),
    "options": ([fighter(4, 5, 9, 8, "dagger")], [fighter(4, 5, 9, 8, "dagger")],
                {"hit_swap_rule": "always", "tie_succeeds": True, "limb_side": "opposite", "no_defence_def": 3,
                 "critical_keeps_offset": False, "penalties_apply_to_defence": True}),
    # A skilled fighter wears down a big, unskilled one: with wound penalties on initiative (issue 21) the
    # hurt fighter loses the initiative more often, which decides the flurry order on an equal flurry roll.
    "wounds slow initiative": ([fighter(5, 8, 11, 10)], [fighter(5, 2, 8, 18)],
                               {"penalties_apply_to_initiative": True, "flurry_initiative_tie": "fighter_rank"}),
}


def state_of(name):
    a, b, options = MATCHUPS[name]
    return RULESET.duel.read_matchup({"sides": [{"name": "a", "combatants": a}, {"name": "b", "combatants": b}],
                                      "options": options})


def metrics(tally):
    rounds = sum(int(k) * v for k, v in tally["rounds"].items())
    d = tally["details"]
    return {"win_a": tally["wins"].get("a", 0), "rounds": rounds, "landed": d.get("landed", 0),
            "critical": d.get("critical", 0), "actions": d.get("flurry_actions", 0),
            "initiative_a": d.get("initiative:a", 0)}


def sample_stats(samples, weights):
    """Mean per fight and the variance of that mean, from per-batch totals."""
    n = sum(weights)
    mean = sum(samples) / n
    if len(samples) < 2:
        return mean, 0.0
    per = [s / w for s, w in zip(samples, weights)]
    m = sum(per) / len(per)
    var = sum((p - m) ** 2 for p in per) / (len(per) - 1)
    return mean, var / len(per)


@pytest.mark.parametrize("name", sorted(MATCHUPS))
def test_the_array_engine_matches_the_round_resolver(name):
    state = state_of(name)
    assert vectorisable(state)
    rng = random.Random(11)
    resolver = [metrics(fight(RULESET, state, rng)) for _ in range(800)]
    gen = np.random.default_rng(5)
    batches = [metrics(simulate(state, 200, gen)) for _ in range(40)]
    for key in ("win_a", "rounds", "landed", "critical", "actions", "initiative_a"):
        r_mean, r_var = sample_stats([m[key] for m in resolver], [1] * len(resolver))
        v_mean, v_var = sample_stats([m[key] for m in batches], [200] * len(batches))
        z = (r_mean - v_mean) / math.sqrt(r_var + v_var or 1e-12)
        assert abs(z) <= 4, (name, key, r_mean, v_mean, z)


def test_other_matchups_go_to_the_resolver_loop():
    a, b, _ = MATCHUPS["unequal"]
    three = RULESET.duel.read_matchup({"sides": [{"name": "a", "combatants": a * 2}, {"name": "b", "combatants": b}]})
    assert not vectorisable(three)
    tally = simulate(three, 20, np.random.default_rng(1))
    assert tally["trials"] == 20 and sum(tally["wins"].values()) + tally["draws"] == 20
    hurt = RULESET.duel.read_matchup({"sides": [{"name": "a", "combatants": [{**a[0], "wounds": [
        {"location": "head", "severity": "light"}]}]}, {"name": "b", "combatants": b}]})
    assert not vectorisable(hurt)
