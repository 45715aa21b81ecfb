"""The smoting tables as package data, loaded once and checked on load (seed *Cover*, *Mobs, Crowds and
Hordes*, *Injury Table*, *Effects Table.*; the tables the seed announces but does not print are [DEF])."""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

FILES = {"cover": "cover.json", "groups": "groups.json", "injury-locations": "injury_locations.json",
         "injury-effects": "injury_effects.json", "armor-resist": "armor_resist.json",
         "shields": "shields.json", "weapons": "weapons.json"}


@cache
def load(name: str) -> dict[str, Any]:
    """One table file (seed headings in each file's title), checked for the keys every reader uses."""
    data = json.loads(resources.files(__package__).joinpath("data").joinpath(FILES[name]).read_text())
    if "title" not in data:
        raise ValueError(f"table {name} has no title")
    return data


def cover_dice() -> dict[str, tuple[int, bool]]:
    """Cover name -> (attack dice removed, re-rolls allowed) (seed *Cover*)."""
    return {row["cover"]: (row["dice"], row["rerolls"]) for row in load("cover")["rows"]}


@cache
def groups() -> dict[str, dict[str, int]]:
    """Group name -> rank levels, dice and attacks (seed *Mobs, Crowds and Hordes*); one shared, read-only
    dict (the round asks for it on every attack)."""
    return {row["group"]: row for row in load("groups")["rows"]}


def weapons() -> dict[str, dict[str, Any]]:
    """Weapon name -> damage dice, speed and size ([DEF] pack; seed *Action Costs*, *Damage*)."""
    return {row["weapon"]: row for row in load("weapons")["rows"]}


def data(name: str) -> Any:
    """A table as the catalogue serves it: its rows, or its parts without the title."""
    table = load(name)
    return table["rows"] if isinstance(table.get("rows"), list) else {k: v for k, v in table.items() if k != "title"}
