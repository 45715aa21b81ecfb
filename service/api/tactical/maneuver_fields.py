"""Fields the tactical maneuver, contest and aftermath calculators share: their ranges, the Task Resolution
Table and Progressive scale choices, and the answer's integers, chances and odds objects (shapes only)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import string_or_null
from service.api.kit.schemas import JsonFloat, JsonInteger
from service.api.tactical.to_hit_schemas import TaskResolutionSchema, _defaults

SMALL = validate.Range(0, 1_000)
SPEED = validate.Range(0, 1_000)
FEET = validate.Range(0, 100_000)
PROGRESSIONS = ("triangular", "linear")


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
    return fields.Nested(TaskResolutionSchema, load_default=lambda: _defaults(TaskResolutionSchema),
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
