"""Blueprints of the `ars-magica` ruleset's calculators (seed 002) and its payload schemas."""
from __future__ import annotations

import importlib

from service.api.blueprint import Blueprint

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
