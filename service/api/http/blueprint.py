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

Each flask-smorest decorator wraps the view in one more function that looks up the app and asks
`ensure_sync` before calling the next (a microsecond or two each, five layers deep on every call).
Here `doc` and `alt_response` only document: the view keeps its own code under the new docs. The
`response` wrapper writes the JSON response itself, as `jsonify` would (same bytes, status and headers).
ETags through flask-smorest (`@blp.etag`) are not supported: they read the dumped result this skips.
"""
from __future__ import annotations

import inspect
from functools import wraps
from numbers import Number
from types import FunctionType
from typing import Any

from flask import Request, Response, current_app, jsonify
from flask_smorest import Blueprint as SmorestBlueprint
from flask_smorest.utils import (
    get_appcontext,
    resolve_schema_instance,
    set_status_and_headers_in_response,
    unpack_tuple_response,
)
from marshmallow import Schema, ValidationError
from webargs.flaskparser import is_json_request

from service.api.http.bodies import JSON_OBJECT
from service.api.http.current import app_of_request, current_request
from service.api.http.fastload import NotFast, compile_loader


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
            plain = not inspect.iscoroutinefunction(inspect.unwrap(func))

            @wraps(parsed)
            def view(*f_args: Any, **f_kwargs: Any) -> Any:
                body = _json_object(current_request())
                if body is not None:
                    try:
                        loaded = load(body)
                    except NotFast:
                        pass
                    else:
                        app = app_of_request()
                        if app.testing:
                            check_load(schema, body, loaded)
                        return (func if plain else app.ensure_sync(func))(*f_args, loaded, **f_kwargs)
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
        document = super().response(status_code, schema, **kwargs)

        def decorator(func: Any) -> Any:
            documented = document(func)
            if inspect.iscoroutinefunction(inspect.unwrap(func)):
                return documented
            prepare = self._prepare_response_content

            @wraps(func)
            def respond(*args: Any, **f_kwargs: Any) -> Any:
                result = func(*args, **f_kwargs)
                if type(result) is dict or type(result) is list:  # the usual answer: no status, no headers
                    dumped = result if schema is None else schema.dump(result)
                    response = app_of_request().json.response(prepare(dumped))
                    if response.status_code != status_code:  # each set parses the status line again
                        response.status_code = status_code
                    return response
                return _respond(result, schema, status_code, prepare)
            respond._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return respond
        return decorator

    def alt_response(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Document another response of a view (the view itself is left as it is)."""
        return _documenting(super().alt_response(*args, **kwargs))

    @staticmethod
    def doc(**kwargs: Any) -> Any:  # type: ignore[override]
        """Add operation fields (operationId, description...) to a view's docs, leaving the view as it is."""
        return _documenting(SmorestBlueprint.doc(**kwargs))

    def etag(self, obj: Any) -> Any:  # type: ignore[override]
        """Not supported: answers are not dumped here, and flask-smorest's ETags are computed from the dump."""
        raise NotImplementedError("flask-smorest ETags are not supported by service.api.http.blueprint.Blueprint")


def _respond(result: Any, schema: Schema | None, status_code: Any, prepare: Any) -> Any:
    """What flask-smorest's response wrapper does with any other view result (tuples, Response objects)."""
    result_raw, r_status_code, r_headers = unpack_tuple_response(result)
    if isinstance(result_raw, Response):
        set_status_and_headers_in_response(result_raw, r_status_code, r_headers)
        return result_raw
    result_dump = result_raw if schema is None else schema.dump(result_raw)
    get_appcontext()["result_dump"] = result_dump
    response = jsonify(prepare(result_dump))
    set_status_and_headers_in_response(response, r_status_code, r_headers)
    if r_status_code is None:
        response.status_code = status_code
    return response


def _documenting(decorate: Any) -> Any:
    """A decorator giving a view the docs `decorate` would give it, without `decorate`'s calling layer:
    a copy of the view function (same code, globals, closure, defaults) carries the new docs."""
    def decorator(func: Any) -> Any:
        wrapper = decorate(func)
        if type(func) is not FunctionType or inspect.iscoroutinefunction(inspect.unwrap(func)):
            return wrapper
        twin = FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__)
        twin.__kwdefaults__ = func.__kwdefaults__
        twin.__dict__.update(wrapper.__dict__)  # __wrapped__, _apidoc and whatever func itself carried
        for name in ("__module__", "__qualname__", "__doc__", "__annotations__"):
            setattr(twin, name, getattr(func, name))
        return twin
    return decorator


def _json_object(req: Request) -> dict | None:
    """The request's JSON object when webargs would read the very same one, else None.

    The body-check hook has parsed it already (`json.loads` of the bytes) and kept it when it is such an
    object; webargs decodes the bytes as UTF-8 first, so a body in another encoding or with a BOM goes the
    slow way and gets its answer.
    """
    body = req.environ.get(JSON_OBJECT)
    if body is not None:
        return body  # type: ignore[no-any-return]
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


def check_load(schema: Schema, body: Any, loaded: Any) -> None:
    """Fail (LoadDrift) unless `loaded` is exactly what `schema.load(body)` gives (each item of a list)."""
    try:
        expected = schema.load(body, many=isinstance(body, list))
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
