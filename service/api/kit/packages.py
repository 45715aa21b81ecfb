"""What the shared resources read from a ruleset's HTTP package `service.api.<package>` (its layout is in
service/api/__init__.py): `MODULES`, the modules whose blueprint it mounts, in order (a module's `blp`, or its
package's that it registers on); the payload `SCHEMAS` of its state.py; the `EVENT_SCHEMAS` of its events.py
(None: it publishes none)."""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

HOMES = {"SCHEMAS": "state", "EVENT_SCHEMAS": "events"}


def ruleset_module(package: str, name: str = "") -> ModuleType | None:
    """`service.api.<package>[.<name>]`, or None where the ruleset has no such module."""
    dotted = f"service.api.{package}" + (f".{name}" if name else "")
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as error:
        if error.name != dotted:
            raise
        return None


def declared(package: str, name: str, default: Any = None) -> Any:
    """What the ruleset's HTTP package declares as `name` (`default` when it declares nothing)."""
    module = ruleset_module(package)
    if module is not None and not hasattr(module, name) and name in HOMES:
        module = ruleset_module(package, HOMES[name])
    return default if module is None else getattr(module, name, default)


def ruleset_blueprints(package: str) -> list:
    """The blueprints of a ruleset's `MODULES`, each once, in order (none without an HTTP package)."""
    module = ruleset_module(package)
    if module is None:
        return []
    found: list = []
    for name in module.MODULES:
        mounted = importlib.import_module(f"service.api.{package}.{name}")
        blp = getattr(mounted, "blp", None) or importlib.import_module(mounted.__name__.rpartition(".")[0]).blp
        if blp not in found:
            found.append(blp)
    return found

