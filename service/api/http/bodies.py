"""Request bodies the JSON parser must never choke on: too deep, too long a number, not JSON at all.

Python's json module recurses once per nesting level and refuses integers of more than 4300 digits,
so a body nested 1000 levels deep or a 5000-digit number would surface as a RecursionError or
ValueError (a 500). This hook parses every JSON body once up front and answers 400 instead (NaN and
Infinity, which the json module reads, are not JSON: 400 too); a number literal a double cannot hold, which
would read as 0 (1e-400) or infinity (1e400), is 422 naming its path (issue 22), in a body or a query; bodies
over `max_content_length` are refused with 413 (problem+json) whatever their framing: with a
Content-Length, Werkzeug refuses before reading; a body without one (`Transfer-Encoding: chunked`) is
read by `BodyLimit` up to one byte past the limit, and counted by the bytes that actually arrived.
"""
from __future__ import annotations

import io
import json
import math
import re
from typing import Any, Callable, Iterable

import orjson
from flask import Flask, Request
from marshmallow import ValidationError
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
    except UnreadableNumber as error:
        raise ValidationError({error.path: [error.message]}) from None
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"The body is not JSON this service accepts: {_reason(error)}") from None
    # A body cannot nest deeper than it has brackets; most have a handful, so the walk is rarely needed.
    if raw.count(b"[") + raw.count(b"{") > max_depth and depth(value, max_depth) > max_depth:
        raise BadRequest(f"The body nests deeper than {max_depth} levels.")
    req._cached_json = (value, value)  # Flask's own cache: the body is parsed once, not twice
    if type(value) is dict and raw.lstrip()[:1] == b"{" and (raw.isascii() or _utf8(raw)):
        req.environ[JSON_OBJECT] = value


# orjson reads an integer beyond 64 bits as a float, and a literal past a double's range as 0 or refuses it:
# a body with a long digit run or a three-digit exponent goes through `_read_numbers` instead.
_RISKY_NUMBER = re.compile(rb"[0-9]{19}|[0-9][eE][-+]?[0-9]{3}")
_NONZERO_DIGIT = re.compile(r"[1-9]")
DOUBLE_DIGITS = 308  # an integer of no more digits is within a double's range (1.8e308)


class UnreadableNumber(ValueError):
    """A JSON number a double cannot hold: a non-zero literal that would read as 0 (1e-400) or one past
    +/-1.8e308; `path` is the dotted path of the value."""

    def __init__(self, path: str, literal: str):
        self.path, self.literal = path, literal
        reads_as = "0" if _reads_as_zero(literal) else "infinity"
        shown = literal if len(literal) <= 24 else literal[:20] + "..."
        self.message = (f"{shown} is beyond a double's range (it would read as {reads_as}); send 0 or a "
                        "number of magnitude 5e-324 to 1.7e308")
        super().__init__(self.message)


def _parse(raw: bytes) -> Any:
    """`json.loads(raw)`, refusing what is not JSON (NaN, Infinity) and a number a double cannot hold.
    orjson reads the usual body (UTF-8, no number of 19 digits or more or with a three-digit exponent) to
    the same values several times faster; whatever it refuses, the json module reads or refuses as before."""
    if _RISKY_NUMBER.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return _read_numbers(raw)


class _Unreadable(str):
    """A number literal that did not fit a double, kept in place until its path is known."""


def _read_numbers(raw: bytes) -> Any:
    """json.loads with every number checked: an UnreadableNumber naming the first one a double cannot hold."""
    found: list[_Unreadable] = []

    def number(text: str) -> Any:
        value = float(text)
        if math.isinf(value) or _reads_as_zero(text):
            found.append(_Unreadable(text))
            return found[-1]
        return value

    def whole(text: str) -> Any:
        value = int(text)  # more than 4,300 digits: ValueError, as json.loads
        if len(text) > DOUBLE_DIGITS and math.isinf(float(text)):
            found.append(_Unreadable(text))
            return found[-1]
        return value

    value = json.loads(raw, parse_float=number, parse_int=whole, parse_constant=_not_json)
    if found:
        raise UnreadableNumber(_path_of(value, found[0]), str(found[0]))
    return value


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _path_of(value: Any, target: Any) -> str:
    """The dotted path of the object `target` inside `value` (iterative: bodies nest up to the depth cap)."""
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if item is target:
            return ".".join(map(str, path))
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        stack.extend((child, (*path, key)) for key, child in children)
    return ""


def _reads_as_zero(literal: str) -> bool:
    """Whether a number literal that is not zero reads as 0.0 (it underflows a double)."""
    return float(literal) == 0 and bool(_NONZERO_DIGIT.search(re.split("[eE]", literal)[0]))


def unreadable_query_number(text: str) -> bool:
    """Whether a plain number in a query string is past a double's range (reads as 0 or infinity)."""
    return math.isinf(float(text)) or _reads_as_zero(text)


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
        if not _PLAIN_NUMBER.fullmatch(values[0]):
            if _python_reads_a_number(values[0]):
                raise OutOfRange(f"{values[0]!r} is not a plain number (ASCII digits only)", (name,))
        elif unreadable_query_number(values[0]):
            raise ValidationError({name: [UnreadableNumber(name, values[0]).message]})


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
