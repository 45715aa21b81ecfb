"""The application factory: `create_app(config)` wires the API, errors and adapters."""
from __future__ import annotations

from flask import Flask

from service.api import errors, register_blueprints
from service.api.docs import docs_blueprint
from service.api.openapi import RefereeApi
from service.config import Config

API_DESCRIPTION = (
    "Referee resolves tabletop-RPG combat rules for virtual tabletops, character-sheet apps and "
    "mobile clients: chances to hit, potence and armor, movement per pulse, and whole combat "
    "segments, every roll shown and reproducible from a seed. Errors are application/problem+json "
    "with the path of every bad field."
)


def create_app(config: Config | None = None) -> Flask:
    """Build one Referee app from `config` (default: the environment)."""
    config = config or Config.from_env()
    app = Flask("referee")
    app.config.update(
        TESTING=config.testing,
        MAX_CONTENT_LENGTH=config.max_content_length,
        API_TITLE="Referee",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION},
                          "servers": [{"url": "/", "description": "this server"}]},
        JSON_SORT_KEYS=False,
    )
    app.extensions["referee.config"] = config
    api = RefereeApi(app)
    app.extensions["referee.api"] = api
    register_blueprints(api)
    app.register_blueprint(docs_blueprint)
    errors.register(app)
    return app
