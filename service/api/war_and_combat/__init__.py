"""Blueprints of the `war-and-combat` ruleset (seed 001) and its payload schemas."""
from __future__ import annotations

from service.api.kit.packages import module_blueprints
from service.api.http.blueprint import Blueprint

MODULES = ("calculators", "sheets", "rounds")


def blueprints() -> list[Blueprint]:
    """Every war-and-combat blueprint."""
    return module_blueprints(__name__, MODULES)


def __getattr__(name: str):  # SCHEMAS is built on first use (its module imports the rules)
    if name == "SCHEMAS":
        from service.api.war_and_combat.state_schemas import SCHEMAS
        return SCHEMAS
    if name == "EVENT_SCHEMAS":
        from service.api.war_and_combat.event_schemas import EVENT_SCHEMAS
        return EVENT_SCHEMAS
    raise AttributeError(name)
