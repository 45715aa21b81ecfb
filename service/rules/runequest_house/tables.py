"""Tables served at `GET /v1/rulesets/runequest-house/tables/{name}` (rules document §11)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.rules.rounding import round_half_up
from service.rules.runequest_house import pack


def degrees() -> list[dict[str, int]]:
    """Critical, special and fumble bands by skill 1..100 (RQ3 core fractions, for reference)."""
    rows = []
    for skill in range(1, 101):
        count = 1 if skill >= 100 else max(1, round_half_up((100 - skill) / 20))
        rows.append({"skill": skill, "critical": max(1, round_half_up(skill / 20)),
                     "special": max(1, round_half_up(skill / 5)), "fumble_from": 101 - count})
    return rows


def _location_hp() -> list[dict[str, Any]]:
    return pack.location_hp()["rows"]


TABLES: dict[str, Callable[[], Any]] = {
    "melee-locations": pack.melee_locations, "missile-locations": pack.missile_locations,
    "dex-sr": pack.dex_sr, "siz-sr": pack.siz_sr, "damage-bonus": pack.damage_bonus,
    "location-hp": _location_hp, "armor": pack.armor, "weapons": pack.weapons, "shields": pack.shields,
    "degrees": degrees,
}
TITLES = {
    "melee-locations": "Hit locations, melee (d20) [CORE RQ3]",
    "missile-locations": "Hit locations, missiles (d20) [CORE RQ3]",
    "dex-sr": "DEX strike rank [CORE RQ3]", "siz-sr": "SIZ strike rank [CORE RQ3]",
    "damage-bonus": "Damage bonus by STR + SIZ [CORE RQ3]",
    "location-hp": "Location hit points by total HP [CORE RQ3 Game Sheet]",
    "armor": "Armor points of named pieces [CORE]", "weapons": "Starter weapons [CORE/DEF]",
    "shields": "Starter shields [DEF]", "degrees": "Critical, special and fumble bands by skill [CORE RQ3]",
}
