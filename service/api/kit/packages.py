"""What the shared resources read from a ruleset's HTTP package `service.api.<package>` (the layout is in
service/api/__init__.py): its calculator blueprints, its payload `SCHEMAS` and its `EVENT_SCHEMAS`."""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def ruleset_package(package: str) -> ModuleType | None:
    """`service.api.<package>`, or None for a ruleset without an HTTP package."""
    name = f"service.api.{package}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def declared(package: str, name: str, default: Any = None) -> Any:
    """What the ruleset's HTTP package declares as `name` (`default` when it has no package or no `name`)."""
    module = ruleset_package(package)
    return default if module is None else getattr(module, name, default)


def ruleset_blueprints(package: str) -> list:
    """The calculator blueprints of a ruleset: `service.api.<package>.blueprints()` (none without one)."""
    module = ruleset_package(package)
    return [] if module is None else module.blueprints()


def module_blueprints(package: str, modules: tuple[str, ...]) -> list:
    """The `blp` of each of `package`'s `modules` that exists, in order (a ruleset's families may land one
    at a time)."""
    found = []
    for name in modules:
        try:
            module = importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.{name}":
                raise
            continue
        found.append(module.blp)
    return found
