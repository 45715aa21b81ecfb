"""The application factory: `create_app(config)` wires the API, errors and adapters."""
from __future__ import annotations

from typing import Callable

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from service.api import register_blueprints
from service.api.kit import events
from service.api.http import auth, bodies, cors, errors, logging, observability
from service.api.http.docs import docs_blueprint
from service.api.http.json_output import FastJSONProvider
from service.api.http.contract import OPTIONAL_KEY, ContractPlugin
from service.api.http.openapi import RefereeApi, RefereePlugin, package_version
from service.api.kit.receipt_keys import configured_keys
from service.config import Config
from service.rules import memo
from service.sim import policy
from service.sessions.connection import encounter_store

API_DESCRIPTION = (
    "Referee resolves tabletop-RPG combat rules for virtual tabletops, character-sheet apps and "
    "mobile clients: chances to hit, potence and armor, movement per pulse, and whole combat "
    "segments, every roll shown and reproducible from a seed. Errors are application/problem+json "
    "with the path of every bad field."
)

LICENSE = {"name": "Proprietary: all rights reserved", "identifier": "LicenseRef-Proprietary"}


# placeholders of descriptions: every event type; each ruleset's fight policy
FILLERS = {events.EVENT_NAMES: events.stream_event_names, policy.PLACEHOLDER: policy.fight_policies}
PLAIN = "_referee_plain"  # set on a function found to need no async wrapper


class RefereeFlask(Flask):
    """Flask, remembering which hooks and views need no async wrapper (it asks on every call otherwise:
    a dozen `inspect` calls per request, all with the same answer), and writing JSON with orjson."""

    json_provider_class = FastJSONProvider

    def ensure_sync(self, func: Callable) -> Callable:  # type: ignore[type-arg]
        """The callable Flask should run for `func`: itself for a plain function."""
        # The mark holds the function's own id: a wrapper that copied its __dict__ (functools.wraps) is not
        # taken for it, and it lives on the function, so per-request closures do not pile up anywhere.
        if getattr(func, PLAIN, None) == id(func):
            return func
        made = super().ensure_sync(func)
        if made is func:
            try:
                setattr(func, PLAIN, id(func))
            except (AttributeError, TypeError):  # bound methods, builtins: asked each time
                pass
        return made


def create_app(config: Config | None = None) -> Flask:
    """Build one Referee app from `config` (default: the environment)."""
    config = config or Config.from_env()
    if config.problems():
        raise ValueError("; ".join(config.problems()))
    app = RefereeFlask("referee")
    app.config.update(
        TESTING=config.testing,
        MAX_CONTENT_LENGTH=config.max_content_length,
        API_TITLE="Referee",
        API_VERSION=package_version(),
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION, "license": LICENSE}, "security": OPTIONAL_KEY,
                          "servers": [{"url": "/", "description": "this server"}]},
        JSON_SORT_KEYS=False,
    )
    app.extensions["referee.config"] = config
    memo.configure(config.memo_bytes)  # every remembered answer of this process, in bytes (README, Reliability)
    app.extensions["referee.encounters"] = encounter_store(config)  # connects on first use, not here
    app.extensions["referee.receipt_keys"] = configured_keys(config)
    _hooks(app, config)
    api = RefereeApi(app, spec_kwargs={"marshmallow_plugin": RefereePlugin(), "extra_plugins": [ContractPlugin(FILLERS)]})
    app.extensions["referee.api"] = api
    register_blueprints(api)
    app.register_blueprint(docs_blueprint)
    errors.register(app)
    return app


def _hooks(app: Flask, config: Config) -> None:
    """Request hooks, in the order they run: request id and clock, API key and rate limit, body check."""
    if config.proxy_hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config.proxy_hops, x_proto=config.proxy_hops)  # type: ignore
    logging.init_app(app, config.log_level)
    observability.init_app(app)
    auth.init_app(app)
    bodies.init_app(app, config.max_json_depth)
    cors.init_app(app, config.cors_origins)
