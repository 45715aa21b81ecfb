"""The state of an encounter between Combat Segments: combatants, their wounds, pain, armor and place.

Seed: "Tactical Time & Tactical Situations" (what persists from CS to CS) and "Getting Hit" (wounds,
armor wear, stun by pain). `EncounterState.from_dict` reads the JSON a caller (or the encounter
store) holds and refuses bad values with the path of each; `to_dict` writes the canonical form back,
so `from_dict(to_dict(s)) == s`. The same combatant shape feeds the Monte Carlo simulator.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from service.rules.tactical.combat_values import (  # noqa: F401 (the parts of a state, imported from here too)
    ATTACKS,
    ATTRIBUTES,
    EDGES,
    GRIPS,
    MODS,
    RANGED,
    STATUSES,
    SURPRISE_STATES,
    WEIGHT_CLASSES,
    Combatant,
    Layer,
    Options,
    Surprise,
    Weapon,
)
from service.rules.tactical.state_io import read_state, write_state


@dataclass(frozen=True)
class EncounterState:
    """A whole encounter between segments: options, the number of segments resolved, combatants."""

    combatants: tuple[Combatant, ...]
    options: Options = field(default_factory=Options)
    segment: int = 0
    ruleset: str = "tactical"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], path: tuple = ()) -> "EncounterState":
        """Read and check an encounter (RulesError names the first bad field's path)."""
        combatants, options, segment = read_state(data, path)
        return cls(combatants, options, segment)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (every field written, defaults included)."""
        return write_state(self)

    def get(self, combatant_id: str) -> Combatant:
        """The combatant with this id (KeyError when there is none)."""
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise KeyError(combatant_id)

    def with_combatant(self, combatant: Combatant) -> "EncounterState":
        """A copy with one combatant replaced (matched by id)."""
        return replace(self, combatants=tuple(combatant if c.id == combatant.id else c
                                              for c in self.combatants))
