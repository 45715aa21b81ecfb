"""HTTP adapters: blueprints, schemas and the single error module."""
from __future__ import annotations

import importlib

from flask_smorest import Api

from service.rules import registry


def register_blueprints(api: Api) -> None:
    """Mount every blueprint under /v1 (imported here so nothing is built at import time)."""
    from service.api import headers
    from service.api.encounters import blp as encounters
    from service.api.observability import blp as observability
    from service.api.receipts import blp as receipts
    from service.api.rulesets import blp as rulesets
    from service.api.simulations import blp as simulations

    importlib.import_module(f"{__name__}.encounter_dice")  # its operations join the encounters blueprint, after them
    headers.register(api.spec)
    api.spec.components.security_scheme("bearerAuth", {
        "type": "http", "scheme": "bearer",
        "description": "The encounter's token, from the answer that created it (`token`)."})
    api.spec.components.security_scheme("apiKeyAuth", {
        "type": "apiKey", "in": "header", "name": "X-API-Key",
        "description": "Needed on every /v1 call when the deployment requires API keys (off by default)."})
    api.register_blueprint(observability)
    api.register_blueprint(receipts)
    api.register_blueprint(rulesets, url_prefix="/v1/rulesets")
    api.register_blueprint(encounters, url_prefix="/v1/encounters")
    api.register_blueprint(simulations, url_prefix="/v1/simulations")
    for ruleset in registry.all_rulesets():
        for blp in ruleset_blueprints(ruleset.package):
            api.register_blueprint(blp, url_prefix=f"/v1/{ruleset.id}")


def ruleset_blueprints(package: str) -> list:
    """The calculator blueprints of a ruleset: `service.api.<package>.blueprints()` (none without one)."""
    try:
        module = importlib.import_module(f"{__name__}.{package}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{package}":
            raise
        return []
    return module.blueprints()


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
