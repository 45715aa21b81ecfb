"""Request bodies the JSON parser must never choke on: too deep, too long a number, not JSON at all.

Python's json module recurses once per nesting level and refuses integers of more than 4300 digits,
so a body nested 1000 levels deep or a 5000-digit number would surface as a RecursionError or
ValueError (a 500). This hook parses every JSON body once up front and answers 400 instead; bodies
over `max_content_length` are refused by Werkzeug with 413 before they are read.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

WITH_BODY = {"POST", "PUT", "PATCH"}


def depth(value: Any, limit: int) -> int:
    """Nesting depth of a parsed JSON value (counting stops just past `limit`), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= limit:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def check_media_type() -> None:
    """Refuse (415) a /v1 write whose body is not JSON (every /v1 body is), instead of reading it as absent."""
    if request.method not in WITH_BODY or not request.path.startswith("/v1/") or request.is_json:
        return
    if request.content_type or request.content_length:
        raise UnsupportedMediaType(f"Send the body as application/json, not {request.mimetype or 'without a type'}.")


def check_json(max_depth: int) -> None:
    """Refuse (400) a JSON body that does not parse, or nests deeper than `max_depth` levels."""
    check_media_type()
    if not request.is_json or request.method in {"GET", "HEAD", "OPTIONS"}:
        return
    raw = request.get_data(cache=True)
    if not raw:
        return
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"The body is not JSON this service accepts: {_reason(error)}") from None
    # A body cannot nest deeper than it has brackets; most have a handful, so the walk is rarely needed.
    if raw.count(b"[") + raw.count(b"{") > max_depth and depth(value, max_depth) > max_depth:
        raise BadRequest(f"The body nests deeper than {max_depth} levels.")
    request._cached_json = (value, value)  # Flask's own cache: the body is parsed once, not twice


def _reason(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).split(":")[0][:120]


def init_app(app: Flask, max_depth: int) -> None:
    """Check every JSON body before any view parses it."""
    app.before_request(lambda: check_json(max_depth))
