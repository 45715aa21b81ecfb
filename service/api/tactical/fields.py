"""Fields the tactical schemas share (seed 000): their ranges, the weight class, the Task Resolution Table and
Progressive scale choices, nested blocks' defaults, and the answer's integers, chances and odds objects (shapes
only)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.kit.fields import string_or_null
from service.api.kit.schemas import JsonFloat, JsonInteger
from service.rules.tactical.potence import WEIGHT_CLASSES
from service.rules.tactical.task_resolution import METHODS

SCORE = validate.Range(-10_000, 10_000)
SMALL = validate.Range(0, 1_000)
SPEED = validate.Range(0, 1_000)
FEET = validate.Range(0, 100_000)
PROGRESSIONS = ("triangular", "linear")


class WeightClassField(fields.Field):
    """A weight class by name or by index 0..5 (RULINGS 10)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, str) and value in WEIGHT_CLASSES:
            return value
        if type(value) is float and value.is_integer():  # 5.0 is JSON Schema's integer 5
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 5:
            return value
        raise ValidationError(f"Must be an index 0..5 or one of: {', '.join(WEIGHT_CLASSES)}.")


_DEFAULTS: dict[type, dict[str, Any]] = {}


def defaults(schema: type[Schema]) -> dict[str, Any]:
    """A nested block's defaults, worked out once per schema class (not once per request)."""
    if schema not in _DEFAULTS:
        _DEFAULTS[schema] = schema().load({})
    return dict(_DEFAULTS[schema])


class BreakpointTableSchema(Schema):
    """A caller's Task Resolution Table: AV and DV breakpoints (ascending) and one row of chances per AV."""

    av = fields.List(JsonInteger(validate=validate.Range(-1_000_000, 1_000_000)),
                     required=True, validate=validate.Length(1, 1000),
        metadata={"description": "AV breakpoints, ascending."})
    dv = fields.List(JsonInteger(validate=validate.Range(-1_000_000, 1_000_000)),
                     required=True, validate=validate.Length(1, 1000),
        metadata={"description": "DV breakpoints, ascending."})
    chances = fields.List(fields.List(JsonInteger(validate=validate.Range(0, 100))),
                          required=True, validate=validate.Length(1, 1000),
                          metadata={"description": "chances[i][j]: percent at av[i], dv[j]."})


class TaskResolutionSchema(Schema):
    """Which Task Resolution Table to use (RULINGS 4)."""

    method = fields.String(load_default="ratio", validate=validate.OneOf(METHODS),
                           metadata={"description": "ratio (Referee's default), linear, or table."})
    table = fields.Nested(BreakpointTableSchema, metadata={"description": "Required iff method is table."})


def answer_int(text: str, nullable: bool = False) -> fields.Integer:
    """A whole number every answer carries (null allowed when `nullable`)."""
    return JsonInteger(required=True, allow_none=nullable, metadata={"description": text})


def answer_chance(text: str = "Percent chance of success on the Task Resolution Table.") -> fields.Integer:
    """A percent chance the answer carries, or null when it does not apply."""
    return JsonInteger(required=True, allow_none=True, metadata={"description": text})


def answer_exact(text: str = "The same chance as an exact fraction of 1.") -> fields.String:
    """The chance beside it as an exact fraction, or null."""
    return string_or_null(text)


def task_resolution_field() -> fields.Nested:
    """Which Task Resolution Table turns AV and DV into a chance (RULINGS 4)."""
    return fields.Nested(TaskResolutionSchema, load_default=lambda: defaults(TaskResolutionSchema),
                         metadata={"description": "Task Resolution Table for the chances (RULINGS 4)."})


def progression_field() -> fields.String:
    """The Progressive scale (RULINGS 3)."""
    return fields.String(load_default="triangular", validate=validate.OneOf(PROGRESSIONS),
                         metadata={"description": "Progressive scale: n(n+1)/2 (triangular) or n (RULINGS 3)."})


def odds_schemas(name: str, texts: dict[str, str], docs: tuple[str, str],
                 exact_texts: dict[str, str] | None = None) -> tuple[type[Schema], type[Schema]]:
    """Two schemas over the same exclusive outcomes, every one required: `<name>Schema` with each chance as a
    float and `<name>ExactSchema` with it as an exact fraction. `texts` describes each outcome (`exact_texts`
    the exact ones, when they differ); `docs` are the two schemas' descriptions."""
    floats = Schema.from_dict({k: JsonFloat(required=True, metadata={"description": text})
                               for k, text in texts.items()}, name=f"{name}Schema")
    exact = Schema.from_dict({k: fields.String(required=True, metadata={"description": text})
                              for k, text in (exact_texts or texts).items()}, name=f"{name}ExactSchema")
    floats.__doc__, exact.__doc__ = docs
    return floats, exact
