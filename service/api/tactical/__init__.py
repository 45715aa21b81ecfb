"""Blueprints for the `tactical` ruleset's calculators (seed 000), and its payload schemas."""
from __future__ import annotations

from service.api.kit.packages import module_blueprints
from service.api.http.blueprint import Blueprint
from service.api.tactical.event_schemas import EVENT_SCHEMAS  # noqa: F401 (typed events in the contract)
from service.api.tactical.simulation_schemas import OptionsSchema
from service.api.tactical.state_schemas import (
    CombatantStateSchema,
    DeclarationSchema,
    EncounterOptionsSchema,
    EncounterStateSchema,
)

SCHEMAS = {"combatant": CombatantStateSchema, "declaration": DeclarationSchema, "options": EncounterOptionsSchema,
           "state": EncounterStateSchema, "sim_options": OptionsSchema}

# One module per endpoint family; each exposes `blp`.
MODULES = (
    "to_hit",
    "damage",
    "movement",
    "contests",
    "segments",
    "batch",
    "maneuvers",
    "aftermath",
)


def blueprints() -> list[Blueprint]:
    """Every tactical calculator blueprint that exists (families land one at a time)."""
    return module_blueprints(__name__, MODULES)
