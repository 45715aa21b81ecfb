"""ETag and Cache-Control for the pure, cacheable GET answers (rulesets, tables, pulse)."""
from __future__ import annotations

from typing import Any

from flask import Response, json, request


def cacheable(body: Any, max_age: int = 3600) -> Response:
    """A JSON response with a strong ETag of its bytes; a matching If-None-Match gets 304."""
    response = Response(json.dumps(body), mimetype="application/json")
    response.add_etag()
    response.headers["Cache-Control"] = f"public, max-age={max_age}"
    return response.make_conditional(request)
