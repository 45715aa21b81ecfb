"""The `tactical` ruleset's encounter engine: what the encounter store and APIs call, and nothing else.

A ruleset that can run whole encounters exposes these four functions through `Ruleset.engine`, so
the HTTP and Redis layers never name a ruleset's modules (seed "The Order of Play each CS").
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from service.rules.tactical import segment
from service.rules.tactical.combat_state import EncounterState


def read_state(data: Mapping[str, Any], path: tuple = ()) -> EncounterState:
    """An encounter from JSON, checked (RulesError names the bad field's path)."""
    return EncounterState.from_dict(data, path)


def write_state(state: EncounterState) -> dict[str, Any]:
    """The canonical JSON form of an encounter."""
    return state.to_dict()


def check_declarations(state: EncounterState, declarations: list[dict[str, Any]],
                       path: tuple = ("declarations",)) -> list[dict[str, Any]]:
    """Declarations for the next CS, checked against the encounter; returns them in canonical form."""
    return segment.check_declarations(state, declarations, path)


def resolve_segment(state: EncounterState, declarations: list[dict[str, Any]],
                    rng: random.Random) -> tuple[list[dict[str, Any]], EncounterState]:
    """Resolve one CS: (events in order, the state after it)."""
    result = segment.resolve_segment(state, declarations, rng)
    return list(result.events), result.state
