"""The vectorised `ars-magica` duel engine against the round-resolver loop it stands in for (differential
test): win, draw and capped shares, mean rounds (Welch), blows per attack, botch and exceptional rates,
first-strike share, levels lost by the loser and every combatant's fate; |z| > 4 fails. Below it: the
vectorised dice against the exact odds, and every botch-table entry against the resolver's, one by one."""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from service.rules.ars_magica import RULESET
from service.sim.engines import ars_magica as engine
from service.sim.rounds import play
from service.sim.simulator import simulator_for

LIMIT = 4.0
RESOLVER_FIGHTS = 900
SLOW = {"armored vs unarmored": 600, "stalemate, plain botches": 700, "botch storm": 600}  # long fights
ENGINE_FIGHTS = 20_000


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
    slow = play(RULESET, parsed, SLOW.get(name, RESOLVER_FIGHTS), random.Random(7))
    zs = statistics(fast, slow, parsed.options["ai_stance"] == "all_out_when_opponent_hurt")
    assert {k for k, v in zs.items() if abs(v) > LIMIT} == set(), zs


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_tally_has_the_loops_shape(name):
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    fast = engine.simulate(parsed, 300, np.random.default_rng(3))
    slow = play(RULESET, parsed, 30, random.Random(3))
    assert set(fast) == set(slow) and fast["trials"] == 300
    assert json.loads(json.dumps(fast)) == fast  # plain JSON, as chunks travel through Celery and Redis
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


@pytest.mark.parametrize("botch_dice", [0, 1, 3])
def test_the_vectorised_stress_die_has_the_exact_odds(botch_dice):
    from service.rules.ars_magica import stress as exact
    from service.sim.engines.ars_magica.dice import stress

    n = 200_000
    rolled = stress(np.random.default_rng(botch_dice), n, botch_dice)
    value = np.where(rolled.botched, -1, rolled.value)
    zs = {"botch": proportion_z(int(rolled.botched.sum()), n, float(exact.botch_chance(botch_dice)) * n, n)}
    for x in (1, 2, 5, 9, 10, 12, 16, 20, 30, 40):
        expected = float(exact.at_least(exact.stress_roll(0, botch_dice), x))
        zs[f">= {x}"] = proportion_z(int((value >= x).sum()), n, expected * n, n)
    assert all(abs(z) <= LIMIT for z in zs.values()), zs


def test_the_botch_table_die_reads_as_the_resolvers():
    from service.rules.ars_magica import botches
    from service.rules.dice import DiceSource
    from service.sim.engines.ars_magica.dice import botch_index

    fast = botch_index(np.random.default_rng(2), np.full(100_000, 2))
    dice = DiceSource.from_rng(random.Random(2))
    slow = [max(botches.roll_index(dice, None) for _ in range(2)) for _ in range(20_000)]
    for x in (3, 6, 10, 12, 20, 40):
        assert abs(proportion_z(int((fast >= x).sum()), fast.size, sum(v >= x for v in slow), len(slow))) <= LIMIT, x


def _entries():
    from service.sim.engines.ars_magica.figures import BOTCH_TABLES
    return [(roll, i) for roll, table in BOTCH_TABLES.items() for i in range(len(table.effects))]


@pytest.mark.parametrize("roll,entry", _entries())
def test_every_botch_entry_changes_a_fighter_as_the_resolver_does(roll, entry):
    """The deterministic part of each entry (timed effects, levels, characteristics, gear), one fight on
    each side; own damage and fatigue rolls are random and left to the differential test."""
    from service.rules.ars_magica import botches, state
    from service.rules.ars_magica.work import Round
    from service.rules.dice import DiceSource
    from service.sim.engines.ars_magica.blows import Play, apply
    from service.sim.engines.ars_magica.fights import KINDS, Fights
    from service.sim.engines.ars_magica.figures import BOTCH_TABLES, CHAR, duellist

    effects = {k: v for k, v in BOTCH_TABLES[roll].effects[entry].items() if k not in ("self_damage", "fatigue_roll")}
    parsed = RULESET.duel.read_matchup(duel(fighter("ann", armor="full_chain", fatigue_levels_lost=1), fighter("bea")))
    work = Round(parsed, [], DiceSource.from_rng(random.Random(1)))
    botches.apply(work, "ann", effects, "bea", lambda *_: None)
    codes = {"standing": 0}
    fights = Fights([duellist(c, parsed.options, codes) for c in parsed.combatants], parsed.options, codes, 1)
    apply(Play(fights, np.random.default_rng(1), parsed.options, {}), 0, np.array([0]), effects, 1)
    ann = work.people["ann"]
    assert (fights.body[0, 0], fights.fatigue[0, 0]) == (ann["body_levels_lost"], ann["fatigue_levels_lost"])
    assert all(fights.chars[0, CHAR[k], 0] == v for k, v in ann["characteristics"].items())
    assert fights.protection[0, 0] == state.totals_of(ann, parsed.options).soak - ann["characteristics"]["stm"]
    assert bool(fights.broken[0, 0]) == (isinstance(ann["weapon"], dict) and ann["weapon"]["name"] == "broken")
    for kind in KINDS:
        k = KINDS.index(kind)
        assert fights.lasting[k, 0, 0] + fights.next[k, 0, 0] == state.effect_total(ann, kind, work.number + 1), kind
        assert fights.lasting[k, 0, 0] == state.effect_total(ann, kind, work.number + 2), kind


@pytest.mark.parametrize("effect", sorted({name for row in RULESET.options["exceptional_effects"].default.values()
                                           for name in row.values()}))
def test_every_exceptional_effect_reads_as_the_resolver_reads_it(effect):
    from service.rules.ars_magica import state
    from service.rules.ars_magica.phases import exceptional_effect
    from service.rules.ars_magica.work import Round
    from service.rules.dice import DiceSource
    from service.sim.engines.ars_magica.blows import Play, head_effect
    from service.sim.engines.ars_magica.fights import Fights
    from service.sim.engines.ars_magica.figures import duellist, exceptional

    parsed = RULESET.duel.read_matchup(duel(fighter("ann", body_levels_lost=1), fighter("bea")))
    work = Round(parsed, [], DiceSource.from_rng(random.Random(1)))
    exceptional_effect(work, "ann", effect)
    codes = {"standing": 0}
    fights = Fights([duellist(c, parsed.options, codes) for c in parsed.combatants], parsed.options, codes, 1)
    head_effect(Play(fights, np.random.default_rng(1), parsed.options, {}), 0, np.array([0]), exceptional(effect))
    ann = work.people["ann"]
    assert (fights.body[0, 0], fights.fatigue[0, 0]) == (ann["body_levels_lost"], ann["fatigue_levels_lost"])
    for kind in ("attack", "defence"):
        assert fights.effect(0, kind, 0) == state.effect_total(ann, kind, work.number)
