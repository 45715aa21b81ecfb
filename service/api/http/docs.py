"""Interactive API docs at /docs: Swagger UI 5 (reads OpenAPI 3.1), vendored from the npm package
`swagger-ui-dist` into `docs_static/` with its licence, so the docs work offline (`make vendor-docs`
refreshes the copy from node_modules)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, send_from_directory
from werkzeug.exceptions import NotFound

from service.api.http.ruleset_spec import ruleset_spec
from service.rules import registry

STATIC = Path(__file__).with_name("docs_static")
docs_blueprint = Blueprint("docs", __name__)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Referee API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" sizes="32x32" href="/docs/static/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="/docs/static/favicon-16x16.png">
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui", deepLinking: true,
  displayOperationId: true, persistAuthorization: true, validatorUrl: null});</script>
</body></html>"""


@docs_blueprint.get("/docs")
@docs_blueprint.get("/docs/")
def docs() -> Response:
    """The Swagger UI page, reading the served /openapi.json."""
    return Response(PAGE, mimetype="text/html")


@docs_blueprint.get("/docs/static/<path:name>")
def docs_static(name: str) -> Response:
    """Swagger UI's own assets (and its LICENSE and NOTICE)."""
    return send_from_directory(STATIC, name, max_age=86400)


@docs_blueprint.get("/favicon.ico")
def favicon() -> Response:
    """The browser's favicon (Swagger UI's 32x32 PNG; browsers accept PNG under this name)."""
    return send_from_directory(STATIC, "favicon-32x32.png", mimetype="image/png", max_age=86400)


@docs_blueprint.get("/v1/<ruleset_id>/openapi.json")
def ruleset_openapi(ruleset_id: str) -> Response:
    """One ruleset's contract: its operations and the shared ones (service.api.http.ruleset_spec), built once
    per app."""
    if ruleset_id not in registry.ids():
        raise NotFound(f"no ruleset {ruleset_id!r}")
    built = current_app.extensions.setdefault("referee.ruleset_specs", {})
    if ruleset_id not in built:
        built[ruleset_id] = ruleset_spec(current_app.extensions["referee.api"].spec.to_dict(), ruleset_id)
    return jsonify(built[ruleset_id])
