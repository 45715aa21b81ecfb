"""Derived figures of a combatant: strike ranks, damage bonus, hit points (rules document §5, §8; RQ3 core)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from service.rules.errors import RulesError
from service.rules.runequest_house.pack import LOCATIONS


def lookup(rows: list[Mapping[str, Any]], value: int, payload: str, field: tuple = ()) -> Any:
    """The payload of the `{min, max}` row holding `value` (422 when the table does not cover it)."""
    for row in rows:
        if row["min"] <= value <= row["max"]:
            return row[payload]
    raise RulesError(f"{value} is outside the table", field or None)


def dex_sr(dex: int, options: Mapping[str, Any]) -> int:
    """DEX strike rank [CORE] (*3) Melee Phase*: 1-5 -> 5 ... 19+ -> 0)."""
    return lookup(options["dex_sr_table"], dex, "sr", ("characteristics", "dex"))


def siz_sr(siz: int, options: Mapping[str, Any]) -> int:
    """SIZ strike rank [CORE] (*3) Melee Phase*: 1-6 -> 3 ... 22+ -> 0)."""
    return lookup(options["siz_sr_table"], siz, "sr", ("characteristics", "siz"))


def damage_bonus(strength: int, size: int, options: Mapping[str, Any]) -> str:
    """Damage bonus by STR + SIZ [CORE]: 2-12 -1d4, 13-24 none, 25-32 +1d4, 33-40 +1d6, 41-56 +2d6, +1d6 per 16."""
    return lookup(options["damage_bonus_table"], strength + size, "bonus", ("characteristics", "str"))


def hit_points(con: int, size: int) -> int:
    """Total HP = (CON + SIZ)/2 rounded up [CORE]."""
    return math.ceil((con + size) / 2)


def location_hp(total: int, options: Mapping[str, Any]) -> dict[str, int]:
    """Each location's HP from the chart by total HP; above the chart +1 to every location per
    `above_step` HP [CORE chart; DEF extension]."""
    table = options["location_hp_table"]
    rows = table["rows"]
    for row in rows:
        if row["min_hp"] <= total <= row["max_hp"]:
            return {loc: row[loc] for loc in LOCATIONS}
    last = rows[-1]
    extra = max(0, math.ceil((total - last["max_hp"]) / table["above_step"]))
    return {loc: last[loc] + extra for loc in LOCATIONS}


def melee_sr(dex: int, size: int, weapon_sr: int, options: Mapping[str, Any]) -> int:
    """Melee SR = DEX SR + SIZ SR + weapon SR [CORE] (*3) Melee Phase*)."""
    return dex_sr(dex, options) + siz_sr(size, options) + weapon_sr


def second_attack_sr(first: int) -> int:
    """The second blow of one weapon: 3 SR after the first, or SR 10 from SR 8 on (*1) Statement of Intent*)."""
    return min(first + 3, 10)


def spell_sr(dex: int, magic_points: int, options: Mapping[str, Any]) -> int:
    """A spell's SR: DEX SR + magic points, or + (MP - 1) under `spell_sr_formula` [CORE, doubtful]."""
    extra = magic_points - (1 if options["spell_sr_formula"] == "dex_plus_mp_minus_one" else 0)
    return dex_sr(dex, options) + extra
