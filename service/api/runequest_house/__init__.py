"""Blueprints of the `runequest-house` calculators (seed 004) and its encounter payload schemas."""
from __future__ import annotations

from service.api.http.blueprint import Blueprint
from service.api.runequest_house.event_schemas import EVENT_SCHEMAS
from service.api.runequest_house.state_schemas import (
    CombatantStateSchema,
    DeclarationSchema,
    EncounterOptionsSchema,
    StateSchema,
)

SCHEMAS = {"combatant": CombatantStateSchema, "declaration": DeclarationSchema, "options": EncounterOptionsSchema,
           "state": StateSchema}

__all__ = ["EVENT_SCHEMAS", "SCHEMAS", "blueprints"]


def blueprints() -> list[Blueprint]:
    """Every runequest-house blueprint."""
    from service.api.runequest_house import calculators, figures, rounds

    return [calculators.blp, figures.blp, rounds.blp]
