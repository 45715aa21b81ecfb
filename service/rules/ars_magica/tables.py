"""The seed's tables (and the core-game and invented packs) as package data, each loaded once and checked.

Every file holds {"title", "source", ...}; the module using a table turns its rows into values. Tests
compare each file with the seed text.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

FILES: dict[str, str] = {
    "melee-totals": "melee_totals.json",
    "missile-rate": "missile_rate.json",
    "missile-fire": "missile_fire.json",
    "exceptional-blow": "exceptional_blow.json",
    "brawling-maneuvers": "brawling_maneuvers.json",
    "movement": "movement.json",
    "body-levels": "body_levels.json",
    "fatigue-levels": "fatigue_levels.json",
    "botch-attack-defence": "botch_attack_defence.json",
    "botch-damage-soak": "botch_damage_soak.json",
    "words-and-gestures": "words_and_gestures.json",
    "distraction": "distraction.json",
    "armor": "armor.json",
    "weapons": "weapons.json",
}


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed data file of table `name` (read once), checked for its title and source."""
    text = resources.files(__package__).joinpath("data", FILES[name]).read_text(encoding="utf-8")
    data = json.loads(text)
    if {"title", "source"} - set(data):
        raise ValueError(f"table {name} lacks a title or source")
    return data


def rows(name: str) -> Any:
    """The rows of table `name`."""
    return load(name)["rows"]


SERVED_AS_ROWS = frozenset({"missile-rate"})  # the document (§11) gives these tables' data as a bare list


def _loader(name: str) -> Callable[[], Any]:
    if name in SERVED_AS_ROWS:
        return lambda: rows(name)
    return lambda: load(name)


LOADERS: dict[str, Callable[[], Any]] = {name: _loader(name) for name in FILES}


def titles() -> dict[str, str]:
    """Each table's title (for the rulesets catalogue)."""
    return {name: load(name)["title"] for name in FILES}
