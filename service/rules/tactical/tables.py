"""The seed's tables as package data (`data/*.json`), each loaded once and checked on load.

Every file holds {"title", "source", ...rows}; the module that uses a table turns its rows into
typed values. Tests compare each file with the seed text row by row.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Callable

# table name (as served at /v1/rulesets/tactical/tables/{name}) -> data file
FILES: dict[str, str] = {
    "task-resolution": "task_resolution.json",
    "weapon-db": "weapon_db.json",
    "weapon-dm": "weapon_dm.json",
    "armor-dr": "armor_dr.json",
    "armor-dr-wear": "armor_dr_wear.json",
    "pulse-conversions": "pulse_conversions.json",
    "range-bands": "range_bands.json",
    "thrown-object-range": "thrown_object_range.json",
    "falling-pulses": "falling_pulses.json",
    "action-times": "action_times.json",
}


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed data file of table `name`, read once from the package and checked for its header."""
    text = resources.files(__package__).joinpath("data", FILES[name]).read_text(encoding="utf-8")
    data = json.loads(text)
    missing = {"title", "source"} - set(data)
    if missing:
        raise ValueError(f"table {name} lacks {sorted(missing)}")
    return data


def _present() -> dict[str, str]:
    data = resources.files(__package__).joinpath("data")
    return {name: file for name, file in FILES.items() if data.joinpath(file).is_file()}


def _loader(name: str) -> Callable[[], Any]:
    return lambda: load(name)


CATALOG: dict[str, tuple[str, Callable[[], Any]]] = {
    name: (name.replace("-", " ").capitalize(), _loader(name)) for name in _present()
}
