"""HTTP adapters: blueprints, schemas and the single error module."""
from __future__ import annotations

from flask_smorest import Api


def register_blueprints(api: Api) -> None:
    """Mount every blueprint under /v1 (imported here so nothing is built at import time)."""
    from service.api.rulesets import blp as rulesets
    from service.api.tactical import blueprints as tactical

    api.register_blueprint(rulesets, url_prefix="/v1/rulesets")
    for blp in tactical():
        api.register_blueprint(blp, url_prefix="/v1/tactical")
