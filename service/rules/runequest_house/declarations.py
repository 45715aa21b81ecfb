"""Declarations of one round (rules document §8, §12.12): two actions each, checked against the state."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.options import whole
from service.rules.runequest_house.model import State

MODES = ("normal", "grapple", "immobilise", "throw", "damage", "escape")
FOLLOW_UPS = ("immobilise", "throw", "damage", "escape")
UNSUPPORTED_MODES = ("counter", "spirit")
ABORTS = (None, "defensive", "movement")
ACTION_FIELDS = ("type", "target", "weapon", "mode", "spell_sr", "magic_points", "move_actions", "opponents")
FIELDS = ("combatant", "actions", "braced", "abort")


def check(state: State, declarations: list[dict[str, Any]], path: tuple = ("declarations",)) -> list[dict[str, Any]]:
    """Each declaration names a known combatant once, two allowed actions, known targets and weapons;
    spirit combat and @Counter are not implemented (422). Returns canonical declarations."""
    people = state.by_id()
    seen: set[str] = set()
    out = []
    if not isinstance(declarations, list):
        raise RulesError("declarations is a list", path)
    for i, raw in enumerate(declarations):
        where = (*path, i)
        if not isinstance(raw, dict):
            raise RulesError("a declaration is an object", where)
        for key in raw:
            if key not in FIELDS:
                raise RulesError(f"unknown field {key!r}", (*where, key))
        ident = raw.get("combatant")
        if ident not in people:
            raise UnknownName(f"unknown combatant {ident!r}", (*where, "combatant"))
        if ident in seen:
            raise RulesError(f"{ident!r} already declared this round", (*where, "combatant"))
        seen.add(ident)
        who = people[ident]
        actions = raw.get("actions")
        if not isinstance(actions, list) or len(actions) != 2:
            raise RulesError("exactly two actions", (*where, "actions"))
        checked = [_action(a, who, people, state.options, (*where, "actions", j)) for j, a in enumerate(actions)]
        braced = raw.get("braced", False)
        if not isinstance(braced, bool):
            raise RulesError("must be true or false", (*where, "braced"))
        if braced and any(a["type"] == "dodge" for a in checked):
            raise RulesError("a braced figure cannot dodge (Bracing Against Knockback)", (*where, "braced"))
        abort = raw.get("abort")
        if abort not in ABORTS:
            raise RulesError("abort is null, \"defensive\" or \"movement\"", (*where, "abort"))
        out.append({"combatant": ident, "actions": checked, "braced": braced, "abort": abort})
    return out


def _action(raw: Any, who: Mapping[str, Any], people: Mapping[str, Any], options: Mapping[str, Any],
            path: tuple) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RulesError("an action is an object", path)
    for key in raw:
        if key not in ACTION_FIELDS:
            raise RulesError(f"unknown field {key!r}", (*path, key))
    kind = raw.get("type")
    if kind not in options["intent_actions"]:
        raise Contradiction(f"type must be one of {list(options['intent_actions'])}", (*path, "type"))
    mode = raw.get("mode") or "normal"
    if mode in UNSUPPORTED_MODES:
        raise RulesError(f"mode {mode!r} needs rules the text does not supply (not implemented)", (*path, "mode"))
    if mode not in MODES:
        raise RulesError(f"mode must be one of {list(MODES)}", (*path, "mode"))
    action: dict[str, Any] = {"type": kind, "mode": mode}
    target = raw.get("target")
    if target is not None and target not in people:
        raise RulesError(f"unknown target {target!r}", (*path, "target"))
    if kind in ("attack", "missile"):
        if target is None:
            raise RulesError(f"an {kind} needs a target", (*path, "target"))
        if target == who["id"]:
            raise RulesError("a combatant cannot attack itself", (*path, "target"))
    action["target"] = target
    if mode in FOLLOW_UPS:
        if kind != "attack":
            raise RulesError(f"{mode} is a grapple follow-up: an attack action", (*path, "mode"))
        holder, held = (people[target], who) if mode == "escape" else (who, people[target])
        hold = holder.get("holding")
        if not hold or hold["target"] != held["id"]:
            raise RulesError(f"{mode} needs a hold on the target (Page 60)", (*path, "target"))
    if raw.get("weapon") is not None or kind in ("attack", "missile"):
        index = whole(raw.get("weapon", 0), (*path, "weapon"), 0, 7)
        if index >= len(who["weapons"]):
            raise Contradiction(f"no weapon {index}", (*path, "weapon"))
        weapon = who["weapons"][index]
        if kind == "missile" and weapon["kind"] == "melee" and mode != "grapple":
            raise RulesError("a missile attack needs a thrown or projected weapon", (*path, "weapon"))
        if kind == "attack" and weapon["kind"] == "projected":
            raise RulesError("a melee attack cannot use a projected weapon", (*path, "weapon"))
        action["weapon"] = index
    else:
        action["weapon"] = None
    if kind == "cast" and raw.get("spell_sr") is None and raw.get("magic_points") is None:
        raise Contradiction("a cast needs spell_sr or magic_points", (*path, "spell_sr"))
    for key in ("spell_sr", "magic_points"):
        action[key] = None if raw.get(key) is None else whole(raw[key], (*path, key), 0, 30)
    action["move_actions"] = whole(raw.get("move_actions", 1 if kind == "move" else 0), (*path, "move_actions"), 0, 2)
    return action
