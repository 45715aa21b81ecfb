"""Ruleset registry: ruleset id -> the package that implements it.

A new rule system is a new package under `service.rules` exposing a `RULESET` value (the
`service.rules.interface.Ruleset` of that rule system) and one line here; nothing outside a
ruleset package hard-codes that ruleset's rules.
"""
from __future__ import annotations

import importlib
from functools import cache

from service.rules.errors import NotFound
from service.rules.interface import Ruleset

__all__ = ["RULESET_PACKAGES", "Ruleset", "all_rulesets", "get", "ids"]

RULESET_PACKAGES: dict[str, str] = {
    "tactical": "service.rules.tactical",
}


@cache
def get(ruleset_id: str) -> Ruleset:
    """The registered ruleset with this id (imported once), or NotFound."""
    if ruleset_id not in RULESET_PACKAGES:
        raise NotFound(f"no ruleset '{ruleset_id}'", "ruleset")
    return importlib.import_module(RULESET_PACKAGES[ruleset_id]).RULESET


def ids() -> list[str]:
    """Every registered ruleset id, sorted."""
    return sorted(RULESET_PACKAGES)


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, in id order."""
    return [get(ruleset_id) for ruleset_id in ids()]
