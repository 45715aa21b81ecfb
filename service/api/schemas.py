"""Schema pieces shared by every blueprint: trace steps, dice rolls, probabilities."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate


class TraceStepSchema(Schema):
    """One step of the explanation: the seed heading or ruling used, what it did, the value."""

    rule = fields.String(required=True, metadata={"description": "Seed heading or ruling applied."})
    detail = fields.String(required=True)
    value = fields.Raw(allow_none=True)


class RollSchema(Schema):
    """A roll with every die shown; `supplied` is true when the caller provided the faces."""

    expression = fields.String(required=True)
    dice = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)
    supplied = fields.Boolean(required=True)


def trace_field() -> fields.List:
    """The `trace` list every calculator answers with."""
    return fields.List(fields.Nested(TraceStepSchema), required=True)


def seed_field() -> fields.Integer:
    """The optional `seed` that makes a random answer reproducible."""
    return JsonInteger(load_default=None, allow_none=True,
                          metadata={"description": "Seed for the dice; the answer echoes the one used."},
                          validate=validate.Range(0, 2**63 - 1))


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


def json_number(value: Any) -> int | float | None:
    """An exact number as JSON shows it: an integer when whole (60, not 60.0), else a float (57.5)."""
    if value is None or isinstance(value, int):
        return value
    number = float(value)
    return int(number) if number.is_integer() else number
