"""The `rq3` default data pack: what the seed takes from the RuneQuest 3 core book, as data files.

Each table is loaded once from `data/` and handed out as plain JSON-ready values; a game master with the
core book replaces any of them by sending the whole table as an option (rules document, §10 Options).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
LOCATIONS = ("right_leg", "left_leg", "abdomen", "chest", "right_arm", "left_arm", "head")
LIMBS = ("right_leg", "left_leg", "right_arm", "left_arm")


@cache
def load(name: str) -> Any:
    """One data file of the pack, parsed once (callers must not change what they get)."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def melee_locations() -> list[dict[str, Any]]:
    """RQ3 humanoid melee hit locations (d20) [CORE]."""
    return load("melee_locations")["rows"]


def missile_locations() -> list[dict[str, Any]]:
    """RQ3 humanoid missile hit locations (d20) [CORE]."""
    return load("missile_locations")["rows"]


def dex_sr() -> list[dict[str, Any]]:
    """RQ3 DEX strike ranks [CORE] (rules document §8, Melee phase)."""
    return load("dex_sr")["rows"]


def siz_sr() -> list[dict[str, Any]]:
    """RQ3 SIZ strike ranks [CORE] (rules document §8, Melee phase)."""
    return load("siz_sr")["rows"]


def damage_bonus() -> list[dict[str, Any]]:
    """RQ3 damage bonus by STR + SIZ [CORE] (rules document §5)."""
    return load("damage_bonus")["rows"]


def location_hp() -> dict[str, Any]:
    """RQ3 Game Sheet location hit points by total HP, and the +1 per 3 HP step above it [CORE/DEF]."""
    data = load("location_hp")
    return {"rows": data["rows"], "above_step": data["above_step"]}


def armor() -> dict[str, int]:
    """Armor points of named armor pieces [CORE] (*Page 68* names four of them)."""
    return load("armor")["pieces"]


def weapons() -> dict[str, dict[str, Any]]:
    """The starter weapon list (RQ3 broadsword, the text's javelin and daggers, the rest invented)."""
    return load("weapons")["weapons"]


def shields() -> dict[str, dict[str, Any]]:
    """The starter shield list (invented AP) [DEF]."""
    return load("shields")["shields"]


def assumptions() -> list[dict[str, Any]]:
    """One row per inferred, core or invented item of the rules document."""
    return load("assumptions")
