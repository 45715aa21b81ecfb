"""ETag and Cache-Control for the pure, cacheable GET answers (rulesets, tables, pulse)."""
from __future__ import annotations

from typing import Any

from flask import Response, json, request
from flask_smorest.utils import deepupdate

from service.api.http.headers import headers, takes


def cacheable(body: Any, max_age: int = 3600) -> Response:
    """A JSON response with a strong ETag of its bytes; a matching If-None-Match gets 304."""
    response = Response(json.dumps(body), mimetype="application/json")
    response.add_etag()
    response.headers["Cache-Control"] = f"public, max-age={max_age}"
    return response.make_conditional(request)


def conditional(view: Any) -> Any:
    """Document what a view answering with `cacheable` also does: If-None-Match in, 304 out."""
    view._apidoc = deepupdate(getattr(view, "_apidoc", {}), {"manual_doc": {
        **takes("IfNoneMatch"),
        "responses": {304: {"description": "Not Modified: If-None-Match named the current ETag.",
                            "headers": headers("ETag")}}}})
    return view
