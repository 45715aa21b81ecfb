"""The working state of one melee round (rules document §8): each combatant's copy that the round may
change, the declarations, the round's DiceSource, the events so far, and which actions were lost, done or
spent defending."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.dice import DiceSource
from service.rules.runequest_house.model import State


def clone(combatant: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a combatant whose mutable parts (HP, weapons, shield, flags) can change this round."""
    out = dict(combatant)
    out["location_hp"] = dict(combatant["location_hp"])
    out["characteristics"] = dict(combatant["characteristics"])
    out["skills"] = dict(combatant["skills"])
    out["armor"] = {loc: list(layers) for loc, layers in combatant["armor"].items()}
    out["weapons"] = [dict(w) for w in combatant["weapons"]]
    out["shield"] = dict(combatant["shield"]) if combatant["shield"] else None
    out["position"] = dict(combatant["position"]) if combatant["position"] else None
    for key in ("engaged_with", "closed_with", "conditions"):
        out[key] = list(combatant[key])
    out["holding"] = dict(combatant["holding"]) if combatant.get("holding") else None
    return out


class Round:
    """The working state of one round being resolved."""

    def __init__(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource):
        self.state, self.options, self.dice = state, state.options, dice
        self.people = {c["id"]: clone(c) for c in state.combatants}
        self.declared = {d["combatant"]: d for d in declarations}
        self.events: list[dict[str, Any]] = []
        self.lost: set[tuple[str, int]] = set()
        self.done: set[tuple[str, int]] = set()
        self.defended: dict[str, dict[str, list[str]]] = {}
        self.changes = 0  # wounds and falls so far (what can change a status)
        self.dodged_on: dict[str, list[int]] = {}
        self.adjacent_at_start = {ident: bool(c["engaged_with"]) for ident, c in self.people.items()}

    def emit(self, kind: str, **fields: Any) -> dict[str, Any]:
        event = {"seq": len(self.events) + 1, "type": kind, **fields}
        self.events.append(event)
        return event
