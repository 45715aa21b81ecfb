"""Combatants and encounter states of `runequest-house` (rules document §3), read and checked from JSON.

A combatant is kept as a plain JSON object in canonical form (every default filled in), so a state written
out and read back is the same state, and the round resolver works on copies of it.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.options import whole
from service.rules.runequest_house import stats
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.options import SHIELD_SIZES, read_weapon_stats
from service.rules.runequest_house.pack import LOCATIONS

Path = tuple[str | int, ...]
CHARACTERISTICS = ("str", "con", "siz", "int", "pow", "dex", "app")
REQUIRED = ("str", "con", "siz", "int", "dex")
SKILL_DEFAULTS = {"dodge": 15, "maneuver": 25, "ride": 5, "jump": 25, "acrobatics": 5, "breakfall": 0, "grapple": 25}
COMBATANT_FIELDS = ("id", "side", "pc", "characteristics", "mov", "skills", "weapons", "shield", "armor",
                    "protection", "hp", "location_hp", "position", "facing", "prone", "braced", "engaged_with",
                    "closed_with", "conditions", "name", "holding")


@dataclass(frozen=True)
class State:
    """One encounter: the round counter, the options in force and every combatant (canonical JSON)."""

    round: int
    options: Mapping[str, Any]
    combatants: tuple[dict[str, Any], ...]

    def by_id(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in self.combatants}


def _bool(data: Mapping[str, Any], key: str, path: Path, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RulesError("must be true or false", (*path, key))
    return value


def read_weapon(raw: Any, options: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """A combatant's weapon: `name`, `attack`, `parry` and the statistics, filled from the weapon pack by
    name where not given inline."""
    if not isinstance(raw, dict):
        raise RulesError("a weapon is an object", path)
    name = raw.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise RulesError("a weapon needs a name (1..64 characters)", (*path, "name"))
    known = options["weapon_pack"]["weapons"].get(name, {})
    stats_in = {k: v for k, v in raw.items() if k not in ("name", "attack", "parry")}
    merged = {**known, **stats_in}
    if "damage" not in merged or "type" not in merged:
        raise UnknownName(f"weapon {name!r} is not in the weapon pack: give its damage and type", (*path, "damage"))
    out = {"name": name, "attack": whole(raw.get("attack"), (*path, "attack"), 0, 300),
           "parry": whole(raw.get("parry", 0), (*path, "parry"), 0, 300)}
    out.update(read_weapon_stats(merged, path))
    parse(out["damage"], (*path, "damage"))
    return out


def read_combatant(raw: Any, options: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """One §3 combatant, checked, with defaults (POW/APP 10, MOV 3, base skills, full HP)."""
    if not isinstance(raw, dict):
        raise RulesError("a combatant is an object", path)
    for key in raw:
        if key not in COMBATANT_FIELDS:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    ident = raw.get("id")
    if not isinstance(ident, str) or not 1 <= len(ident) <= 64:
        raise RulesError("id must be a string of 1..64 characters", (*path, "id"))
    chars_in = raw.get("characteristics")
    if not isinstance(chars_in, dict):
        raise RulesError("characteristics are required", (*path, "characteristics"))
    chars = {}
    for key in CHARACTERISTICS:
        if key not in chars_in and key in REQUIRED:
            raise RulesError("required", (*path, "characteristics", key))
        chars[key] = whole(chars_in.get(key, 10), (*path, "characteristics", key), 1, 100)
    skills_in = raw.get("skills") or {}
    skills = {key: whole(skills_in.get(key, base), (*path, "skills", key), 0, 300)
              for key, base in SKILL_DEFAULTS.items()}
    weapons_in = raw.get("weapons")
    if not isinstance(weapons_in, list) or not 1 <= len(weapons_in) <= 8:
        raise RulesError("a combatant needs 1..8 weapons", (*path, "weapons"))
    weapons = [read_weapon(w, options, (*path, "weapons", i)) for i, w in enumerate(weapons_in)]
    shield = _shield(raw.get("shield"), options, (*path, "shield"))
    armor_in = raw.get("armor") or {}
    if not isinstance(armor_in, dict):
        raise RulesError("armor is an object location -> layers", (*path, "armor"))
    armor = {}
    for loc, layers in armor_in.items():
        if loc not in LOCATIONS:
            raise RulesError(f"must be one of {list(LOCATIONS)}", (*path, "armor", loc))
        if not isinstance(layers, list) or len(layers) > 5:
            raise RulesError("a list of up to 5 layers", (*path, "armor", loc))
        armor[loc] = [_layer(layer, options, (*path, "armor", loc, i)) for i, layer in enumerate(layers)]
    full = stats.hit_points(chars["con"], chars["siz"])
    full_locations = stats.location_hp(full, options)
    location_in = raw.get("location_hp") or {}
    if not isinstance(location_in, dict):
        raise RulesError("location_hp is an object", (*path, "location_hp"))
    for loc in location_in:
        if loc not in LOCATIONS:
            raise RulesError(f"must be one of {list(LOCATIONS)}", (*path, "location_hp", loc))
    location_hp = {loc: whole(location_in.get(loc, full_locations[loc]), (*path, "location_hp", loc), -200, 200)
                   for loc in LOCATIONS}
    position = raw.get("position")
    if position is not None:
        if not isinstance(position, dict) or set(position) != {"q", "r"}:
            raise RulesError("position is {q, r}", (*path, "position"))
        position = {"q": whole(position["q"], (*path, "position", "q"), -1000, 1000),
                    "r": whole(position["r"], (*path, "position", "r"), -1000, 1000)}
    conditions = raw.get("conditions") or []
    if not isinstance(conditions, list) or not all(isinstance(c, str) for c in conditions):
        raise RulesError("conditions is a list of strings", (*path, "conditions"))
    return {
        "id": ident, "side": str(raw.get("side") or ""), "pc": _bool(raw, "pc", path),
        "characteristics": chars, "mov": whole(raw.get("mov", 3), (*path, "mov"), 0, 30), "skills": skills,
        "weapons": weapons, "shield": shield, "armor": armor,
        "protection": whole(raw.get("protection", 0), (*path, "protection"), 0, 30),
        "hp": whole(raw.get("hp", full), (*path, "hp"), -200, 200), "location_hp": location_hp,
        "position": position, "facing": whole(raw.get("facing", 0), (*path, "facing"), 0, 5),
        "prone": _bool(raw, "prone", path), "braced": _bool(raw, "braced", path),
        "engaged_with": _ids(raw.get("engaged_with"), (*path, "engaged_with")),
        "closed_with": _ids(raw.get("closed_with"), (*path, "closed_with")),
        "conditions": sorted(set(conditions)),
        "holding": _holding(raw.get("holding"), (*path, "holding")),
    }


def _holding(value: Any, path: Path) -> dict[str, Any] | None:
    """A grapple hold (*Page 60*): `{target, location, immobilised}` or null."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"target", "location", "immobilised"}:
        raise RulesError("holding is {target, location, immobilised} or null", path)
    if not isinstance(value.get("target"), str):
        raise RulesError("the held combatant's id", (*path, "target"))
    if value.get("location") not in LOCATIONS:
        raise RulesError(f"must be one of {list(LOCATIONS)}", (*path, "location"))
    immobilised = value.get("immobilised", False)
    if not isinstance(immobilised, bool):
        raise RulesError("must be true or false", (*path, "immobilised"))
    return {"target": value["target"], "location": value["location"], "immobilised": immobilised}


def _ids(value: Any, path: Path) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesError("a list of combatant ids", path)
    return sorted(set(value))


def _layer(value: Any, options: Mapping[str, Any], path: Path) -> int | str:
    if isinstance(value, str):
        if value not in options["armor_pack"]:
            raise UnknownName(f"unknown armor piece {value!r}", path)
        return value
    return whole(value, path, 0, 30)


def _shield(raw: Any, options: Mapping[str, Any], path: Path) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise RulesError("a shield is an object or null", path)
    size = raw.get("size")
    if size not in SHIELD_SIZES:
        raise RulesError(f"must be one of {list(SHIELD_SIZES)}", (*path, "size"))
    return {"size": size, "ap": whole(raw.get("ap", 10), (*path, "ap"), 0, 60),
            "parry": whole(raw.get("parry", 0), (*path, "parry"), 0, 300)}


def read_state(data: Mapping[str, Any], options_reader: Any, path: Path = ()) -> State:
    """A whole state: options first (the pack decides what weapon and armor names mean), then combatants
    with distinct ids, and engagement naming known combatants."""
    if not isinstance(data, dict):
        raise RulesError("a state is an object", path or None)
    options = options_reader(data.get("options"), (*path, "options"))
    raw = data.get("combatants")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 100:
        raise RulesError("1..100 combatants", (*path, "combatants"))
    combatants = [read_combatant(c, options, (*path, "combatants", i)) for i, c in enumerate(raw)]
    ids = [c["id"] for c in combatants]
    for i, ident in enumerate(ids):
        if ids.index(ident) != i:
            raise Contradiction(f"combatant id {ident!r} is used twice", (*path, "combatants", i, "id"))
    for i, c in enumerate(combatants):
        for key in ("engaged_with", "closed_with"):
            for other in c[key]:
                if other not in ids:
                    raise RulesError(f"no combatant {other!r}", (*path, "combatants", i, key))
        if c["holding"] and c["holding"]["target"] not in ids:
            raise RulesError("no such combatant", (*path, "combatants", i, "holding", "target"))
    return State(whole(data.get("round", 0), (*path, "round"), 0, 10**6), options, tuple(combatants))


def write_state(state: State, ruleset_id: str) -> dict[str, Any]:
    """The canonical JSON of a state."""
    return {"ruleset": ruleset_id, "round": state.round, "options": copy.deepcopy(dict(state.options)),
            "combatants": [copy.deepcopy(c) for c in state.combatants]}
