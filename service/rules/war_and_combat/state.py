"""The encounter state of `war-and-combat`: combatants in the §3 format, read and checked, written back
in one canonical form (rules document §3; *Fighting Space › Facing*, *Game Scale*)."""
from __future__ import annotations

import copy
from collections.abc import Mapping  # isinstance against it skips typing's alias layer
from dataclasses import dataclass
from functools import cache
from typing import Any

from service.rules.errors import Contradiction, RulesError
from service.rules.options import whole
from service.rules.war_and_combat import option_specs, task
from service.rules.war_and_combat.damage import DAMAGE_TYPES, SEVERITIES
from service.rules.war_and_combat.tables import cached

KINDS = ("swung", "thrust", "polearm", "two_handed_sword", "missile")
ARMOR_FIELDS = ("absorption", "penetration_threshold", "defence_bonus")
FIELDS = {"id", "side", "fighter_rank", "agl_mod", "dex_mod", "str_mod", "tactics", "strength", "size",
          "innate_absorption", "weapons", "armor", "position", "facing", "wounds", "stunned_rounds", "fallen",
          "unconscious", "actions_lost", "disarmed", "surprised"}
WEAPON_FIELDS = {"name", "skill", "impact_mod", "impact_cap", "penetration_value", "damage_type", "range", "kind",
                 "base_range_m"}


@dataclass(frozen=True)
class State:
    """Round counter, options and combatants (plain JSON-like dicts, one canonical shape)."""

    round: int
    options: Mapping[str, Any]
    combatants: tuple[dict[str, Any], ...]

    def copy_combatants(self) -> dict[str, dict[str, Any]]:
        """Private copies of every combatant by id, for a round to change (a round replaces `position` and
        appends to `wounds`; weapons and armor are never changed in place)."""
        return {c["id"]: {**c, "wounds": list(c["wounds"])} for c in self.combatants}


def _obj(value: Any, path: tuple, allowed: set[str]) -> Mapping[str, Any]:
    if type(value) is not dict and not isinstance(value, Mapping):
        raise RulesError("must be an object", path)
    for key in value:
        if key not in allowed:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    return value


def _whole_at(data: Mapping[str, Any], key: str, default: Any, low: int, high: int, path: tuple) -> int:
    """`whole` of `data[key]` (or `default`), the field's path built only when the value is refused."""
    value = data.get(key, default)
    if type(value) is int and low <= value <= high:
        return value
    return whole(value, (*path, key), low, high)


def _bool(data: Mapping[str, Any], key: str, path: tuple) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RulesError("must be true or false", (*path, key))
    return value


def _choice(data: Mapping[str, Any], key: str, choices: tuple, default: Any, path: tuple) -> Any:
    value = data.get(key, default)
    if value not in choices or isinstance(value, bool):
        raise RulesError(f"must be one of {list(choices)}", (*path, key))
    return value


@cache
def _starter_weapons() -> dict[str, Mapping[str, Any]]:
    """The starter weapon pack by name (the first row of a name, as a scan of the table finds it)."""
    by_name: dict[str, Mapping[str, Any]] = {}
    for row in cached("weapons"):
        by_name.setdefault(row.get("name"), row)
    return by_name


def read_weapon(data: Any, path: tuple, options: Mapping[str, Any]) -> dict[str, Any]:
    """A weapon (§3): a pack weapon's statistics under its name, overridden by what is sent inline."""
    data = _obj(data, path, WEAPON_FIELDS)
    pack = options.get("weapon_pack", "default")
    if pack == "default":
        row = _starter_weapons().get(data.get("name")) if isinstance(data.get("name"), str) else None
        base = dict(row) if row is not None else {}
    else:
        base = next((dict(r) for r in pack if r.get("name") == data.get("name")), {})
    merged = {**base, **data}
    name = merged.get("name", "weapon")
    if not isinstance(name, str) or not 1 <= len(name) <= 64:
        raise RulesError("must be a name of 1..64 characters", (*path, "name"))
    if "skill" not in data:
        raise RulesError("a weapon needs its `skill`", (*path, "skill"))
    out = {"name": name, "skill": _whole_at(data, "skill", None, -20, 50, path),
           "impact_mod": _whole_at(merged, "impact_mod", 0, -50, 50, path),
           "penetration_value": _whole_at(merged, "penetration_value", 0, -50, 50, path),
           "damage_type": _choice(merged, "damage_type", DAMAGE_TYPES, "blunt", path),
           "range": _whole_at(merged, "range", 1, 0, 3, path),
           "kind": _choice(merged, "kind", KINDS, "swung", path)}
    if merged.get("impact_cap") is not None:
        out["impact_cap"] = whole(merged["impact_cap"], (*path, "impact_cap"), -50, 200)
    if out["kind"] == "missile":
        out["base_range_m"] = whole(merged.get("base_range_m", 40), (*path, "base_range_m"), 1, 10_000)
    return out


def read_combatant(data: Any, path: tuple, options: Mapping[str, Any], index: int = 0) -> dict[str, Any]:
    """One combatant (§3), every value checked, defaults filled in."""
    data = _obj(data, path, FIELDS)
    for key in ("id", "fighter_rank", "strength", "size", "weapons"):
        if key not in data:
            raise RulesError(f"`{key}` is required", (*path, key))
    ident = data["id"]
    if not isinstance(ident, str) or not 1 <= len(ident) <= 64:
        raise RulesError("must be a string of 1..64 characters", (*path, "id"))
    side = data.get("side", "")
    if not isinstance(side, str) or len(side) > 64:
        raise RulesError("must be a string of at most 64 characters", (*path, "side"))

    def num(key: str, default: Any, low: int, high: int) -> int:
        return _whole_at(data, key, default, low, high, path)

    weapons = data["weapons"]
    if not isinstance(weapons, list) or not 1 <= len(weapons) <= 4:
        raise RulesError("a combatant has 1..4 weapons", (*path, "weapons"))
    armor_in = _obj(data.get("armor", {}), (*path, "armor"), set(task.GENERAL))
    armor = {}
    for loc, piece in armor_in.items():
        where = (*path, "armor", loc)
        piece = _obj(piece, where, set(ARMOR_FIELDS))
        armor[loc] = {f: whole(piece.get(f, 0), (*where, f), 0, 100) for f in ARMOR_FIELDS}
    position = _obj(data.get("position", {"q": index, "r": 0}), (*path, "position"), {"q", "r"})
    wounds = data.get("wounds", [])
    if not isinstance(wounds, list) or len(wounds) > 100:
        raise RulesError("must be a list of at most 100 wounds", (*path, "wounds"))
    read_wounds = []
    for j, wound in enumerate(wounds):
        where = (*path, "wounds", j)
        wound = _obj(wound, where, {"location", "severity", "penetrating", "type"})
        read_wounds.append({"location": _choice(wound, "location", task.SPECIFIC, None, where),
                            "severity": _choice(wound, "severity", SEVERITIES, None, where),
                            "penetrating": _bool(wound, "penetrating", where),
                            "type": _choice(wound, "type", (*DAMAGE_TYPES, None), None, where)})
    innate = data.get("innate_absorption")
    return {
        "id": ident, "side": side,
        "fighter_rank": num("fighter_rank", 0, 0, 50), "agl_mod": num("agl_mod", 0, -10, 10),
        "dex_mod": num("dex_mod", 0, -10, 10), "str_mod": num("str_mod", 0, -10, 10),
        "tactics": num("tactics", 0, -10, 50), "strength": num("strength", 0, -20, 100),
        "size": num("size", 0, 0, 200),
        "innate_absorption": None if innate is None else whole(innate, (*path, "innate_absorption"), 0, 100),
        "weapons": [read_weapon(w, (*path, "weapons", j), options) for j, w in enumerate(weapons)],
        "armor": armor,
        "position": {"q": whole(position.get("q", 0), (*path, "position", "q"), -10_000, 10_000),
                     "r": whole(position.get("r", 0), (*path, "position", "r"), -10_000, 10_000)},
        "facing": num("facing", 0, 0, 5), "wounds": read_wounds,
        "stunned_rounds": num("stunned_rounds", 0, 0, 1000),
        "fallen": _bool(data, "fallen", path), "unconscious": _bool(data, "unconscious", path),
        "actions_lost": num("actions_lost", 0, 0, 100), "disarmed": _bool(data, "disarmed", path),
        "surprised": _bool(data, "surprised", path),
    }


def read_state(data: Any, path: tuple = ()) -> State:
    """A whole state: `{ruleset?, round?, options?, combatants}` (rules README, "Stateless rounds")."""
    data = _obj(data, path or None, {"ruleset", "round", "options", "combatants"})  # type: ignore[arg-type]
    if data.get("ruleset", "war-and-combat") != "war-and-combat":
        raise RulesError("this state belongs to another ruleset", (*path, "ruleset"))
    options = option_specs.read(data.get("options"), (*path, "options"))
    combatants = data.get("combatants")
    if not isinstance(combatants, list) or not 1 <= len(combatants) <= 200:
        raise RulesError("an encounter has 1..200 combatants", (*path, "combatants"))
    read = [read_combatant(c, (*path, "combatants", i), options, i) for i, c in enumerate(combatants)]
    seen: dict[str, int] = {}
    places: dict[tuple[int, int], int] = {}
    for i, c in enumerate(read):
        if c["id"] in seen:
            raise Contradiction(f"combatant id {c['id']!r} is used twice", (*path, "combatants", i, "id"))
        seen[c["id"]] = i
        spot = (c["position"]["q"], c["position"]["r"])
        if spot in places:
            raise Contradiction("two combatants stand in one hex", (*path, "combatants", i, "position"))
        places[spot] = i
    return State(whole(data.get("round", 0), (*path, "round"), 0, 1_000_000), options, tuple(read))


def write_state(state: State) -> dict[str, Any]:
    """The canonical JSON of a state (`read_state(write_state(s)) == s`)."""
    return {"ruleset": "war-and-combat", "round": state.round, "options": _json_copy(dict(state.options)),
            "combatants": [_copy(c) for c in state.combatants]}


def _json_copy(value: Any) -> Any:
    """A deep copy of plain JSON data (objects, arrays, scalars): `copy.deepcopy` for this shape, minus its
    memo bookkeeping."""
    kind = type(value)
    if kind is dict:
        return {k: _json_copy(v) for k, v in value.items()}
    if kind is list:
        return [_json_copy(v) for v in value]
    if kind is tuple:
        return tuple(_json_copy(v) for v in value)
    if kind in (str, int, float, bool, type(None)):
        return value
    return copy.deepcopy(value)


def _copy(c: Mapping[str, Any]) -> dict[str, Any]:
    """A combatant's JSON copy (its nested objects copied too, one level each)."""
    return {**c, "weapons": [dict(w) for w in c["weapons"]], "armor": {k: dict(v) for k, v in c["armor"].items()},
            "position": dict(c["position"]), "wounds": [dict(w) for w in c["wounds"]]}
