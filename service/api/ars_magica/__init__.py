"""Blueprints of the `ars-magica` ruleset's calculators (seed 002) and its payload schemas."""
from __future__ import annotations

from service.api.kit.packages import module_blueprints
from service.api.http.blueprint import Blueprint

MODULES = ("to_hit", "damage", "check", "combatant", "movement", "rounds")


def _schemas() -> dict:
    try:
        from service.api.ars_magica.state import SCHEMAS as found
    except ModuleNotFoundError:
        return {}
    return found


SCHEMAS = _schemas()


def blueprints() -> list[Blueprint]:
    """Every calculator blueprint of the ruleset."""
    return module_blueprints(__name__, MODULES)
