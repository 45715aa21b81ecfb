"""The vectorised `ars-magica` engine against the round-resolver loop it stands in for (differential
test), on duels and on group fights (1 vs 2, 2 vs 2, 3 vs 3, three sides): win, draw and capped shares, mean
rounds (Welch), blows per attack, botch and exceptional rates, first-strike share, levels lost by the losers
and every combatant's fate; |z| > 4 fails. Below it: the vectorised dice against the exact odds, and every
botch-table entry against the resolver's, one by one."""
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
    return group([a], [b], **options)


def group(*sides, **options):
    """Sides red, blue (then green) of the fighters given."""
    body = {"sides": [{"name": name, "combatants": people} for name, people in zip(("red", "blue", "green"), sides)]}
    return {**body, "options": options} if options else body


def trio(prefix, **extra):
    return [fighter(f"{prefix}1", "longsword", **extra), fighter(f"{prefix}2", "mace", skill=4, str_=2, **extra),
            fighter(f"{prefix}3", "spear", skill=6, qik=2, **extra)]


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
    # Group fights: targets (engaged foe first, else the first able one), one defence roll a round then the
    # bare total, the contests' order, and the fighters' own effects, engagements and stances as given.
    "1 vs 2": group([fighter("knight", "longsword", skill=8, armor="full_chain", stm=2, dex=2)],
                    [fighter("rogue", "shortsword", skill=5, qik=2), fighter("thug", "mace", skill=4, str_=2)]),
    "2 vs 2, engaged across, pair by pair": group(
        [fighter("ann", engaged_with=["dan"]), fighter("bea", "mace", skill=6)],
        [fighter("cat", "spear", qik=2), fighter("dan", "shortsword", skill=6, shield={"defence": 2})],
        melee_order="group_by_group", attack_tie="attacker"),
    "3 vs 3": group(trio("r"), trio("b", armor="leather")),
    "3 vs 3, all-out, pair by pair": group(trio("r", stance="all_out_ready"), trio("b"), melee_order="group_by_group",
                                           ai_stance="all_out_when_opponent_hurt", all_out_doubles="levels"),
    "2 vs 3, desperate once": group(trio("r")[:2], trio("b"), ai_stance="desperate_when_heavy",
                                    desperate_defence_rolls="once", botch_dice=2),
    "2 vs 3, desperate each attack": group([fighter("r1", skill=7, body_levels_lost=2), fighter("r2", skill=7)],
                                           trio("b"), ai_stance="desperate_when_heavy"),
    "three sides": group([fighter("red1", skill=6)], [fighter("blue1", "mace")], [fighter("green1", "spear", qik=2)]),
    "timed effects from round 3": {**group(
        [fighter("dazed", skill=7, effects=[{"kind": "attack", "value": -4, "from": 0, "until": 5},
                                            {"kind": "lose_initiative", "value": 1, "from": 4, "until": 4}]),
         fighter("slow", effects=[{"kind": "skip_attack", "value": 1, "from": 4, "until": 5}])],
        [fighter("taunted", effects=[{"kind": "opponent_attack", "value": 5, "from": 0, "until": None}]),
         fighter("weak", effects=[{"kind": "damage", "value": -3, "from": 5, "until": None},
                                  {"kind": "defence", "value": 2, "from": 4, "until": 6}])]), "round": 3},
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
          for side in set(fast["wins"]) | set(slow["wins"])}
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
    zs = compare(name, SLOW.get(name, RESOLVER_FIGHTS), ENGINE_FIGHTS, 7)
    assert {k for k, v in zs.items() if abs(v) > LIMIT} == set(), zs


def compare(name, resolver_fights, engine_fights, seed):
    """Matchup `name` played both ways: every statistic's z (also what `make bench-differential` runs)."""
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    fast = engine.simulate(parsed, engine_fights, np.random.default_rng(seed))
    slow = play(RULESET, parsed, resolver_fights, random.Random(seed))
    # In a group fight later attacks on a defender meet his bare total: blows are not told apart either.
    mixed = parsed.options["ai_stance"] == "all_out_when_opponent_hurt" or len(parsed.combatants) > 2
    return statistics(fast, slow, mixed)


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


def test_missile_weapons_go_to_the_resolver_loop():
    archers = group([fighter("a"), fighter("b")], [fighter("bow", "short_bow")])
    assert not engine.accepts(RULESET.duel.read_matchup(archers))
    assert simulator_for("ars-magica").cost(archers).engine == "loop"
    tally = simulator_for("ars-magica").run_chunk(archers, 0, 20, 1)
    assert tally["trials"] == 20 and sum(tally["wins"].values()) + tally["draws"] == 20


def test_a_large_melee_is_played_in_batches():
    from service.sim.engines.ars_magica import duel as driver

    body = group([fighter(f"r{i}") for i in range(6)], [fighter(f"b{i}", "mace") for i in range(6)], max_rounds=4)
    parsed = RULESET.duel.read_matchup(body)
    whole = engine.simulate(parsed, 300, np.random.default_rng(4))
    cells, driver.BATCH_CELLS = driver.BATCH_CELLS, 144 * 70
    try:
        batched = engine.simulate(parsed, 300, np.random.default_rng(4))
    finally:
        driver.BATCH_CELLS = cells
    assert batched["trials"] == whole["trials"] == 300 == sum(batched["rounds"].values())
    assert set(batched["details"]) == set(whole["details"])


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
    from service.sim.engines.ars_magica.figures import BOTCH_TABLES, botch_table, roster

    effects = {k: v for k, v in BOTCH_TABLES[roll].effects[entry].items() if k not in ("self_damage", "fatigue_roll")}
    parsed = RULESET.duel.read_matchup(duel(fighter("ann", armor="full_chain", fatigue_levels_lost=1), fighter("bea")))
    work = Round(parsed, [], DiceSource.from_rng(random.Random(1)))
    botches.apply(work, "ann", effects, "bea", lambda *_: None)
    codes = {"standing": 0}
    fights = Fights(roster(parsed, codes), parsed.options, codes, 1)
    apply(Play(fights, np.random.default_rng(1), parsed.options, {}), fights.cells(0, np.array([0])),
          botch_table((effects,)), np.array([0]))
    ann = work.people["ann"]
    assert (fights.body[0, 0], fights.fatigue[0, 0]) == (ann["body_levels_lost"], ann["fatigue_levels_lost"])
    cell = fights.cells(0, 0)
    assert all(fights.char(cell, k) == v for k, v in ann["characteristics"].items())
    assert fights.protection[0, 0] == state.totals_of(ann, parsed.options).soak - ann["characteristics"]["stm"]
    assert bool(fights.broken[0, 0]) == (isinstance(ann["weapon"], dict) and ann["weapon"]["name"] == "broken")
    for later in range(3):  # this round, the next, the one after
        for kind in KINDS:
            assert fights.effect(cell, kind) == state.effect_total(ann, kind, work.number + later), (kind, later)
        fights.new_round()


@pytest.mark.parametrize("effect", sorted({name for row in RULESET.options["exceptional_effects"].default.values()
                                           for name in row.values()}))
def test_every_exceptional_effect_reads_as_the_resolver_reads_it(effect):
    from service.rules.ars_magica import state
    from service.rules.ars_magica.phases import exceptional_effect
    from service.rules.ars_magica.work import Round
    from service.rules.dice import DiceSource
    from service.sim.engines.ars_magica.blows import Play, head_effect
    from service.sim.engines.ars_magica.fights import Fights
    from service.sim.engines.ars_magica.figures import exceptional, roster

    parsed = RULESET.duel.read_matchup(duel(fighter("ann", body_levels_lost=1), fighter("bea")))
    work = Round(parsed, [], DiceSource.from_rng(random.Random(1)))
    exceptional_effect(work, "ann", effect)
    codes = {"standing": 0}
    fights = Fights(roster(parsed, codes), parsed.options, codes, 1)
    head_effect(Play(fights, np.random.default_rng(1), parsed.options, {}), fights.cells(0, np.array([0])),
                exceptional(effect))
    ann = work.people["ann"]
    assert (fights.body[0, 0], fights.fatigue[0, 0]) == (ann["body_levels_lost"], ann["fatigue_levels_lost"])
    for kind in ("attack", "defence"):
        assert fights.effect(fights.cells(0, 0), kind) == state.effect_total(ann, kind, work.number)
