"""Interactive API docs at /docs, from the bundled Swagger UI (no CDN)."""
from __future__ import annotations

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

docs_blueprint = Blueprint("docs", __name__)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Referee API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#ui"});</script>
</body></html>"""


@docs_blueprint.get("/docs")
def docs() -> Response:
    """The Swagger UI page, reading the served /openapi.json."""
    return Response(PAGE, mimetype="text/html")


@docs_blueprint.get("/docs/static/<path:name>")
def docs_static(name: str) -> Response:
    """Swagger UI's own assets, shipped inside the swagger-ui-bundle package."""
    return send_from_directory(swagger_ui_path, name, max_age=86400)
