"""Request bodies the JSON parser must never choke on: too deep, too long a number, not JSON at all.

Python's json module recurses once per nesting level and refuses integers of more than 4300 digits,
so a body nested 1000 levels deep or a 5000-digit number would surface as a RecursionError or
ValueError (a 500). This hook parses every JSON body once up front and answers 400 instead; bodies
over `max_content_length` are refused with 413 (problem+json) whatever their framing: with a
Content-Length, Werkzeug refuses before reading; a body without one (`Transfer-Encoding: chunked`) is
read by `BodyLimit` up to one byte past the limit, and counted by the bytes that actually arrived.
"""
from __future__ import annotations

import io
import json
import re
from typing import Any, Callable, Iterable

import orjson
from flask import Flask, Request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from service.api.http.current import current_request
from service.rules.errors import OutOfRange

WITH_BODY = {"POST", "PUT", "PATCH"}
OVER_LIMIT = "referee.body_over_limit"
# The parsed body, when it is a JSON object that webargs would read the same (UTF-8 text starting with "{"):
# views' fast loading takes it from here (see blueprint.py).
JSON_OBJECT = "referee.json_object"


class BodyLimit:
    """WSGI middleware: a request body with no Content-Length is read here, at most `limit` + 1 bytes, and
    handed on with the Content-Length it turned out to have; one longer than `limit` is marked so the app
    answers 413 (its own error handlers write the problem+json, CORS and log line)."""

    def __init__(self, app: Callable, limit: int):
        self.app, self.limit = app, limit

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if not environ.get("CONTENT_LENGTH") and self._has_body(environ):
            body, stream = bytearray(), environ["wsgi.input"]
            while len(body) <= self.limit:
                piece = stream.read(min(64 * 1024, self.limit + 1 - len(body)))
                if not piece:
                    break
                body += piece
            if len(body) > self.limit:
                environ[OVER_LIMIT] = True
                body = bytearray()
            environ["wsgi.input"] = io.BytesIO(bytes(body))
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated", None)
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # Werkzeug ignores a Content-Length beside "chunked"
        return self.app(environ, start_response)

    @staticmethod
    def _has_body(environ: dict) -> bool:
        return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower() or bool(
            environ.get("wsgi.input_terminated"))


def refuse_oversized(req: Request, limit: int | None) -> None:
    """413 for a body `BodyLimit` found too long, or one whose Content-Length says it is."""
    environ = req.environ
    if environ.get(OVER_LIMIT):
        raise RequestEntityTooLarge(f"The request body is larger than {limit} bytes.")
    if limit is None:
        return
    raw = environ.get("CONTENT_LENGTH")
    if raw is not None and raw.isascii() and raw.isdigit() and "HTTP_TRANSFER_ENCODING" not in environ:
        length = int(raw)  # what `req.content_length` makes of plain digits, without its header parsing
    else:
        length = req.content_length or 0
    if length > limit:
        raise RequestEntityTooLarge(f"The request body is larger than {limit} bytes.")


def depth(value: Any, limit: int) -> int:
    """Nesting depth of a parsed JSON value (counting stops just past `limit`), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= limit:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def check_media_type(req: Request, is_json: bool | None = None) -> None:
    """Refuse (415) a /v1 write whose body is not JSON (every /v1 body is), instead of reading it as absent."""
    if req.method not in WITH_BODY or not req.path.startswith("/v1/") or (
            req.is_json if is_json is None else is_json):
        return
    if req.content_type or req.content_length:
        raise UnsupportedMediaType(f"Send the body as application/json, not {req.mimetype or 'without a type'}.")


def check_json(req: Request, max_depth: int) -> None:
    """Refuse (400) a JSON body that does not parse, or nests deeper than `max_depth` levels."""
    is_json = req.is_json
    check_media_type(req, is_json)
    if not is_json or req.method in {"GET", "HEAD", "OPTIONS"}:
        return
    raw = req.get_data(cache=True)
    if not raw:
        return
    try:
        value = _parse(raw)
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"The body is not JSON this service accepts: {_reason(error)}") from None
    # A body cannot nest deeper than it has brackets; most have a handful, so the walk is rarely needed.
    if raw.count(b"[") + raw.count(b"{") > max_depth and depth(value, max_depth) > max_depth:
        raise BadRequest(f"The body nests deeper than {max_depth} levels.")
    req._cached_json = (value, value)  # Flask's own cache: the body is parsed once, not twice
    if type(value) is dict and raw.lstrip()[:1] == b"{" and (raw.isascii() or _utf8(raw)):
        req.environ[JSON_OBJECT] = value


_LONG_DIGITS = re.compile(rb"[0-9]{19}")  # orjson reads an integer beyond 64 bits as a float


def _parse(raw: bytes) -> Any:
    """`json.loads(raw)`. orjson reads the usual body (UTF-8, no NaN, no number of 19 digits or more) to
    the same values several times faster; whatever it refuses, the json module reads or refuses as before."""
    if _LONG_DIGITS.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _reason(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).split(":")[0][:120]


# What a number in a query string may look like: ASCII digits, an optional sign, fraction and exponent.
_PLAIN_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", re.ASCII)


def check_query(req: Request) -> None:
    """Refuse (422 naming the parameter) a query parameter given twice, and a number that Python would read
    but a client should not send: `1_0`, full-width or other non-ASCII digits, surrounding blanks."""
    if not req.environ.get("QUERY_STRING"):
        return
    for name, values in req.args.lists():
        if len(values) > 1:
            raise OutOfRange(f"give {name!r} once, not {len(values)} times", (name,))
        if not _PLAIN_NUMBER.fullmatch(values[0]) and _python_reads_a_number(values[0]):
            raise OutOfRange(f"{values[0]!r} is not a plain number (ASCII digits only)", (name,))


def _python_reads_a_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip().lower().lstrip("+-") not in {"inf", "infinity", "nan"}


def init_app(app: Flask, max_depth: int) -> None:
    """Bound every body by the bytes read, check query strings, and check every JSON body before any view
    parses it."""
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if limit:
        app.wsgi_app = BodyLimit(app.wsgi_app, limit)  # type: ignore[method-assign]

    @app.before_request
    def check_request() -> None:
        req = current_request()  # one context lookup for all checks
        refuse_oversized(req, limit)
        check_query(req)
        check_json(req, max_depth)
