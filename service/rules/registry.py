"""Ruleset registry: ruleset id -> the package that implements it.

A new rule system is a new package under `service.rules` exposing a `RULESET` value and one line
here; nothing outside a ruleset package hard-codes that ruleset's rules.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable

from service.rules.errors import NotFound

RULESET_PACKAGES: dict[str, str] = {
    "tactical": "service.rules.tactical",
}


@dataclass(frozen=True)
class Ruleset:
    """What a ruleset tells the world about itself: id, name, source, its tables and rulings."""

    id: str
    name: str
    source: str
    summary: str
    tables: dict[str, Callable[[], Any]] = field(default_factory=dict)
    table_titles: dict[str, str] = field(default_factory=dict)
    rulings: tuple[dict[str, str], ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    engine: Any = None  # module with read_state / write_state / check_declarations / resolve_segment

    def table(self, name: str) -> Any:
        """The named table's data, or NotFound."""
        if name not in self.tables:
            raise NotFound(f"ruleset '{self.id}' has no table '{name}'", "name")
        return self.tables[name]()


@cache
def get(ruleset_id: str) -> Ruleset:
    """The registered ruleset with this id (imported once), or NotFound."""
    if ruleset_id not in RULESET_PACKAGES:
        raise NotFound(f"no ruleset '{ruleset_id}'", "ruleset")
    return importlib.import_module(RULESET_PACKAGES[ruleset_id]).RULESET


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, in id order."""
    return [get(ruleset_id) for ruleset_id in sorted(RULESET_PACKAGES)]
