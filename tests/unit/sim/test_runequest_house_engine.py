"""The vectorised runequest-house engine against the round-resolver loop it stands in for (differential
test), on duels and group fights (1 vs 2, 2 vs 2, 3 vs 3, three sides): win and draw shares, mean rounds,
falls, fumbles, criticals, damage per fight and every figure's status; |z| > 4 fails."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from service.rules.runequest_house import RULESET
from service.sim.engines import runequest_house as engine
from service.sim.rounds import play


def fighter(ident, side, dex, weapon, shield=None, **extra):
    return {"id": ident, "side": side, "characteristics": {"str": 14, "con": 13, "siz": 13, "int": 12, "dex": dex},
            "weapons": [weapon], "shield": shield, **extra}


SWORD = {"name": "broadsword", "attack": 70, "parry": 45}
MATCHUPS = {
    "sword and shield against a mace": {"sides": [
        {"name": "red", "combatants": [fighter("ann", "red", 15, SWORD, {"size": "medium", "ap": 12, "parry": 60},
                                               armor={"chest": ["ringmail", "soft_leather"], "head": [5]})]},
        {"name": "blue", "combatants": [fighter("bob", "blue", 10, {"name": "mace", "attack": 60, "parry": 45})]}]},
    "dodging dagger against a flail, same SR": {"options": {"duel_declaration": "attack_dodge"}, "sides": [
        {"name": "red", "combatants": [fighter("cat", "red", 12, {"name": "dagger", "attack": 75, "parry": 30, "sr": 1},
                                               skills={"dodge": 60})]},
        {"name": "blue", "combatants": [fighter("dan", "blue", 12, {"name": "flail", "attack": 65, "parry": 0, "sr": 1},
                                                skills={"dodge": 30})]}]},
    "long spear against a buckler, no parry weapon": {"sides": [
        {"name": "red", "combatants": [fighter("eve", "red", 11, {"name": "long_spear", "attack": 65, "parry": 40},
                                               protection=2)]},
        {"name": "blue", "combatants": [fighter("fay", "blue", 16, {"name": "broadsword", "attack": 55, "parry": 0},
                                                {"size": "buckler", "ap": 8, "parry": 50},
                                                armor={loc: ["chainmail"] for loc in ("chest", "abdomen", "head")})]}]},
}
# Group fights: the first foe able to fight at the round's start, strike-rank order (one SR and DEX together),
# a defender's one defence against the first attack on him, later attacks undefended.
MACE = {"name": "mace", "attack": 60, "parry": 45}
MATCHUPS["1 vs 2"] = {"sides": [
    {"name": "red", "combatants": [fighter("hero", "red", 16, {**SWORD, "attack": 90, "parry": 70},
                                           {"size": "medium", "ap": 12, "parry": 70}, armor={"chest": ["ringmail"]})]},
    {"name": "blue", "combatants": [fighter("b1", "blue", 10, MACE), fighter("b2", "blue", 12, SWORD)]}]}
MATCHUPS["2 vs 2, dodging"] = {"options": {"duel_declaration": "attack_dodge"}, "sides": [
    {"name": "red", "combatants": [fighter("r1", "red", 12, SWORD, skills={"dodge": 50}),
                                   fighter("r2", "red", 12, {"name": "flail", "attack": 60, "parry": 0})]},
    {"name": "blue", "combatants": [fighter("b1", "blue", 14, MACE, skills={"dodge": 40}),
                                    fighter("b2", "blue", 9, SWORD)]}]}
MATCHUPS["3 vs 3"] = {"sides": [
    {"name": "red", "combatants": [fighter(f"r{i}", "red", 10 + 2 * i, SWORD) for i in range(3)]},
    {"name": "blue", "combatants": [fighter(f"b{i}", "blue", 11 + i, MACE, {"size": "medium", "ap": 12, "parry": 50})
                                    for i in range(3)]}]}
MATCHUPS["three sides, a flail against shields"] = {"sides": [
    {"name": "red", "combatants": [fighter("r", "red", 12, {"name": "flail", "attack": 70, "parry": 0})]},
    {"name": "blue", "combatants": [fighter("b", "blue", 12, SWORD, {"size": "large", "ap": 16, "parry": 60})]},
    {"name": "green", "combatants": [fighter("g", "green", 14, MACE, {"size": "medium", "ap": 12, "parry": 55})]}]}
RESOLVER_FIGHTS = {"1 vs 2": 700, "2 vs 2, dodging": 600, "3 vs 3": 500, "three sides, a flail against shields": 600}


def rounds_mean_var(tally):
    lengths = {int(k): v for k, v in tally["rounds"].items()}
    n = tally["trials"]
    mean = sum(k * v for k, v in lengths.items()) / n
    return mean, sum(v * (k - mean) ** 2 for k, v in lengths.items()) / max(n - 1, 1)


def proportion_z(a, n1, b, n2):
    p = (a + b) / (n1 + n2)
    se = math.sqrt(max(p * (1 - p) * (1 / n1 + 1 / n2), 1e-12))
    return (a / n1 - b / n2) / se


def rate_z(a, n1, b, n2):
    se = math.sqrt(max(a / n1 ** 2 + b / n2 ** 2, 1e-12))
    return (a / n1 - b / n2) / se


def compare(name, resolver_fights, engine_fights, seed):
    """Matchup `name` played both ways: every statistic's z (also what `make bench-differential` runs)."""
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    fast = engine.simulate(parsed, engine_fights, np.random.default_rng(seed))
    slow = play(RULESET, parsed, resolver_fights, random.Random(seed))
    n1, n2 = fast["trials"], slow["trials"]
    sides = list(dict.fromkeys(c["side"] for c in parsed.combatants))
    zs = {f"{side} wins": proportion_z(fast["wins"].get(side, 0), n1, slow["wins"].get(side, 0), n2) for side in sides}
    zs["draws"] = proportion_z(fast["draws"], n1, slow["draws"], n2)
    (m1, v1), (m2, v2) = rounds_mean_var(fast), rounds_mean_var(slow)
    zs["rounds"] = (m1 - m2) / math.sqrt(max(v1 / n1 + v2 / n2, 1e-12))
    for key in ("fumbles", "criticals", "knockback_falls"):
        zs[key] = rate_z(fast["details"].get(key, 0), n1, slow["details"].get(key, 0), n2)
    for side in sides:
        a = sum(v for k, v in fast["details"].items() if k.startswith(f"location_damage|{side}|"))
        b = sum(v for k, v in slow["details"].items() if k.startswith(f"location_damage|{side}|"))
        zs[f"damage to {side}"] = (a / n1 - b / n2) / (0.05 * max(a / n1, b / n2, 1) + 0.15)  # loose: no variance kept
    for who in slow["status"]:
        for status in set(slow["status"][who]) | set(fast["status"][who]):
            zs[f"{who} {status}"] = proportion_z(fast["status"][who].get(status, 0), n1,
                                                 slow["status"][who].get(status, 0), n2)
    return zs


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_agrees_with_the_resolver_loop(name):
    zs = compare(name, RESOLVER_FIGHTS.get(name, 1200), 20000, 5)
    assert all(abs(z) <= 4 for z in zs.values()), zs


def test_matchups_it_cannot_play_go_to_the_loop():
    three = {"sides": [{"name": "red", "combatants": [fighter("a", "red", 10, SWORD), fighter("b", "red", 10, SWORD)]},
                       {"name": "blue", "combatants": [fighter("c", "blue", 10, SWORD)]}]}
    assert engine.accepts(RULESET.duel.read_matchup(three))
    changed = {**MATCHUPS["sword and shield against a mace"], "options": {"special_damage": "none"}}
    assert not engine.accepts(RULESET.duel.read_matchup(changed))
    placed = {"sides": [{"name": "red", "combatants": [fighter("a", "red", 10, SWORD, position={"q": 0, "r": 0})]},
                        {"name": "blue", "combatants": [fighter("c", "blue", 10, SWORD)]}]}
    assert not engine.accepts(RULESET.duel.read_matchup(placed))
