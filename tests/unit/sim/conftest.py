"""Matchups shared by the simulator tests."""
from __future__ import annotations

import copy

import pytest


def fighter(name: str, av: int, parry: int, dodge: int, armor: list[dict] | None = None, **attrs) -> dict:
    """A combatant in the encounter-state format with sensible attributes."""
    base = {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11}
    base.update(attrs)
    return {"id": name, "attributes": base, "mods": {"AWA": 1, "HRT": 0},
            "weapons": [{"name": "sword", "av": av, "parry": parry, "size": 6, "weight_class": 2}],
            "dodge_dv": dodge, "armor": armor or []}


KNIGHT = fighter("knight", 70, 45, 20, [{"type": "doublemail", "dr": 20, "durability": 40},
                                         {"type": "padded", "dr": 10}], STR=16, mSTA=14, CND=15, HRT=14)


def matchup(*sides: list[dict], **options) -> dict:
    body = {"sides": [{"name": f"side-{i}", "combatants": copy.deepcopy(c)} for i, c in enumerate(sides)]}
    if options:
        body["options"] = options
    return body


@pytest.fixture()
def duel() -> dict:
    """Two evenly matched swordsmen in padding: long enough fights to exercise every rule."""
    pad = [{"type": "padded", "dr": 10}]
    return matchup([fighter("a", 55, 35, 20, pad)], [fighter("b", 55, 35, 20, pad)])


@pytest.fixture()
def knight_vs_bandits() -> dict:
    bandit = fighter("bandit", 45, 25, 15, [{"type": "padded", "dr": 10}])
    return matchup([KNIGHT], [dict(bandit, id=f"bandit-{i}") for i in range(3)])
