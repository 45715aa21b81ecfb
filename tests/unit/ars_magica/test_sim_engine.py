"""The vectorised `ars-magica` duel engine against the round-resolver loop it stands in for (differential
test): win, draw and capped shares, mean rounds (Welch), blows per attack, botch and exceptional rates,
first-strike share, levels lost by the loser and every combatant's fate; |z| > 4 fails."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from service.rules.ars_magica import RULESET
from service.sim.engines import ars_magica as engine
from service.sim.rounds import play
from service.sim.simulator import simulator_for

LIMIT = 4.0
RESOLVER_FIGHTS = 1200
ENGINE_FIGHTS = 30_000


def fighter(ident, weapon="longsword", skill=5, armor=None, dex=1, qik=1, str_=1, stm=1, **extra):
    return {"id": ident, "weapon": weapon, "armor": armor, "abilities": {"weapon": skill, **extra.pop("abilities", {})},
            "characteristics": {"dex": dex, "qik": qik, "str": str_, "stm": stm}, **extra}


def duel(a, b, **options):
    body = {"sides": [{"name": "red", "combatants": [a]}, {"name": "blue", "combatants": [b]}]}
    return {**body, "options": options} if options else body


MATCHUPS = {
    "equal": duel(fighter("ann"), fighter("bea")),
    "armored vs unarmored": duel(fighter("knight", "mace", armor="full_chain", stm=2, size=1),
                                 fighter("rogue", "shortsword", skill=7, qik=3, dex=2, shield={"defence": 3})),
    "big weapon vs small, hurt start": duel(fighter("brute", "mace", str_=3, body_levels_lost=2, encumbrance=2),
                                            fighter("duck", "shortsword", skill=6, fatigue_levels_lost=1)),
    "options changed, all-out": duel(
        fighter("wild", "spear", skill=4, size=2, armor="leather"), fighter("calm", "longsword", skill=5, qik=2),
        botch_dice=3, attack_tie="attacker", exceptional_margin=8, all_out_doubles="levels", defence_uses="weapon",
        defence_size_sign="add", penalties_apply=False, ai_stance="all_out_when_opponent_hurt",
        melee_order="group_by_group", size_adds_levels=True, max_rounds=12),
    "lopsided, mounted against a brawler, desperate": duel(
        fighter("master", "longsword", skill=7, dex=2, qik=2, armor="leather", mounted=True, abilities={"ride": 5}),
        fighter("brawler", "unarmed", skill=5, stm=3, str_=3, dex=2), ai_stance="desperate_when_heavy", botch_dice=2),
    "stalemate, plain botches": duel(fighter("wall", "shortsword", skill=2, armor="plate", stm=3),
                                     fighter("tower", "shortsword", skill=2, armor="plate", stm=3),
                                     botch_effects="miss_only", max_rounds=8, exceptional_margin=5),
    # Ten botch dice: a 0 botches two times in three, several botches read the worst of several table dice.
    "botch storm": duel(fighter("wall", "shortsword", skill=2, armor="plate", stm=3),
                        fighter("tower", "mace", skill=2, armor="plate", stm=3), botch_dice=10, max_rounds=10),
}


def proportion_z(k1, n1, k2, n2):
    """Two-proportion z (pooled variance, floored so that 0 against 0 is not a division by zero)."""
    if not n1 or not n2:
        return 0.0
    p = (k1 + k2) / (n1 + n2)
    return (k1 / n1 - k2 / n2) / math.sqrt(max(p * (1 - p) * (1 / n1 + 1 / n2), 1e-12))


def welch_z(h1, h2):
    """Welch's statistic for the means of two histograms {value: count}."""
    def moments(h):
        n = sum(h.values())
        mean = sum(k * v for k, v in h.items()) / n
        return mean, sum(v * (k - mean) ** 2 for k, v in h.items()) / max(n - 1, 1) / n
    (m1, v1), (m2, v2) = moments(h1), moments(h2)
    return (m1 - m2) / math.sqrt(max(v1 + v2, 1e-12))


def blows(tally, all_out):
    """Damage rolls: each counts two stress rolls after the attack roll and the defence roll (an all-out
    attacker rolls no defence, so there the blows are not told apart and the extra rolls are compared)."""
    d = tally["details"]
    extra = d["stress_rolls"] - d["attacks"]
    return extra / 3 if all_out else (extra - d["attacks"]) / 2


def statistics(fast, slow, all_out=False):
    """Every compared statistic: name -> z."""
    n1, n2 = fast["trials"], slow["trials"]
    d1, d2 = fast["details"], slow["details"]
    zs = {f"wins {side}": proportion_z(fast["wins"].get(side, 0), n1, slow["wins"].get(side, 0), n2)
          for side in ("red", "blue")}
    zs["draws"] = proportion_z(fast["draws"], n1, slow["draws"], n2)
    zs["capped"] = proportion_z(fast["capped"], n1, slow["capped"], n2)
    zs["mean rounds"] = welch_z({int(k): v for k, v in fast["rounds"].items()},
                                {int(k): v for k, v in slow["rounds"].items()})
    zs["blows per attack"] = proportion_z(blows(fast, all_out), d1["attacks"], blows(slow, all_out), d2["attacks"])
    zs["botches per stress roll"] = proportion_z(d1["botches"], d1["stress_rolls"], d2["botches"], d2["stress_rolls"])
    zs["exceptional per attack"] = proportion_z(d1["exceptional"], d1["attacks"], d2["exceptional"], d2["attacks"])
    zs["first strike wins"] = proportion_z(d1.get("first_strike_rounds", 0), d1.get("decided_rounds", 0),
                                           d2.get("first_strike_rounds", 0), d2.get("decided_rounds", 0))
    lost = [{int(k.removeprefix("levels_lost_")): v for k, v in d.items() if k.startswith("levels_lost_")}
            for d in (d1, d2)]
    if all(lost):
        zs["levels lost by the loser"] = welch_z(*lost)
    for who in slow["status"]:
        for status in set(slow["status"][who]) | set(fast["status"][who]):
            zs[f"{who} {status}"] = proportion_z(fast["status"][who].get(status, 0), n1,
                                                 slow["status"][who].get(status, 0), n2)
    return zs


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_agrees_with_the_resolver_loop(name):
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    fast = engine.simulate(parsed, ENGINE_FIGHTS, np.random.default_rng(7))
    slow = play(RULESET, parsed, RESOLVER_FIGHTS, random.Random(7))
    zs = statistics(fast, slow, parsed.options["ai_stance"] == "all_out_when_opponent_hurt")
    assert {k for k, v in zs.items() if abs(v) > LIMIT} == set(), zs


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_tally_has_the_loops_shape(name):
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    fast = engine.simulate(parsed, 300, np.random.default_rng(3))
    slow = play(RULESET, parsed, 30, random.Random(3))
    assert set(fast) == set(slow) and fast["trials"] == 300
    assert sum(fast["wins"].values()) + fast["draws"] == 300 == sum(fast["rounds"].values())
    assert set(fast["status"]) == set(slow["status"])
    assert all(sum(counts.values()) == 300 for counts in fast["status"].values())
    assert {"stress_rolls", "botches", "attacks", "exceptional"} <= set(fast["details"])


def test_the_same_seed_gives_the_same_tally():
    parsed = RULESET.duel.read_matchup(MATCHUPS["equal"])
    one, two = (engine.simulate(parsed, 500, np.random.default_rng(9)) for _ in range(2))
    assert one == two


def test_fights_over_before_they_begin_count_no_round():
    parsed = RULESET.duel.read_matchup(duel(fighter("down", body_levels_lost=5), fighter("up")))
    tally = engine.simulate(parsed, 50, np.random.default_rng(1))
    assert tally == play(RULESET, parsed, 50, random.Random(1))


def test_other_matchups_go_to_the_resolver_loop():
    three = {"sides": [{"name": "red", "combatants": [fighter("a"), fighter("b")]},
                       {"name": "blue", "combatants": [fighter("c")]}]}
    archer = duel(fighter("a"), fighter("bow", "short_bow"))
    dazed = duel(fighter("a", effects=[{"kind": "attack", "value": -3, "from": 0, "until": None}]), fighter("b"))
    for body in (three, archer, dazed):
        assert not engine.accepts(RULESET.duel.read_matchup(body))
    tally = simulator_for("ars-magica").run_chunk(three, 0, 20, 1)
    assert tally["trials"] == 20 and sum(tally["wins"].values()) + tally["draws"] == 20


def test_the_simulator_plays_accepted_matchups_with_the_engine():
    simulator = simulator_for("ars-magica")
    assert simulator.vector is engine.simulate and simulator.accepts is engine.accepts
    tally = simulator.run_chunk(MATCHUPS["equal"], 0, 2000, 5)
    assert tally == engine.simulate(RULESET.duel.read_matchup(MATCHUPS["equal"]), 2000,
                                    np.random.default_rng(np.random.SeedSequence(5, spawn_key=(0,))))
