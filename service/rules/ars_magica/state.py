"""The encounter state of `ars-magica`: combatants as canonical JSON objects, read and checked from a
caller's JSON (document §12.6), and what the round engine derives from them (totals with penalties and
effects, who can still act).

A combatant is kept as a plain JSON object (`read_combatant` checks every value and fills every
default), so `write_state(read_state(x))` is the canonical form and a state is sent back unchanged.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.rules.ars_magica import ladders, totals
from service.rules.ars_magica.totals import ABILITIES, CHARACTERISTICS
from service.rules.errors import Contradiction, RulesError
from service.rules.options import whole

STANCES = ("normal", "all_out_ready")
EFFECT_KINDS = ("attack", "defence", "damage", "skip_attack", "lose_initiative", "opponent_attack")
Combatant = dict[str, Any]


@dataclass(frozen=True)
class State:
    """The round counter, the options in force and every combatant (canonical JSON objects)."""

    round: int
    options: Mapping[str, Any]
    combatants: tuple[Combatant, ...]

    def by_id(self) -> dict[str, Combatant]:
        """Combatants by id."""
        return {c["id"]: c for c in self.combatants}


def read_state(data: Mapping[str, Any], options: Mapping[str, Any], path: tuple = ()) -> State:
    """A state from JSON, every value checked (RulesError names the bad path); ids are unique."""
    if not isinstance(data, Mapping):
        raise RulesError("a state is an object", path or None)
    raw = data.get("combatants")
    if not isinstance(raw, list) or not raw:
        raise RulesError("a state needs a non-empty list of combatants", (*path, "combatants"))
    people = tuple(read_combatant(c, options, (*path, "combatants", i)) for i, c in enumerate(raw))
    ids = [c["id"] for c in people]
    for i, ident in enumerate(ids):
        if ids.index(ident) != i:
            raise Contradiction(f"combatant id {ident!r} is used twice", (*path, "combatants", i, "id"))
    for i, c in enumerate(people):
        for j, other in enumerate(c["engaged_with"]):
            if other not in ids or other == c["id"]:
                raise RulesError("not another combatant of this state", (*path, "combatants", i, "engaged_with", j))
    return State(whole(data.get("round", 0), (*path, "round"), 0, 1_000_000), dict(options), people)


def write_state(state: State) -> dict[str, Any]:
    """The canonical JSON form of a state."""
    return {"ruleset": "ars-magica", "round": state.round, "options": dict(state.options),
            "combatants": [clone(c) for c in state.combatants]}


def clone(c: Combatant) -> Combatant:
    """A copy of a combatant whose nested values can be changed without touching the original."""
    out = dict(c)
    for key in ("characteristics", "abilities"):
        out[key] = dict(c[key])
    for key in ("weapon", "off_hand", "armor", "shield"):
        if isinstance(c[key], dict):
            out[key] = dict(c[key])
    out["engaged_with"] = list(c["engaged_with"])
    out["effects"] = [dict(e) for e in c["effects"]]
    out["conditions"] = list(c["conditions"])
    return out


def read_combatant(raw: Any, options: Mapping[str, Any], path: tuple) -> Combatant:
    """One combatant (§12.6): required `id` and `weapon`; every other field defaults to 0, none or normal."""
    if not isinstance(raw, Mapping):
        raise RulesError("a combatant is an object", path)
    ident = raw.get("id")
    if not isinstance(ident, str) or not 1 <= len(ident) <= 64:
        raise RulesError("id is a string of 1 to 64 characters", (*path, "id"))
    if raw.get("weapon") is None:
        raise RulesError("a combatant needs a weapon (stats or a pack name)", (*path, "weapon"))
    out: Combatant = {"id": ident, "side": _text(raw.get("side", ""), (*path, "side"))}
    out["characteristics"] = _scores(raw.get("characteristics"), CHARACTERISTICS, -10, 10, (*path, "characteristics"))
    out["size"] = whole(raw.get("size", 0), (*path, "size"), -10, 10)
    out["abilities"] = _scores(raw.get("abilities"), ABILITIES, 0, 30, (*path, "abilities"))
    out["weapon"] = _weapon(raw["weapon"], options, (*path, "weapon"))
    out["off_hand"] = None if raw.get("off_hand") is None else _weapon(raw["off_hand"], options, (*path, "off_hand"))
    out["armor"] = _armor(raw.get("armor"), options, (*path, "armor"))
    out["shield"] = None if raw.get("shield") is None else {
        "defence": whole(_object(raw["shield"], (*path, "shield")).get("defence", 0), (*path, "shield", "defence"), 0, 20)}
    out["encumbrance"] = whole(raw.get("encumbrance", 0), (*path, "encumbrance"), 0, 30)
    out["body_levels_lost"] = whole(raw.get("body_levels_lost", 0), (*path, "body_levels_lost"), 0, 100)
    out["fatigue_levels_lost"] = whole(raw.get("fatigue_levels_lost", 0), (*path, "fatigue_levels_lost"), 0, 100)
    engaged = raw.get("engaged_with") or []
    if not isinstance(engaged, list) or not all(isinstance(e, str) for e in engaged):
        raise RulesError("engaged_with is a list of combatant ids", (*path, "engaged_with"))
    out["engaged_with"] = sorted(set(engaged))
    out["stance"] = raw.get("stance", "normal")
    if out["stance"] not in STANCES:
        raise RulesError(f"must be one of {list(STANCES)}", (*path, "stance"))
    out["position_yd"] = _number(raw.get("position_yd", 0), (*path, "position_yd"))
    for name in ("mounted", "ambidextrous"):
        out[name] = _flag(raw.get(name, False), (*path, name))
    out["effects"] = [_effect(e, (*path, "effects", i)) for i, e in enumerate(_list(raw.get("effects"), (*path, "effects")))]
    out["conditions"] = [_text(c, (*path, "conditions", i)) for i, c in enumerate(_list(raw.get("conditions"),
                                                                                          (*path, "conditions")))]
    first = raw.get("missile_first_round")
    out["missile_first_round"] = None if first is None else whole(first, (*path, "missile_first_round"), 0, 1_000_000)
    return out


# --- what the engine derives ------------------------------------------------------------------------


def status(c: Combatant, options: Mapping[str, Any]) -> str:
    """standing, incapacitated, dead or unconscious (body ladder first: the worse of the two)."""
    body = ladders.body_ladder(options, c["size"])
    if not ladders.acts(body, c["body_levels_lost"]):
        return ladders.level_name(body, c["body_levels_lost"])
    if not ladders.acts(options["fatigue_levels"], c["fatigue_levels_lost"]):
        return ladders.level_name(options["fatigue_levels"], c["fatigue_levels_lost"])
    return "standing"


def able(c: Combatant, options: Mapping[str, Any]) -> bool:
    """Whether the combatant can still act."""
    return status(c, options) == "standing"


def effect_total(c: Combatant, kind: str, round_number: int) -> int:
    """The sum of the combatant's effects of `kind` active in round `round_number`."""
    return sum(e["value"] for e in c["effects"] if e["kind"] == kind and e["from"] <= round_number
               and (e["until"] is None or round_number <= e["until"]))


def fighter(c: Combatant, options: Mapping[str, Any], weapon: str = "weapon") -> totals.Fighter:
    """The Fighter behind the totals: current penalties from both ladders (MELEE TOTALS)."""
    body = ladders.body_ladder(options, c["size"])
    return totals.Fighter(c["characteristics"], c["size"], c["abilities"],
                          totals.weapon_of(c[weapon], options["weapon_pack"], (weapon,)),
                          totals.protection_of(c["armor"], options["armor_pack"], ("armor",)),
                          (c["shield"] or {}).get("defence", 0), c["encumbrance"],
                          ladders.penalty(body, c["body_levels_lost"]),
                          ladders.penalty(options["fatigue_levels"], c["fatigue_levels_lost"]), c["mounted"])


def totals_of(c: Combatant, options: Mapping[str, Any], weapon: str = "weapon") -> totals.Totals:
    """The combatant's MELEE TOTALS with the weapon in `weapon` (or `off_hand`)."""
    return totals.totals(fighter(c, options, weapon), options)


def _scores(raw: Any, names: tuple[str, ...], low: int, high: int, path: tuple) -> dict[str, int]:
    raw = {} if raw is None else _object(raw, path)
    for name in raw:
        if name not in names:
            raise RulesError("unknown field", (*path, name))
    return {name: whole(raw.get(name, 0), (*path, name), low, high) for name in names}


def _weapon(raw: Any, options: Mapping[str, Any], path: tuple) -> Any:
    if isinstance(raw, str):
        totals.weapon_of(raw, options["weapon_pack"], path)
        return raw
    raw = _object(raw, path)
    for name in raw:
        if name not in ("name", "init", "attack", "defence", "damage", "missile", "range"):
            raise RulesError("unknown field", (*path, name))
    out: dict[str, Any] = {"name": None if raw.get("name") is None else _text(raw["name"], (*path, "name"))}
    out.update({k: whole(raw.get(k, 0), (*path, k), -20, 20) for k in ("init", "attack", "defence", "damage")})
    out["missile"] = _flag(raw.get("missile", False), (*path, "missile"))
    out["range"] = raw.get("range", "missile" if out["missile"] else "reach")
    if out["range"] not in ("touch", "reach", "close", "missile"):
        raise RulesError("range is touch, reach, close or missile", (*path, "range"))
    return out


def _armor(raw: Any, options: Mapping[str, Any], path: tuple) -> Any:
    if raw is None or isinstance(raw, str):
        totals.protection_of(raw, options["armor_pack"], path)
        return raw
    return {"protection": whole(_object(raw, path).get("protection", 0), (*path, "protection"), 0, 50)}


def _effect(raw: Any, path: tuple) -> dict[str, Any]:
    raw = _object(raw, path)
    if raw.get("kind") not in EFFECT_KINDS:
        raise RulesError(f"kind is one of {list(EFFECT_KINDS)}", (*path, "kind"))
    until = raw.get("until")
    return {"kind": raw["kind"], "value": whole(raw.get("value", 0), (*path, "value"), -50, 50),
            "from": whole(raw.get("from", 0), (*path, "from"), 0, 1_000_000),
            "until": None if until is None else whole(until, (*path, "until"), 0, 1_000_000)}


def _object(raw: Any, path: tuple) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise RulesError("must be an object", path)
    return raw


def _list(raw: Any, path: tuple) -> list:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > 100:
        raise RulesError("must be a list of at most 100 items", path)
    return raw


def _text(raw: Any, path: tuple) -> str:
    if not isinstance(raw, str) or len(raw) > 64:
        raise RulesError("must be a string of at most 64 characters", path)
    return raw


def _flag(raw: Any, path: tuple) -> bool:
    if not isinstance(raw, bool):
        raise RulesError("must be true or false", path)
    return raw


def _number(raw: Any, path: tuple) -> int | float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw) or abs(raw) > 1_000_000:
        raise RulesError("must be a number between -1000000 and 1000000", path)
    return int(raw) if float(raw).is_integer() else raw
