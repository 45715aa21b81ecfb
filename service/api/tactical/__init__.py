"""Blueprints for the `tactical` ruleset's calculators (seed 000), and its payload schemas."""
from __future__ import annotations

import importlib

from service.api.blueprint import Blueprint
from service.api.tactical.event_schemas import EVENT_SCHEMAS  # noqa: F401 (typed events in the contract)
from service.api.tactical.simulation_schemas import OptionsSchema
from service.api.tactical.state_schemas import (CombatantStateSchema, DeclarationSchema, EncounterOptionsSchema,
                                                EncounterStateSchema)

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
    found = []
    for name in MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            continue
        found.append(module.blp)
    return found
