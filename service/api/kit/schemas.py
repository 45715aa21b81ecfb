"""Schema pieces shared by every blueprint: trace steps, dice rolls, probabilities."""
from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields, validate

from service.api.http.json_values import JsonBoolean, JsonFloat, JsonInteger  # noqa: F401 (re-exported)


class Strict(Schema):
    """Unknown fields are refused (a typo never passes silently)."""

    class Meta:
        unknown = RAISE


class TraceStepSchema(Schema):
    """One step of the explanation: the seed heading or ruling used, what it did, the value."""

    rule = fields.String(required=True, metadata={"description": "Seed heading or ruling applied."})
    detail = fields.String(required=True,
                           metadata={"description": "What the rule did here, with the numbers."})
    value = fields.Raw(allow_none=True,
                       metadata={"description": "The value it produced (a number, text or null)."})


class RollSchema(Schema):
    """A roll with every die shown; `supplied` is true when the caller provided the faces."""

    role = fields.String(metadata={"description": "What the roll was for (the role a caller's `rolls` use)."})
    expression = fields.String(required=True, metadata={"description": "The dice rolled, e.g. \"3d6\"."})
    dice = fields.List(fields.Integer(), required=True, metadata={"description": "Every face, in order."})
    total = fields.Integer(required=True, metadata={"description": "The roll's value."})
    supplied = fields.Boolean(required=True, metadata={"description": "True when the faces came from `rolls`."})
    combatant = fields.String(metadata={"description": "Whose roll it was (round resolvers)."})


def trace_field() -> fields.List:
    """The `trace` list every calculator answers with."""
    return fields.List(fields.Nested(TraceStepSchema), required=True,
                       metadata={"description": "How the answer was reached: each rule or ruling applied, in "
                                                "order, with what it did and the value it gave."})


def seed_field(text: str = "Seed for the dice; the answer echoes the one used.") -> fields.Integer:
    """The optional `seed` that makes a random answer reproducible."""
    return JsonInteger(load_default=None, allow_none=True, metadata={"description": text},
                       validate=validate.Range(0, 2**63 - 1))


def json_number(value: Any) -> int | float | None:
    """An exact number as JSON shows it: an integer when whole (60, not 60.0), else a float (57.5)."""
    if value is None or isinstance(value, int):
        return value
    number = float(value)
    return int(number) if number.is_integer() else number


class RollQueueSchema(Schema):
    """Faces a caller rolled at the table for one role (and combatant), consumed in the order the rules
    roll them; what the queue does not cover is rolled from the seed."""

    combatant = fields.String(validate=validate.Length(1, 64),
                              metadata={"description": "Whose dice these are; omit for table-level dice."})
    role = fields.String(required=True, validate=validate.Length(1, 40),
                         metadata={"description": "The role of the dice (each ruleset lists its roles)."})
    faces = fields.List(JsonInteger(validate=validate.Range(0, 1000)), required=True,
                        validate=validate.Length(max=1000),
                        metadata={"description": "Faces in the order rolled (0 only where a die is read "
                                                 "0..9, e.g. a stress die; each ruleset checks its dice)."})


def round_rolls_field() -> fields.List:
    """The `rolls` list of a round resolver (README of the rules documents, caller-supplied rolls)."""
    return fields.List(fields.Nested(RollQueueSchema), load_default=list, validate=validate.Length(max=500),
                       metadata={"description": "Caller-supplied faces, queued per combatant and role."})


def calculator_rolls_field(roles: dict[str, str], max_faces: int = 100) -> fields.Nested:
    """The `rolls` object of a calculator: role -> faces; `roles` maps each role to its description."""
    role_fields = {role: fields.List(JsonInteger(validate=validate.Range(1, 1000)),
                                     validate=validate.Length(max=max_faces), metadata={"description": text})
                   for role, text in roles.items()}
    schema = Schema.from_dict(role_fields, name="Rolls" + "".join(r.title().replace("_", "") for r in roles))
    schema.__doc__ = "Faces rolled at the table, by the role of the dice: " + ", ".join(roles) + "."
    return fields.Nested(schema, load_default=None, allow_none=True,
                         metadata={"description": "Faces rolled at the table, by role; missing dice come "
                                                  "from the seed."})
