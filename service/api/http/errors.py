"""RFC 9457 problem+json for every error the service returns: the one place errors get their shape."""
from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any, Iterable

from flask import Flask, Response, json, request
from marshmallow import ValidationError
from redis.exceptions import ConnectionError as RedisConnectionError, ResponseError as RedisResponseError
from redis.exceptions import OutOfMemoryError as RedisOutOfMemory, TimeoutError as RedisTimeout
from werkzeug.exceptions import HTTPException, UnprocessableEntity

from service.api.http.logging import request_id
from service.rules.errors import RulesError
from service.sessions.cluster import UNAVAILABLE
from service.sessions.errors import SessionError

PROBLEM = "application/problem+json"
PROBLEM_TYPE = "urn:referee:problem:"


def problem_type(status: int, title: str) -> str:
    """RFC 9457 `type`: `about:blank` when the title is the status phrase, else a URI naming the problem
    (`urn:referee:problem:out-of-range`), so clients can tell problems of one status apart."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    if title.lower() == phrase.lower():
        return "about:blank"
    return PROBLEM_TYPE + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def problem_body(status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
                 **extra: Any) -> dict[str, Any]:
    """The problem+json document itself (batch items carry it inside a 200 answer)."""
    body: dict[str, Any] = {"type": problem_type(status, title), "title": title, "status": status, "detail": detail,
                            "instance": request.path if request else None, "request_id": request_id()}
    if errors:
        body["errors"] = errors
    body.update(extra)
    return body


def problem(status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
            **extra: Any) -> Response:
    """A problem+json response; `errors` lists each bad field as {field, message}."""
    return Response(json.dumps(problem_body(status, title, detail, errors, **extra)), status=status,
                    mimetype=PROBLEM)


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
    for name, value in error.get_headers():
        if name.lower() != "content-type":  # Allow (405), Retry-After (429, 503), WWW-Authenticate (401)
            response.headers[name] = value
    return response


def validation_body(messages: Any) -> dict[str, Any]:
    """The 422 problem document for marshmallow messages."""
    return problem_body(422, "Invalid request", "One or more fields are invalid.", list(flatten(messages)))


def rules_body(error: RulesError) -> dict[str, Any]:
    """The problem document of a domain refusal: its message, and the field to blame when there is one."""
    errors = None
    if error.field:
        errors = [{"field": ".".join(map(str, error.field)), "message": error.message}]
    return problem_body(error.status, error.title, error.message, errors)


def _json(body: dict[str, Any]) -> Response:
    return Response(json.dumps(body), status=body["status"], mimetype=PROBLEM)


def handle_validation(error: ValidationError) -> Response:
    """A marshmallow error raised outside request parsing (e.g. a nested load in a view)."""
    return _json(validation_body(error.messages))


def handle_rules(error: RulesError) -> Response:
    """A domain refusal: its message, and the field to blame when there is one."""
    return _json(rules_body(error))


def handle_session(error: SessionError) -> Response:
    """An encounter-store refusal (401, 404, 409, 412) with its extra headers (WWW-Authenticate)."""
    response = handle_rules(error)
    response.headers.update(error.headers)
    return response


STORE_RETRY_AFTER = "2"  # seconds: a cluster's failover takes a few (node timeout, then the election)


def handle_store_down(error: Exception) -> Response:
    """Redis cannot be reached, or a Redis Cluster shard is switching over (CLUSTERDOWN, TRYAGAIN, a slot
    without a primary): 503 with Retry-After, never 500 (the calculators keep working)."""
    detail = "The encounter store (Redis) is unreachable; try again later."
    if not isinstance(error, (RedisConnectionError, RedisTimeout)):
        detail = "The encounter store (Redis Cluster) is switching over a shard; try again in a few seconds."
    response = problem(503, "Service Unavailable", detail)
    response.headers["Retry-After"] = STORE_RETRY_AFTER
    return response


def handle_store_refusal(error: Exception) -> Response:
    """Redis refused a write because it reached its `maxmemory` (policy noeviction): 503, not 500."""
    if not isinstance(error, RedisOutOfMemory) and "maxmemory" not in str(error):
        return handle_unexpected(error)
    response = problem(503, "Service Unavailable", "The store (Redis) is full; try again later.")
    response.headers["Retry-After"] = "30"
    return response


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
    app.register_error_handler(SessionError, handle_session)
    for unavailable in UNAVAILABLE:  # unreachable, or a cluster shard without a primary for now
        app.register_error_handler(unavailable, handle_store_down)
    app.register_error_handler(RedisResponseError, handle_store_refusal)  # OutOfMemoryError among them
    app.register_error_handler(Exception, handle_unexpected)
