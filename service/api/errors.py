"""RFC 9457 problem+json for every error the service returns: the one place errors get their shape."""
from __future__ import annotations

from typing import Any, Iterable

from flask import Flask, Response, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, UnprocessableEntity

from service.rules.errors import RulesError

PROBLEM = "application/problem+json"


def problem(status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
            **extra: Any) -> Response:
    """A problem+json response; `errors` lists each bad field as {field, message}."""
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status, "detail": detail,
                            "instance": request.path if request else None}
    if errors:
        body["errors"] = errors
    body.update(extra)
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


def flatten(messages: Any, path: tuple[str, ...] = ()) -> Iterable[dict[str, str]]:
    """Turn marshmallow's nested message dicts into one {field, message} entry per bad value."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema":
                yield from flatten(value, path)
            else:
                yield from flatten(value, (*path, str(key)))
    elif isinstance(messages, (list, tuple)) and messages and all(isinstance(m, str) for m in messages):
        for message in messages:
            yield {"field": ".".join(path), "message": message}
    elif isinstance(messages, (list, tuple)):
        for item in messages:
            yield from flatten(item, path)
    else:
        yield {"field": ".".join(path), "message": str(messages)}


def _strip_location(messages: Any) -> Any:
    """webargs nests messages under the request location ("json", "query"); callers want field paths."""
    if isinstance(messages, dict) and set(messages) <= {"json", "query", "form", "headers", "path", "view_args"}:
        merged: dict[str, Any] = {}
        for value in messages.values():
            merged.update(value if isinstance(value, dict) else {"_schema": value})
        return merged
    return messages


def handle_http(error: HTTPException) -> Response:
    """Every werkzeug/flask-smorest HTTP error, with field errors when validation produced them."""
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    errors = list(flatten(_strip_location(messages))) if messages else None
    status = error.code or 500
    if isinstance(error, UnprocessableEntity) and errors:
        return problem(422, "Invalid request", "One or more fields are invalid.", errors)
    detail = error.description or error.name
    response = problem(status, error.name, str(detail), errors)
    if status == 405 and getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


def handle_validation(error: ValidationError) -> Response:
    """A marshmallow error raised outside request parsing (e.g. a nested load in a view)."""
    return problem(422, "Invalid request", "One or more fields are invalid.", list(flatten(error.messages)))


def handle_rules(error: RulesError) -> Response:
    """A domain refusal: its message, and the field to blame when there is one."""
    errors = None
    if error.field:
        errors = [{"field": ".".join(map(str, error.field)), "message": error.message}]
    return problem(error.status, error.title, error.message, errors)


def handle_unexpected(error: Exception) -> Response:
    """Last resort: log it, answer a plain 500 problem without internals."""
    from flask import current_app

    current_app.logger.exception("unhandled error", exc_info=error)
    return problem(500, "Internal Server Error", "The server could not complete the request.")


def register(app: Flask) -> None:
    """Install the handlers; nothing else in the service builds error bodies."""
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(ValidationError, handle_validation)
    app.register_error_handler(RulesError, handle_rules)
    app.register_error_handler(Exception, handle_unexpected)
