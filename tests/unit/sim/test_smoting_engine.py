"""The vectorised smoting engine against the round-resolver loop it stands in for (differential test), on
duels and group fights (1 vs 2, 2 vs 2, 3 vs 3, three sides): win and
capped shares, mean rounds (Welch), per combatant hits, injuries and ranks lost per fight, kills per fight, and the
killed / out-of-action shares; |z| > 4 fails. The loop's fights are played one by one so their per-fight
variance is known; the engine's 10,000 fights make its own error small beside it."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from service.rules.smoting import RULESET
from service.sim.engines import smoting as engine
from service.sim.rounds import fight


def fighter(ident, **extra):
    return {"id": ident, "physical_rank": 3, "mental_rank": 3, "xposures": {"attack": 4, "parry": 2}, **extra}


def duel(a, b, **options):
    return {"sides": [{"name": "red", "combatants": [a]}, {"name": "blue", "combatants": [b]}],
            "options": {"max_rounds": 8, **options}}


GEOREG = fighter("georeg", pc=True, heroic=True, physical_rank=2, attributes={"str": 1, "agl": 2},
                 xposures={"attack": 5, "parry": 3})
GINAT = fighter("ginat", physical_rank=4, mental_rank=2, xposures={"attack": 4, "dodge": 2},
                weapon={"damage_dice": 5, "speed": 5})
MATCHUPS = {
    "equal": duel(fighter("ann"), fighter("bob")),
    "lopsided, heroic soak": duel(GEOREG, GINAT),
    "armored blocker with a shield, a rank down": duel(
        fighter("cat", attributes={"str": 2}, weapon={"damage_dice": 6, "speed": 5, "size": "large"}),
        fighter("dan", armor_resist=2, shield={"block_factor": 1}, xposures={"attack": 4, "block": 3},
                lost_physical=1, crossover_physical=1, bonus_physical=1)),
    "dagger against a slow two-hander with the best 8 of 9 dice and a burn a round": duel(
        fighter("eve", weapon={"damage_dice": 3, "speed": 3, "size": "small"}, xposures={"attack": 5, "dodge": 3},
                action_dice_modifier=1),
        fighter("fay", weapon={"damage_dice": 6, "speed": 7, "size": "large"}, physical_rank=4, heroic=True,
                attributes={"bod": 2, "str": 1}, action_dice_modifier=5, burn_each_round=1)),
    "no stuns, ones never used, highest dice pay": duel(
        fighter("gil", pc=True, heroic=True, attributes={"agl": 1}), fighter("hal", group="mob", xposures={"attack": 3, "dodge": 2}),
        take_stun=False, use_ones="never", defence_die="highest", burn_die="highest", crossover_every=3),
}
MATCHUPS["stuns shaken off by BODY, group dice to attack, one re-rolled action die, reckless"] = duel(
    fighter("ivy", attributes={"bod": 1}, weapon={"damage_dice": 5, "speed": 4}),
    fighter("jon", group="mob", attributes={"bod": -1}, xposures={"attack": 3, "dodge": 2}, action_dice_modifier=-4),
    stun_recovery="roll", one_die_stun="roll", group_dice_to="attack_dice", duel_ai="reckless")
MATCHUPS["rare rulings: no massive kills, ties by order, 4+ without re-rolls, a dodge floor"] = duel(
    fighter("kim", heroic=True, attributes={"bod": 1, "str": 1}, xposures={"attack": 4, "dodge": 3}),
    fighter("lee", physical_rank=2, xposures={"attack": 4, "parry": 2}, weapon={"damage_dice": 6, "speed": 4}),
    massive_kia=False, ooa_domain="physical", tie_break="state_order", dodge_floor="one", min_attack_dice=0,
    negative_rank_penalty=2, closing_trigger="no_dice", action_dice_base=3, soak_attributes=["bod", "str"],
    success_min=4, explode=False,
    injury_location_map={"1": "head", "2": "head", "3": "chest", "4": "chest", "5": "left_arm", "6": "right_leg"})
# Finishing blows (issue 21): eight action dice and a speed-2 weapon give many attacks a round against a
# rank-1 fighter whose BODY -3 fails most finishing rolls; a killed fighter must not be struck nor killed again.
MATCHUPS["finishing blows: eight dice and a speed-2 weapon against a rank-1 fighter of BODY -3"] = duel(
    fighter("slayer", action_dice_modifier=4, weapon={"damage_dice": 4, "speed": 2}),
    fighter("victim", physical_rank=1, attributes={"bod": -3}))
def group(*sides, **options):
    """Sides red, blue (then green) of the fighters given."""
    return {"sides": [{"name": name, "combatants": people} for name, people in zip(("red", "blue", "green"), sides)],
            "options": {"max_rounds": 8, **options}}


# Group fights: every fighter attacks the first enemy standing at the round's start; the countdown runs over
# everyone; a live defence pool meets several attackers; an out-of-action fighter is hit again until killed.
MATCHUPS["1 vs 2: a hero against two mooks"] = group(
    [GEOREG], [fighter("mook1", group="mob", xposures={"attack": 3, "dodge": 2}), fighter("mook2")])
MATCHUPS["2 vs 2, ties by order"] = group([fighter("ann"), GINAT], [fighter("cat", pc=True), fighter("dan")],
                                         tie_break="state_order")
MATCHUPS["3 vs 3, reckless"] = group([fighter(f"r{i}") for i in range(3)],
                                     [fighter(f"b{i}", xposures={"attack": 3, "dodge": 3}) for i in range(3)],
                                     duel_ai="reckless")
MATCHUPS["three sides"] = group([fighter("red1")], [fighter("blue1", weapon={"damage_dice": 5, "speed": 5})],
                                [fighter("green1", heroic=True, xposures={"attack": 5, "block": 2},
                                         shield={"block_factor": 1})])
LOOP_FIGHTS, ENGINE_FIGHTS = 300, 10000


def proportion_z(a, n1, b, n2):
    p = (a + b) / (n1 + n2)
    return (a / n1 - b / n2) / math.sqrt(max(p * (1 - p) * (1 / n1 + 1 / n2), 1e-12))


def loop_fights(parsed, n, seed):
    rng = random.Random(seed)
    return [fight(RULESET, parsed, rng) for _ in range(n)]


def per_fight_z(fast, fights, key):
    """z of a count's mean per fight: the engine's total over its fights against the loop's fights."""
    n1, n2 = fast["trials"], len(fights)
    per = np.array([f["details"].get(key, 0) for f in fights])
    spread = max(per.var(ddof=1), 1 / n2)  # the loop's per-fight variance (same under the null)
    return (fast["details"].get(key, 0) / n1 - per.mean()) / math.sqrt(spread * (1 / n1 + 1 / n2))


def statistics(fast, fights, sides, ids):
    """Every z of the engine's tally against the loop's fights."""
    n1, n2 = fast["trials"], len(fights)
    zs = {"capped": proportion_z(fast["capped"], n1, sum(f["capped"] for f in fights), n2)}
    for side in sides:
        zs[f"{side} wins"] = proportion_z(fast["wins"].get(side, 0), n1, sum(f["wins"].get(side, 0) for f in fights), n2)
    lengths = {int(k): v for k, v in fast["rounds"].items()}
    m1 = sum(k * v for k, v in lengths.items()) / n1
    v1 = sum(v * (k - m1) ** 2 for k, v in lengths.items()) / (n1 - 1)
    loop_rounds = np.array([int(next(iter(f["rounds"]))) for f in fights])
    zs["rounds"] = (m1 - loop_rounds.mean()) / math.sqrt(v1 / n1 + loop_rounds.var(ddof=1) / n2 + 1e-12)
    for side in sides:
        for name in ("hits", "injuries", "ranks_lost"):
            zs[f"{name} {side}"] = per_fight_z(fast, fights, f"{name}:{side}")
    zs["kills"] = per_fight_z(fast, fights, "kills")  # the summary's kia_rate: a killed fighter is killed once
    for ident in ids:
        for status in ("killed", "out_of_action"):
            zs[f"{ident} {status}"] = proportion_z(fast["status"][ident].get(status, 0), n1,
                                                   sum(f["status"][ident] == {status: 1} for f in fights), n2)
    return zs


def compare(name, resolver_fights, engine_fights, seed):
    """Matchup `name` played both ways: every statistic's z (also what `make bench-differential` runs)."""
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    fast = engine.simulate(parsed, engine_fights, np.random.default_rng(seed))
    fights = loop_fights(parsed, resolver_fights, seed)
    return statistics(fast, fights, [c["side"] for c in parsed.combatants], [c["id"] for c in parsed.combatants])


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_agrees_with_the_resolver_loop(name):
    zs = compare(name, LOOP_FIGHTS, ENGINE_FIGHTS, 17)
    assert all(abs(z) <= 4 for z in zs.values()), {k: round(v, 2) for k, v in zs.items()}


def test_the_tally_has_the_loops_shape():
    parsed = RULESET.duel.read_matchup(MATCHUPS["lopsided, heroic soak"])
    fast = engine.simulate(parsed, 50, np.random.default_rng(1))
    one = fight(RULESET, parsed, random.Random(1))
    assert set(fast) == set(one)
    assert {"traumas", "killing_blows", "kills", "actions", "rounds"} <= set(fast["details"])
    assert fast["trials"] == 50 == sum(fast["rounds"].values()) == sum(fast["wins"].values()) + fast["draws"]
    assert all(sum(v.values()) == 50 for v in fast["status"].values())


def test_matchups_it_cannot_play_go_to_the_loop(monkeypatch):
    three = {"sides": [{"name": "red", "combatants": [fighter("a"), fighter("b", held_die=4)]},
                       {"name": "blue", "combatants": [fighter("c")]}]}
    assert not engine.accepts(RULESET.duel.read_matchup(three))
    for who in (fighter("a", flags={"stunned": True}), fighter("a", held_die=5),
                fighter("a", defence_pool={"type": "parry", "successes": 2}), fighter("a", xposures={"parry": 3})):
        assert not engine.accepts(RULESET.duel.read_matchup(duel(who, fighter("b")))), who
    loop = engine.simulate(RULESET.duel.read_matchup(three), 3, np.random.default_rng(2))
    assert loop["trials"] == 3 and set(loop["status"]) == {"a", "b", "c"}


def test_every_option_is_played_or_provably_unread_and_a_new_one_goes_to_the_loop(monkeypatch):
    from service.rules.options import OptionSpec
    from service.sim.engines.smoting import cover

    for name, spec in cover.OPTIONS.items():
        assert name in cover.COVERED or name in cover.IRRELEVANT or len(spec.choices or ()) == 1, name
    parsed = RULESET.duel.read_matchup({**MATCHUPS["equal"], "options": {"advantage_dice": 2, "fired_max_zones": 0}})
    assert engine.accepts(parsed)
    monkeypatch.setitem(cover.OPTIONS, "grit", OptionSpec(False, "DEF", "A rule the engine has never heard of.", "bool"))
    assert engine.accepts(parsed.__class__(**{**parsed.__dict__, "options": {**parsed.options, "grit": False}}))
    assert not engine.accepts(parsed.__class__(**{**parsed.__dict__, "options": {**parsed.options, "grit": True}}))


@pytest.mark.parametrize("success_min, explode", [(5, True), (4, False), (2, True), (6, True)])
def test_the_pool_tables_are_the_exact_odds(success_min, explode):
    from service.rules.smoting import pools
    from service.sim.engines.smoting import dice

    keep, other = dice._pools(success_min, explode)
    width = dice.MOST
    for n in (0, 1, 4, 9, 25, dice.BIGGEST):
        row = keep[n * width:(n + 1) * width] / width
        np.add.at(row, other[n * width:(n + 1) * width], (1 - keep[n * width:(n + 1) * width]) / width)
        for k in range(12):
            assert row[k] == pytest.approx(float(pools.exactly(n, k, success_min, explode)), abs=1e-12)


def test_action_dice_states_are_the_exact_odds_of_the_best_eight():
    from itertools import product

    from service.sim.engines.smoting import hands

    for count in (1, 4):
        states, odds = hands.rolled(count, False)
        brute = {}
        for faces in product(range(1, 7), repeat=count):
            key = hands.INDEX[tuple(faces.count(f) for f in range(1, 7))]
            brute[key] = brute.get(key, 0) + 6.0 ** -count
        assert dict(zip(states.tolist(), odds.tolist())) == pytest.approx(brute)
    states, odds = hands.rolled(10, False)
    assert all(hands.SIZE[s] == 8 for s in states) and odds.sum() == pytest.approx(1)
    eight_sixes = hands.INDEX[(0, 0, 0, 0, 0, 8)]
    assert dict(zip(states.tolist(), odds.tolist()))[eight_sixes] == pytest.approx(
        sum(math.comb(10, k) * 5 ** (10 - k) for k in range(8, 11)) / 6 ** 10)


def test_pools_beyond_the_table_are_drawn_from_the_same_distribution():
    from service.sim.engines.smoting import dice

    pools = dice.Pools(np.random.default_rng(4), {"success_min": 5, "explode": True})
    big = pools.successes(np.array([dice.BIGGEST + 20] * 40000 + [0]))
    assert big[-1] == 0
    mean, sd = (dice.BIGGEST + 20) * 2 / 5, math.sqrt((dice.BIGGEST + 20) * 0.4 / 40000)  # one die: 0.24 + 0.16
    assert abs(big[:-1].mean() - mean) < 5 * sd
