"""The project's Blueprint: schemas are built once, and views' JSON-ready answers are not dumped twice.

flask-smorest hands a request schema class straight to webargs, which instantiates it for each
request (about a third of a millisecond for a nested schema); an instance is reused as it is.

Every view here already returns plain JSON values shaped like its response schema, so running
`Schema.dump` over them again only copies them (a third of a calculator's time in a profile). The
response schema still documents the answer; in production a dict or list is sent as the view built
it. With `TESTING` on, each answer is also dumped and must equal what the view built — the whole test
suite (and schemathesis' response-conformance checks) keeps views and schemas in step.
"""
from __future__ import annotations

from numbers import Number
from typing import Any

from flask import current_app
from flask_smorest import Blueprint as SmorestBlueprint
from flask_smorest.utils import resolve_schema_instance
from marshmallow import Schema


class ResponseDrift(AssertionError):
    """A view's answer differs from what its response schema would send (raised in tests only)."""


class Blueprint(SmorestBlueprint):
    """flask-smorest's Blueprint with ready schema instances and pass-through responses."""

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Declare the request schema of a view (an instance is made once here when a class is given)."""
        if isinstance(schema, type):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def response(self, status_code: Any, schema: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        """Declare (and document) the response schema of a view; its answer is sent as built."""
        if schema is not None:
            schema = resolve_schema_instance(schema)
            if not hasattr(schema, "passes_through"):
                schema.dump = _passthrough(schema)  # type: ignore[method-assign]
                schema.passes_through = True  # type: ignore[attr-defined]
        return super().response(status_code, schema, **kwargs)


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
