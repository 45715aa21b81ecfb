"""The `tactical` ruleset's encounter engine: the `RoundEngine` the encounter store and APIs call.

One step of a tactical encounter is a Combat Segment (seed "The Order of Play each CS"); the HTTP and
Redis layers reach it only through `ENGINE`, never through the modules behind it.
"""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.dice import DiceSource
from service.rules.errors import Contradiction
from service.rules.interface import StepResult
from service.rules.tactical import segment
from service.rules.tactical.combat_state import EncounterState


class TacticalEngine:
    """Combat Segments of seed 000 behind the ruleset interface."""

    step = "segment"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> EncounterState:
        """An encounter from JSON, checked (RulesError names the bad field's path)."""
        return EncounterState.from_dict(data, path)

    def write_state(self, state: EncounterState) -> dict[str, Any]:
        """The canonical JSON form of an encounter."""
        return state.to_dict()

    def check_declarations(self, state: EncounterState, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations for the next CS, checked against the encounter; returns them in canonical form."""
        return segment.check_declarations(state, declarations, path)

    def resolve(self, state: EncounterState, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """Resolve one CS (seed "The Order of Play each CS"); its dice come from the seeded generator
        (a Combat Segment does not take caller-supplied faces)."""
        if dice.supplied_any:
            raise Contradiction("a tactical Combat Segment rolls its own dice: send `seed`, not `rolls`", ("rolls",))
        result = segment.resolve_segment(state, declarations, dice.rng)
        return StepResult(list(result.events), result.state)


ENGINE = TacticalEngine()
