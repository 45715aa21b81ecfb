"""Options of `runequest-house`: every [CORE], [INF] and [DEF] ruling of the rules document (§10), typed.

Tables of the `rq3` pack are options too: a caller replaces one by sending the whole table in the shape
`GET /v1/rulesets/runequest-house/tables/{name}` serves, checked here (422 names the bad entry).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.rules.errors import Contradiction, RulesError
from service.rules.options import OptionSpec, whole
from service.rules.runequest_house import option_shapes as shapes
from service.rules.runequest_house import pack
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.pack import LOCATIONS

Path = tuple[str | int, ...]
FRACTION = re.compile(r"^\d{1,4}(/\d{1,4})?$")
ACTIONS, WEAPON_TYPES, WEAPON_KINDS, SHIELD_SIZES = (shapes.ACTIONS, shapes.WEAPON_TYPES, shapes.WEAPON_KINDS,
                                                     shapes.SHIELD_SIZES)


@lru_cache(maxsize=256)
def fraction(text: str) -> Fraction:
    """An option's fraction string ("3/4", "1") as an exact Fraction."""
    return Fraction(text)


def read_fraction(value: Any, path: Path, low: Fraction = Fraction(0), high: Fraction = Fraction(1)) -> str:
    """A fraction string "p/q" or "n" between `low` and `high` (rules document §10)."""
    if not isinstance(value, str) or not FRACTION.match(value) or value.endswith("/0"):
        raise RulesError('must be a fraction string like "1/2"', path)
    if not low <= Fraction(value) <= high:
        raise Contradiction(f"must be between {low} and {high}", path)
    return value


def _object(value: Any, path: Path) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RulesError("must be an object", path)
    return value


def _list(value: Any, path: Path, minimum: int = 1, maximum: int = 300) -> list[Any]:
    if not isinstance(value, list) or not minimum <= len(value) <= maximum:
        raise RulesError(f"must be a list of {minimum} to {maximum} entries", path)
    return value


def _keys(value: Mapping[str, Any], keys: tuple[str, ...], path: Path) -> None:
    for key in value:
        if key not in keys:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    for key in keys:
        if key not in value:
            raise RulesError("missing field", (*path, key))


def _ranges(value: Any, path: Path, first: int, last: int, payload: str, read: Any) -> list[dict[str, Any]]:
    """Rows `{min, max, <payload>}` covering first..last without gaps or overlaps."""
    rows = _list(value, path)
    out, expect = [], first
    for i, row in enumerate(rows):
        where = (*path, i)
        row = _object(row, where)
        _keys(row, ("min", "max", payload), where)
        low, high = whole(row["min"], (*where, "min")), whole(row["max"], (*where, "max"))
        if low != expect:
            raise Contradiction(f"rows must be contiguous: this one must start at {expect}", (*where, "min"))
        if high < low:
            raise Contradiction("max must not be below min", (*where, "max"))
        out.append({"min": low, "max": high, payload: read(row[payload], (*where, payload))})
        expect = high + 1
    if expect <= last:
        raise Contradiction(f"the rows must reach {last}", (*path, len(rows) - 1, "max"))
    return out


def _location(value: Any, path: Path) -> str:
    if value not in LOCATIONS:
        raise RulesError(f"must be one of {list(LOCATIONS)}", path)
    return value


def _sr(value: Any, path: Path) -> int:
    return whole(value, path, 0, 20)


def _bonus(value: Any, path: Path) -> str:
    parse(value, path)
    return value


def read_locations(value: Any, path: Path) -> list[dict[str, Any]]:
    """A d20 hit-location table: rows 1..20 naming the seven humanoid locations."""
    return _ranges(value, path, 1, 20, "location", _location)


def read_sr_table(value: Any, path: Path) -> list[dict[str, Any]]:
    """A DEX or SIZ strike-rank table: rows covering 1..100."""
    return _ranges(value, path, 1, 100, "sr", _sr)


def read_damage_bonus(value: Any, path: Path) -> list[dict[str, Any]]:
    """A damage-bonus table: rows covering STR + SIZ 2..200."""
    return _ranges(value, path, 2, 200, "bonus", _bonus)


def read_location_hp(value: Any, path: Path) -> dict[str, Any]:
    """The location-HP chart: `{rows: [{min_hp, max_hp, <seven locations>}], above_step}`."""
    value = _object(value, path)
    _keys(value, ("rows", "above_step"), path)
    rows, expect, out = _list(value["rows"], (*path, "rows")), 1, []
    for i, row in enumerate(rows):
        where = (*path, "rows", i)
        row = _object(row, where)
        _keys(row, ("min_hp", "max_hp", *LOCATIONS), where)
        low, high = whole(row["min_hp"], (*where, "min_hp")), whole(row["max_hp"], (*where, "max_hp"))
        if low != expect or high < low:
            raise Contradiction(f"rows must be contiguous from 1 (this one from {expect})", (*where, "min_hp"))
        out.append({"min_hp": low, "max_hp": high,
                    **{loc: whole(row[loc], (*where, loc), 1, 100) for loc in LOCATIONS}})
        expect = high + 1
    return {"rows": out, "above_step": whole(value["above_step"], (*path, "above_step"), 1, 20)}


def read_armor_pack(value: Any, path: Path) -> dict[str, int]:
    """Named armor pieces and their AP (0..30)."""
    value = _object(value, path)
    if not 1 <= len(value) <= 100:
        raise RulesError("must name 1 to 100 pieces", path)
    return {str(name): whole(ap, (*path, name), 0, 30) for name, ap in value.items()}


WEAPON_FIELDS = {"damage": None, "type": None, "sr": 0, "length_m": 1, "ap": 10, "hands": 1, "flexible": False,
                 "bladed": False, "hafted": False, "long_hafted": False, "hacking": False, "kind": "melee",
                 "effective_range_m": None}


def read_weapon_stats(value: Any, path: Path) -> dict[str, Any]:
    """One weapon's statistics (the pack's shape; `damage` and `type` required)."""
    value = _object(value, path)
    for key in value:
        if key not in WEAPON_FIELDS:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    out = {**WEAPON_FIELDS, **value}
    out["damage"] = _bonus(out["damage"], (*path, "damage"))
    if out["type"] not in WEAPON_TYPES:
        raise RulesError(f"must be one of {list(WEAPON_TYPES)}", (*path, "type"))
    if out["kind"] not in WEAPON_KINDS:
        raise RulesError(f"must be one of {list(WEAPON_KINDS)}", (*path, "kind"))
    out["sr"] = whole(out["sr"], (*path, "sr"), 0, 10)
    out["ap"] = whole(out["ap"], (*path, "ap"), 0, 60)
    out["hands"] = whole(out["hands"], (*path, "hands"), 1, 2)
    for flag in ("flexible", "bladed", "hafted", "long_hafted", "hacking"):
        if not isinstance(out[flag], bool):
            raise RulesError("must be true or false", (*path, flag))
    for number in ("length_m", "effective_range_m"):
        item = out[number]
        if item is not None and (isinstance(item, bool) or not isinstance(item, (int, float)) or not 0 <= item <= 1000):
            raise RulesError("must be a number 0..1000", (*path, number))
    return out


def read_weapon_pack(value: Any, path: Path) -> dict[str, Any]:
    """`{weapons: {name: stats}, shields: {name: {size, ap}}}`: the starter weapons and shields."""
    value = _object(value, path)
    _keys(value, ("weapons", "shields"), path)
    weapons = _object(value["weapons"], (*path, "weapons"))
    shields = _object(value["shields"], (*path, "shields"))
    out_shields = {}
    for name, shield in shields.items():
        where = (*path, "shields", name)
        shield = _object(shield, where)
        _keys(shield, ("size", "ap"), where)
        if shield["size"] not in SHIELD_SIZES:
            raise RulesError(f"must be one of {list(SHIELD_SIZES)}", (*where, "size"))
        out_shields[str(name)] = {"size": shield["size"], "ap": whole(shield["ap"], (*where, "ap"), 0, 60)}
    return {"weapons": {str(n): read_weapon_stats(w, (*path, "weapons", n)) for n, w in weapons.items()},
            "shields": out_shields}


def read_degree_fractions(value: Any, path: Path) -> dict[str, str]:
    """`{critical, special, fumble}` fraction strings of the skill (or of 100 - skill for fumbles)."""
    value = _object(value, path)
    _keys(value, ("critical", "special", "fumble"), path)
    return {key: read_fraction(value[key], (*path, key)) for key in ("critical", "special", "fumble")}


def read_clamp(value: Any, path: Path) -> list[int]:
    """`[low, high]` percentages of the resistance table."""
    value = _list(value, path, 2, 2)
    low, high = whole(value[0], (*path, 0), 0, 100), whole(value[1], (*path, 1), 0, 100)
    if low > high:
        raise Contradiction("low must not exceed high", (*path, 1))
    return [low, high]


def read_shield_cover(value: Any, path: Path) -> dict[str, int]:
    """Locations each shield size covers instead of parrying."""
    value = _object(value, path)
    _keys(value, SHIELD_SIZES, path)
    return {size: whole(value[size], (*path, size), 0, 7) for size in SHIELD_SIZES}


def read_small_shield_missile(value: Any, path: Path) -> dict[str, str]:
    """`{normal, point_blank}`: a fraction string or "critical_only" for each range."""
    value = _object(value, path)
    _keys(value, ("normal", "point_blank"), path)
    return {key: value[key] if value[key] == "critical_only" else read_fraction(value[key], (*path, key))
            for key in ("normal", "point_blank")}


def _fraction_option(default: str, tag: str, summary: str) -> OptionSpec:
    return OptionSpec(default, tag, summary, reader=read_fraction, schema=shapes.FRACTION)


OPTIONS: dict[str, OptionSpec] = {
    "auto_success_max": OptionSpec(5, "CORE", "Highest d100 roll that always succeeds.", "int", minimum=0, maximum=50),
    "auto_failure_min": OptionSpec(96, "CORE", "Lowest d100 roll that always fails.", "int", minimum=51, maximum=101),
    "rounding": OptionSpec("half_up", "CORE", "Fractions of .5 or more round up.", "enum", choices=("half_up",)),
    "degree_fractions": OptionSpec({"critical": "1/20", "special": "1/5", "fumble": "1/20"}, "CORE",
                                   "Critical and special as fractions of the skill, fumble count of 100 - skill.",
                                   reader=read_degree_fractions, schema=shapes.DEGREE_FRACTIONS),
    "resistance_clamp": OptionSpec([5, 95], "DEF", "Lowest and highest chance on the resistance table.",
                                   reader=read_clamp, schema=shapes.CLAMP),
    "same_sr_dodge_penalty": OptionSpec(20, "DEF", "Dodge penalty per extra attack landing on the same SR.", "int",
                                        minimum=0, maximum=50),
    "parry_weapon_damage": OptionSpec(1, "DEF", "AP a bladed parry takes off a failed attacking weapon.", "int",
                                      minimum=0, maximum=5),
    "critical_ignores_parry_ap": OptionSpec(False, "DEF", "Whether a critical attack also ignores the parrying "
                                                          "item's AP.", "bool"),
    "point_blank_fraction": _fraction_option("1/10", "DOC", "Point blank as a fraction of effective range."),
    "moved_target_penalty": OptionSpec(10, "DEF", "Attack penalty against a target that moved (doubled at "
                                                  "point blank).", "int", minimum=0, maximum=100),
    "fast_target_penalty": OptionSpec(20, "DEF", "Attack penalty against a fast-moving target (doubled at point "
                                                 "blank).", "int", minimum=0, maximum=100),
    "shield_cover_locations": OptionSpec({"buckler": 1, "small": 2, "medium": 2, "hoplite": 3, "large": 3}, "DEF",
                                         "Locations a shield covers instead of parrying.", reader=read_shield_cover,
                                         schema=shapes.SHIELD_COVER),
    "closed_long_weapon_factor": _fraction_option("1/2", "DEF", "Attack factor of a closed wielder of a weapon of "
                                                                "2 m or more."),
    "prone_attack_penalty": OptionSpec(20, "DEF", "Attack penalty of a prone attacker.", "int", minimum=0,
                                       maximum=100),
    "attack_prone_bonus": OptionSpec(20, "DEF", "Attack bonus against a prone target.", "int", minimum=0,
                                     maximum=100),
    "special_damage": OptionSpec("rq3", "CORE", "Special success damage: impale/slash roll twice, crush maximum "
                                                "bonus (rq3), or none.", "enum", choices=("rq3", "none")),
    "knockback_damage": OptionSpec("after_parry_before_armor", "DEF", "Which damage counts for knockback.", "enum",
                                   choices=("after_parry_before_armor", "after_armor")),
    "layering": OptionSpec("half_each", "DEF", "More than two armor layers: half of each lower one, or only the "
                                               "second-highest.", "enum", choices=("half_each", "second_only")),
    "limited_rounding": OptionSpec("none", "DEF", "Rounding of the one-third movement limit.", "enum",
                                   choices=("none", "floor")),
    "modifier_order": OptionSpec("add_then_multiply", "DEF", "Additive modifiers before multipliers, or after.",
                                 "enum", choices=("add_then_multiply", "multiply_then_add")),
    "small_shield_missile_parry": OptionSpec({"normal": "1/5", "point_blank": "critical_only"}, "DEF",
                                             "Parry of projected missiles by shields smaller than a hoplite.",
                                             reader=read_small_shield_missile,
                                             schema=shapes.SMALL_SHIELD_MISSILE),
    "braced_extra_from": OptionSpec("str_plus_siz", "DEF", "Where a braced figure's extra knockback metres count "
                                                           "from.", "enum", choices=("str_plus_siz", "siz")),
    "collision_min_dice": OptionSpec(1, "DEF", "Least d6 of a knockback collision.", "int", minimum=0, maximum=3),
    "intent_actions": OptionSpec(list(ACTIONS), "DEF", "Action types a Statement of Intent may name.", "ordering",
                                 choices=ACTIONS),
    "sr_tie": OptionSpec("higher_dex_then_simultaneous", "DEF", "Order of actions on the same SR.", "enum",
                         choices=("higher_dex_then_simultaneous",)),
    "movement_sr": OptionSpec(False, "DEF", "Whether movement adds SRs (movement has its own phases).", "bool"),
    "spell_sr_formula": OptionSpec("dex_plus_mp", "CORE", "A spell's SR: DEX SR + magic points, or + (MP - 1).",
                                   "enum", choices=("dex_plus_mp", "dex_plus_mp_minus_one")),
    "fumble_effect": OptionSpec("lose_other_action", "DEF", "What a fumble does without a core fumble table.",
                                "enum", choices=("lose_other_action",)),
    "wound_consequences": OptionSpec("rq3_like", "DEF", "What a location or total HP at 0 does.", "enum",
                                     choices=("rq3_like",)),
    "duel_declaration": OptionSpec("attack_parry", "DEF", "What simulated fighters declare each round.", "enum",
                                   choices=("attack_parry", "attack_dodge")),
    "max_rounds": OptionSpec(30, "DEF", "Rounds after which a simulated fight is a draw.", "int", minimum=1,
                             maximum=1000),
    "melee_locations": OptionSpec(pack.melee_locations(), "CORE", "Melee hit-location table (d20).",
                                  reader=read_locations, schema=shapes.LOCATION_TABLE),
    "missile_locations": OptionSpec(pack.missile_locations(), "CORE", "Missile hit-location table (d20).",
                                    reader=read_locations, schema=shapes.LOCATION_TABLE),
    "dex_sr_table": OptionSpec(pack.dex_sr(), "CORE", "DEX strike ranks.", reader=read_sr_table,
                               schema=shapes.SR_TABLE),
    "siz_sr_table": OptionSpec(pack.siz_sr(), "CORE", "SIZ strike ranks.", reader=read_sr_table,
                               schema=shapes.SR_TABLE),
    "damage_bonus_table": OptionSpec(pack.damage_bonus(), "CORE", "Damage bonus by STR + SIZ.",
                                     reader=read_damage_bonus, schema=shapes.BONUS_TABLE),
    "location_hp_table": OptionSpec(pack.location_hp(), "CORE", "Location hit points by total HP.",
                                    reader=read_location_hp, schema=shapes.LOCATION_HP),
    "armor_pack": OptionSpec(pack.armor(), "CORE", "AP of named armor pieces.", reader=read_armor_pack,
                             schema=shapes.ARMOR_PACK),
    "weapon_pack": OptionSpec({"weapons": pack.weapons(), "shields": pack.shields()}, "CORE",
                              "Named weapons and shields (broadsword from RQ3, the rest mostly invented).",
                              reader=read_weapon_pack, schema=shapes.WEAPON_PACK),
}
