"""A combatant of the round resolver, read from JSON with every default of smoting.md section 3 filled in
(seed *Status*, *Ranks.*, *Real Ranks vs Bonus Ranks*, *Mobs, Crowds and Hordes*, *Held Actions*)."""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.errors import RulesError
from service.rules.options import whole
from service.rules.smoting import tables

ATTRIBUTES = ("str", "agl", "dex", "bod", "will", "spirit")
XPOSURES = ("attack", "parry", "dodge", "block")
FLAGS = ("running", "stunned", "prone", "panicked", "crushed", "ooa", "kia")
STATUSES = ("alone", "in_contact", "in_close", "boundary")
WEAPON = {"damage_dice": 4, "speed": 4, "size": "medium", "reach": False, "kind": "melee"}
COUNTERS = ("lost_physical", "lost_mental", "crossover_physical", "crossover_mental", "burn_each_round")


def _text(value: Any, path: tuple, default: str | None = None, shortest: int = 1) -> str | None:
    if value is None:
        return default
    if not isinstance(value, str) or not shortest <= len(value) <= 64:
        raise RulesError(f"must be a string of {shortest} to 64 characters", path)
    return value


def _flag(value: Any, path: tuple) -> bool:
    if not isinstance(value, bool):
        raise RulesError("must be true or false", path)
    return value


def _object(value: Any, path: tuple) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RulesError("must be an object", path)
    return value


def _levels(raw: Any, names: tuple[str, ...], low: int, high: int, path: tuple) -> dict[str, int]:
    given = _object(raw, path)
    for key in given:
        if key not in names:
            raise RulesError(f"unknown key {key!r}", (*path, key))
    return {name: whole(given.get(name, 0), (*path, name), low, high) for name in names}


def _weapon(raw: Any, path: tuple) -> dict[str, Any]:
    given = _object(raw, path)
    for key in given:
        if key not in WEAPON:
            raise RulesError(f"unknown key {key!r}", (*path, key))
    out = {**WEAPON, **given}
    out["damage_dice"] = whole(out["damage_dice"], (*path, "damage_dice"), 0, 30)
    out["speed"] = whole(out["speed"], (*path, "speed"), 1, 12)
    out["reach"] = _flag(out["reach"], (*path, "reach"))
    for key, choices in (("size", ("small", "medium", "large")), ("kind", ("melee", "thrown", "fired"))):
        if out[key] not in choices:
            raise RulesError(f"must be one of {list(choices)}", (*path, key))
    return out


def _defence_pool(raw: Any, path: tuple) -> dict[str, Any] | None:
    if raw is None:
        return None
    given = _object(raw, path)
    if given.get("type") not in ("dodge", "parry", "block"):
        raise RulesError("must be dodge, parry or block", (*path, "type"))
    return {"type": given["type"], "successes": whole(given.get("successes"), (*path, "successes"), 0, 60)}


def read(raw: Any, path: tuple) -> dict[str, Any]:
    """One combatant, every value checked, every default filled (smoting.md section 3)."""
    given = _object(raw, path)
    known = {"id", "side", "name", "pc", "heroic", "physical_rank", "mental_rank", "bonus_physical", "bonus_mental",
             *COUNTERS, "attributes", "xposures", "weapon", "armor_resist", "shield", "action_dice_modifier",
             "movement_dice", "mr", "group", "zone", "status", "engaged_with", "flags", "held_die", "defence_pool"}
    for key in given:
        if key not in known:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    out: dict[str, Any] = {"id": _text(given.get("id"), (*path, "id")), "side": _text(given.get("side"), (*path, "side"), "", 0)}
    if out["id"] is None:
        raise RulesError("every combatant needs an id", (*path, "id"))
    out["pc"] = _flag(given.get("pc", False), (*path, "pc"))
    out["heroic"] = _flag(given.get("heroic", False), (*path, "heroic"))
    for key in ("physical_rank", "mental_rank"):
        if key not in given:
            raise RulesError("required", (*path, key))
        out[key] = whole(given[key], (*path, key), 1, 9)
    for key in ("bonus_physical", "bonus_mental"):
        out[key] = whole(given.get(key, 0), (*path, key), 0, 9)
    for key in COUNTERS:
        out[key] = whole(given.get(key, 0), (*path, key), 0, 30)
    out["attributes"] = _levels(given.get("attributes"), ATTRIBUTES, -3, 6, (*path, "attributes"))
    out["xposures"] = _levels(given.get("xposures"), XPOSURES, 0, 12, (*path, "xposures"))
    out["weapon"] = _weapon(given.get("weapon"), (*path, "weapon"))
    out["armor_resist"] = whole(given.get("armor_resist", 0), (*path, "armor_resist"), 0, 6)
    shield = given.get("shield")
    out["shield"] = None if shield is None else {
        "block_factor": whole(_object(shield, (*path, "shield")).get("block_factor", 0),
                              (*path, "shield", "block_factor"), 0, 6)}
    out["action_dice_modifier"] = whole(given.get("action_dice_modifier", 0), (*path, "action_dice_modifier"), -8, 8)
    out["movement_dice"] = whole(given.get("movement_dice", 4), (*path, "movement_dice"), 0, 12)
    out["mr"] = whole(given.get("mr", 1), (*path, "mr"), 0, 10)
    out["group"] = given.get("group", "none")
    if out["group"] not in tables.groups():
        raise RulesError(f"must be one of {list(tables.groups())}", (*path, "group"))
    out["zone"] = _text(given.get("zone"), (*path, "zone"))
    out["status"] = given.get("status", "alone")
    if out["status"] not in STATUSES:
        raise RulesError(f"must be one of {list(STATUSES)}", (*path, "status"))
    engaged = given.get("engaged_with", [])
    if not isinstance(engaged, list) or len(engaged) > 200:
        raise RulesError("must be a list of combatant ids", (*path, "engaged_with"))
    out["engaged_with"] = [_text(e, (*path, "engaged_with", i)) for i, e in enumerate(engaged)]
    out["flags"] = {name: _flag(v, (*path, "flags", name)) for name, v in
                    {**dict.fromkeys(FLAGS, False), **_levels_flags(given.get("flags"), (*path, "flags"))}.items()}
    held = given.get("held_die")
    out["held_die"] = None if held is None else whole(held, (*path, "held_die"), 2, 6)
    out["defence_pool"] = _defence_pool(given.get("defence_pool"), (*path, "defence_pool"))
    return out


def _levels_flags(raw: Any, path: tuple) -> Mapping[str, Any]:
    given = _object(raw, path)
    for key in given:
        if key not in FLAGS:
            raise RulesError(f"unknown flag {key!r}", (*path, key))
    return given


def group_of(fighter: Mapping[str, Any]) -> dict[str, int]:
    """The group's row (seed *Mobs, Crowds and Hordes*)."""
    return tables.groups()[fighter["group"]]


def remaining(fighter: Mapping[str, Any], domain: str) -> int:
    """Real ranks left in a domain: starting rank + group levels - ranks lost (seed *DEFEAT*)."""
    return fighter[f"{domain}_rank"] + group_of(fighter)[domain] - fighter[f"lost_{domain}"]


def threshold(fighter: Mapping[str, Any], domain: str) -> int:
    """T: starting real rank + group levels + bonus ranks; losses do not lower it (seed *Real Ranks vs
    Bonus Ranks*)."""
    return fighter[f"{domain}_rank"] + group_of(fighter)[domain] + fighter[f"bonus_{domain}"]


def active(fighter: Mapping[str, Any]) -> bool:
    """Still in the fight: not out of action, killed or crushed (seed *OoA and KIA*, *CRUSHED*)."""
    flags = fighter["flags"]
    return not (flags["ooa"] or flags["kia"] or flags["crushed"])


def copy_of(fighter: Mapping[str, Any]) -> dict[str, Any]:
    """A copy the round may change (nested objects copied one level down, as read() builds them)."""
    out = dict(fighter)
    for key in ("attributes", "xposures", "weapon", "flags"):
        out[key] = dict(fighter[key])
    out["engaged_with"] = list(fighter["engaged_with"])
    for key in ("shield", "defence_pool"):
        out[key] = None if fighter[key] is None else dict(fighter[key])
    return out
