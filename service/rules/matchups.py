"""The matchup of a simulation, read the same way by every ruleset: sides of combatants.

A matchup is `{"sides": [{"name", "combatants": [...]}, ...], "options": {...}}`, or an encounter's
`{"combatants": [{"side": ..., ...}], "options": {...}}`; combatants are in the ruleset's encounter
format. Ids are optional in a matchup: a combatant without one takes its `name`, else `<side>-<n>`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from service.rules.errors import RulesError

MAX_SIDE = 64
MAX_COMBATANTS = 200  # as in an encounter; counted before any combatant is read


@dataclass(frozen=True)
class Entry:
    """One combatant of a matchup: its side's name, its JSON (with an `id`), and its path in the request."""

    side: str
    combatant: Mapping[str, Any]
    path: tuple


def entries(data: Mapping[str, Any], path: tuple = ()) -> list[Entry]:
    """Every combatant of a matchup with its side, in order (RulesError for a malformed matchup)."""
    if not isinstance(data, Mapping):
        raise RulesError("a matchup is an object", path or None)
    found = _from_sides(data, path) if "sides" in data else _from_combatants(data, path)
    if len({entry.side for entry in found}) < 2:
        raise RulesError("a matchup needs at least two sides", (*path, "sides"))
    seen: set[Any] = set()
    for entry in found:
        ident = entry.combatant["id"]
        if ident in seen:
            raise RulesError(f"combatant id {ident!r} is used twice", (*entry.path, "id"))
        seen.add(ident)
    return found


def _from_sides(data: Mapping[str, Any], path: tuple) -> list[Entry]:
    sides = data["sides"]
    if not isinstance(sides, list) or not sides:
        raise RulesError("sides must be a non-empty list", (*path, "sides"))
    count = sum(len(side["combatants"]) for side in sides
                if isinstance(side, Mapping) and isinstance(side.get("combatants"), list))
    if count > MAX_COMBATANTS:
        raise RulesError(f"a matchup has at most {MAX_COMBATANTS} combatants, not {count}", (*path, "sides"))
    found = []
    for i, side in enumerate(sides):
        where = (*path, "sides", i)
        if not isinstance(side, Mapping) or not isinstance(side.get("combatants"), list) or not side["combatants"]:
            raise RulesError("every side needs at least one combatant", (*where, "combatants"))
        name = _side_name(side.get("name") or f"side-{i + 1}", (*where, "name"))
        for j, raw in enumerate(side["combatants"]):
            found.append(Entry(name, _named(raw, f"{name}-{j + 1}", (*where, "combatants", j)),
                               (*where, "combatants", j)))
    return found


def _from_combatants(data: Mapping[str, Any], path: tuple) -> list[Entry]:
    combatants = data.get("combatants")
    if not isinstance(combatants, list) or not combatants:
        raise RulesError("a matchup needs sides or combatants", (*path, "sides"))
    if len(combatants) > MAX_COMBATANTS:
        raise RulesError(f"a matchup has at most {MAX_COMBATANTS} combatants", (*path, "combatants"))
    found = []
    for j, raw in enumerate(combatants):
        where = (*path, "combatants", j)
        named = _named(raw, f"combatant-{j + 1}", where)
        found.append(Entry(_side_name(named.get("side") or "", (*where, "side")), named, where))
    return found


def _side_name(name: Any, path: tuple) -> str:
    """A side's name as every ruleset's combatant `side` takes it: text of at most MAX_SIDE characters."""
    text = str(name)
    if len(text) > MAX_SIDE:
        raise RulesError(f"a side's name has at most {MAX_SIDE} characters", path)
    return text


def _named(raw: Any, fallback: str, path: tuple) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise RulesError("a combatant is an object", path)
    if raw.get("id"):
        return raw
    return {**raw, "id": str(raw.get("name") or fallback)[:64]}
