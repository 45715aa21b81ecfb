"""Ruleset registry: ruleset id -> the package that implements it.

A new rule system is a new package under `service.rules` exposing a `RULESET` value (the
`service.rules.interface.Ruleset` of that rule system); the registry finds it by its folder
(`service/rules/war_and_combat/` serves the id `war-and-combat`), so nothing outside a ruleset
package hard-codes that ruleset's rules, nor lists it.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from service.rules.errors import NotFound
from service.rules.interface import Ruleset

__all__ = ["RULESET_PACKAGES", "Ruleset", "all_rulesets", "get", "ids"]



def _discover() -> dict[str, str]:
    """Every package directly under `service/rules/` that defines a ruleset (it has a `ruleset.py`
    or says `RULESET` in its `__init__.py`), by id: the package name with hyphens."""
    found = {}
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        folder = Path(__file__).parent / module.name
        if not module.ispkg or module.name.startswith("_"):
            continue
        init = folder / "__init__.py"
        if (folder / "ruleset.py").exists() or (init.exists() and "RULESET" in init.read_text()):
            found[module.name.replace("_", "-")] = f"service.rules.{module.name}"
    return found


RULESET_PACKAGES: dict[str, str] = _discover()


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
