"""Blueprints and payload schemas of the `smoting` ruleset (seed 003)."""
from __future__ import annotations

from service.api.http.blueprint import Blueprint
from service.api.smoting.common import SmotingOptionsSchema
from service.api.smoting.event_schemas import EVENT_SCHEMAS
from service.api.smoting.state_schemas import CombatantSchema, DeclarationSchema, SetupSchema, StateSchema

SCHEMAS = {"combatant": CombatantSchema, "declaration": DeclarationSchema, "options": SmotingOptionsSchema,
           "state": StateSchema, "setup": SetupSchema}
__all__ = ["EVENT_SCHEMAS", "SCHEMAS", "blueprints"]


def blueprints() -> list[Blueprint]:
    """The smoting calculator and round-resolver blueprints."""
    from service.api.smoting.calculators import blp as calculators
    from service.api.smoting.rounds import blp as rounds

    return [calculators, rounds]
