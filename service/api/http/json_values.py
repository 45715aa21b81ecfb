"""The JSON values a request body may hold, read strictly: a boolean is true/false, a number is a JSON
number, a whole number is an integer (or a float with no fraction). The fast body loader (fastload) knows
these types; every schema builds its fields from them."""
from __future__ import annotations

from marshmallow import fields


class JsonBoolean(fields.Boolean):
    """A JSON body's true/false only (not 0, 1 or "yes")."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class JsonFloat(fields.Float):
    """A JSON body's number only (not a numeric string, not true/false)."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class JsonInteger(fields.Integer):
    """A JSON body's whole number: 8 or 8.0 (JSON Schema's integer), never 8.5, "8" or true."""

    def __init__(self, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)
