"""The project's Blueprint: schemas are built once, valid JSON bodies are loaded without marshmallow's
per-field machinery, and views' JSON-ready answers are not dumped twice.

flask-smorest hands a request schema class straight to webargs, which instantiates it for each
request (about a third of a millisecond for a nested schema); an instance is reused as it is.

Every view here already returns plain JSON values shaped like its response schema, so running
`Schema.dump` over them again only copies them (a third of a calculator's time in a profile). The
response schema still documents the answer; in production a dict or list is sent as the view built
it. With `TESTING` on, each answer is also dumped and must equal what the view built — the whole test
suite (and schemathesis' response-conformance checks) keeps views and schemas in step.

A JSON body goes through `fastload` first (a third of a /damage call was `Schema.load` of a valid
body); whatever it cannot vouch for goes through webargs and marshmallow as before, which also make
every error. With `TESTING` on, each fast load is checked against `Schema.load` of the same body.
"""
from __future__ import annotations

from functools import wraps
from numbers import Number
from typing import Any

from flask import Request, current_app, request
from flask_smorest import Blueprint as SmorestBlueprint
from flask_smorest.utils import resolve_schema_instance
from marshmallow import Schema, ValidationError
from webargs.flaskparser import is_json_request

from service.api.fastload import NotFast, compile_loader


DOC_ONLY = {"location", "description", "example", "examples", "required", "content_type"}  # never reach webargs


class ResponseDrift(AssertionError):
    """A view's answer differs from what its response schema would send (raised in tests only)."""


class LoadDrift(AssertionError):
    """The fast loader and `Schema.load` disagree about a body (raised in tests only)."""


class Blueprint(SmorestBlueprint):
    """flask-smorest's Blueprint with ready schema instances and pass-through responses."""

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Declare the request schema of a view (an instance is made once here when a class is given)."""
        if isinstance(schema, type):
            schema = schema()
        decorate = super().arguments(schema, *args, **kwargs)
        # Only plain JSON bodies: anything else handed to webargs (unknown=, validate=...) keeps its full load.
        if args or kwargs.keys() - DOC_ONLY or kwargs.get("location", "json") != "json":
            return decorate
        load = compile_loader(schema)
        if load is None:
            return decorate

        def decorator(func: Any) -> Any:
            parsed = decorate(func)

            @wraps(parsed)
            def view(*f_args: Any, **f_kwargs: Any) -> Any:
                body = _json_object(request._get_current_object())  # type: ignore[attr-defined]
                if body is not None:
                    try:
                        loaded = load(body)
                    except NotFast:
                        pass
                    else:
                        app = current_app._get_current_object()  # type: ignore[attr-defined]
                        if app.testing:
                            _check_load(schema, body, loaded)
                        return app.ensure_sync(func)(*f_args, loaded, **f_kwargs)
                return parsed(*f_args, **f_kwargs)  # webargs: the full load, and its errors
            return view
        return decorator

    def response(self, status_code: Any, schema: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        """Declare (and document) the response schema of a view; its answer is sent as built."""
        if schema is not None:
            schema = resolve_schema_instance(schema)
            if not hasattr(schema, "passes_through"):
                schema.dump = _passthrough(schema)  # type: ignore[method-assign]
                schema.passes_through = True  # type: ignore[attr-defined]
        return super().response(status_code, schema, **kwargs)


def _json_object(req: Request) -> dict | None:
    """The request's JSON object when webargs would read the very same one, else None.

    The body-check hook has parsed it already (`json.loads` of the bytes); webargs decodes the bytes
    as UTF-8 first, so a body in another encoding or with a BOM goes the slow way and gets its answer.
    """
    if not is_json_request(req):
        return None
    raw = req.get_data(cache=True)
    if not raw.lstrip()[:1] == b"{":
        return None
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    body = req.get_json(silent=True)
    return body if type(body) is dict else None


def _check_load(schema: Schema, body: dict, loaded: dict) -> None:
    try:
        expected = schema.load(body)
    except ValidationError as error:
        raise LoadDrift(f"{type(schema).__name__}: fast load accepted {body!r}, marshmallow refuses it: "
                        f"{error.messages}") from None
    if not same_values(loaded, expected):
        raise LoadDrift(f"{type(schema).__name__}: fast load gave {loaded!r}, marshmallow {expected!r}")


def _passthrough(schema: Schema) -> Any:
    dump = schema.dump

    def dump_or_pass(result: Any, *, many: bool | None = None) -> Any:
        if not isinstance(result, (dict, list, tuple)):
            return dump(result, many=many)
        if current_app.testing:
            expected = dump(result, many=many)
            if not same_json(result, expected):
                raise ResponseDrift(f"{type(schema).__name__}: view answered {result!r}, schema dumps {expected!r}")
            problems = schema.validate(expected, many=many)  # required fields present, values in range
            if problems:
                raise ResponseDrift(f"{type(schema).__name__}: the answer breaks its own schema: {problems}")
        return result
    return dump_or_pass


def same_json(built: Any, dumped: Any) -> bool:
    """Whether `built` serialises as `dumped` does: same keys, same values, an integer where one is dumped."""
    if isinstance(dumped, dict):
        return isinstance(built, dict) and built.keys() == dumped.keys() and all(
            same_json(built[key], value) for key, value in dumped.items())
    if isinstance(dumped, list):
        return isinstance(built, (list, tuple)) and len(built) == len(dumped) and all(
            same_json(b, d) for b, d in zip(built, dumped))
    if isinstance(dumped, bool) or isinstance(built, bool):
        return built is dumped
    if isinstance(dumped, Number) and isinstance(built, Number):
        return built == dumped and (isinstance(built, int) or not isinstance(dumped, int))
    return type(built) is type(dumped) and built == dumped


def same_values(a: Any, b: Any) -> bool:
    """Equal, and of the same type all the way down (1 and 1.0, or 1 and True, differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_values(a[key], b[key]) for key in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)  # NaN equals NaN here
