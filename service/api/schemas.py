"""Schema pieces shared by every blueprint: trace steps, dice rolls, probabilities."""
from __future__ import annotations

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
    return fields.Integer(load_default=None, allow_none=True,
                          metadata={"description": "Seed for the dice; the answer echoes the one used."},
                          validate=validate.Range(0, 2**63 - 1))
