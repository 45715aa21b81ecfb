"""The vectorised runequest-house duel engine against the round-resolver loop it stands in for (differential
test): win and draw shares, mean rounds, falls, fumbles, criticals and damage per fight; |z| > 4 fails."""
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


@pytest.mark.parametrize("name", list(MATCHUPS))
def test_the_engine_agrees_with_the_resolver_loop(name):
    parsed = RULESET.duel.read_matchup(MATCHUPS[name])
    assert engine.accepts(parsed)
    fast = engine.simulate(parsed, 20000, np.random.default_rng(5))
    slow = play(RULESET, parsed, 1200, random.Random(5))
    n1, n2 = fast["trials"], slow["trials"]
    zs = {"red wins": proportion_z(fast["wins"].get("red", 0), n1, slow["wins"].get("red", 0), n2),
          "draws": proportion_z(fast["draws"], n1, slow["draws"], n2)}
    (m1, v1), (m2, v2) = rounds_mean_var(fast), rounds_mean_var(slow)
    zs["rounds"] = (m1 - m2) / math.sqrt(max(v1 / n1 + v2 / n2, 1e-12))
    for key in ("fumbles", "criticals", "knockback_falls"):
        zs[key] = rate_z(fast["details"].get(key, 0), n1, slow["details"].get(key, 0), n2)
    for side in ("red", "blue"):
        a = sum(v for k, v in fast["details"].items() if k.startswith(f"location_damage|{side}|"))
        b = sum(v for k, v in slow["details"].items() if k.startswith(f"location_damage|{side}|"))
        zs[f"damage to {side}"] = (a / n1 - b / n2) / (0.05 * max(a / n1, b / n2, 1) + 0.15)  # loose: no variance kept
    assert all(abs(z) <= 4 for z in zs.values()), zs


def test_matchups_it_cannot_play_go_to_the_loop():
    three = {"sides": [{"name": "red", "combatants": [fighter("a", "red", 10, SWORD), fighter("b", "red", 10, SWORD)]},
                       {"name": "blue", "combatants": [fighter("c", "blue", 10, SWORD)]}]}
    assert not engine.accepts(RULESET.duel.read_matchup(three))
    changed = {**MATCHUPS["sword and shield against a mace"], "options": {"special_damage": "none"}}
    assert not engine.accepts(RULESET.duel.read_matchup(changed))
    placed = {"sides": [{"name": "red", "combatants": [fighter("a", "red", 10, SWORD, position={"q": 0, "r": 0})]},
                        {"name": "blue", "combatants": [fighter("c", "blue", 10, SWORD)]}]}
    assert not engine.accepts(RULESET.duel.read_matchup(placed))
