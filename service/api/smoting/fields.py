"""Schema pieces and answer helpers shared by the smoting blueprints."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import probability_dict, string_or_null
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, RollSchema, seed_field, trace_field
from service.rules.options import OptionSpec
from service.rules.smoting.options import OPTIONS

POOL = "the pool dice in order, then one face per 6 showing (breadth first)"


def named_schema(name: str, doc: str, fields_: dict[str, fields.Field], example: dict | None = None) -> type[Schema]:
    """A schema named for the contract, with its description and the request or response example."""
    cls = Schema.from_dict(fields_, name=name)
    cls.__doc__ = doc
    cls.EXAMPLE = example  # type: ignore[attr-defined]
    return cls


def _option_field(name: str, spec: OptionSpec) -> fields.Field:
    meta = {"description": f"{spec.summary} Default {spec.default!r} [{spec.tag}]."}
    if spec.kind == "bool":
        return JsonBoolean(metadata=meta)
    if spec.kind == "int":
        return JsonInteger(validate=validate.Range(spec.minimum, spec.maximum), metadata=meta)
    if spec.kind == "number":
        return JsonFloat(allow_nan=False, validate=validate.Range(spec.minimum, spec.maximum), metadata=meta)
    if spec.kind == "enum" and isinstance(spec.default, bool):
        return JsonBoolean(validate=validate.OneOf(spec.choices), metadata=meta)
    if spec.kind == "enum":
        return fields.String(validate=validate.OneOf(spec.choices), metadata=meta)
    return fields.Raw(metadata={**meta, "description": meta["description"] + " A whole table, as the catalogue "
                                                                            "shows its default.", **(spec.schema or {})})


SmotingOptionsSchema = Schema.from_dict({name: _option_field(name, spec) for name, spec in OPTIONS.items()},
                                        name="SmotingOptionsSchema")
SmotingOptionsSchema.__doc__ = "Any subset of the smoting options (GET /v1/rulesets/smoting lists them)."


def options_field() -> fields.Nested:
    return fields.Nested(SmotingOptionsSchema, load_default=dict,
                         metadata={"description": "Rule options (any subset); unknown names answer 422.",
                                   "example": {"success_min": 5, "explode": True}})


def odds_field(description: str, keys: str = "") -> fields.Dict:
    return probability_dict(description + (f" Keys: {keys}." if keys else ""))


def exact_field(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.String(), required=True, allow_none=True,
                       metadata={"description": description + " As exact fractions \"n/d\"; null when the "
                                                              "sum is unbounded (the number is then "
                                                              "accurate to 1e-12)."})


def chance_fields() -> dict[str, fields.Field]:
    return {"chance": JsonFloat(required=True, metadata={"description": "The headline probability."}),
            "chance_exact": string_or_null("`chance` as an exact fraction (null: unbounded sum).")}


def answer_fields() -> dict[str, fields.Field]:
    """`dice`, `seed`, `assumptions`, `trace` of every calculator answer."""
    return {"dice": fields.List(fields.Nested(RollSchema), required=True,
                                metadata={"description": "Every roll made, with its role and faces."}),
            "seed": JsonInteger(required=True, allow_none=True,
                                metadata={"description": "The seed used (null when nothing was rolled from "
                                                         "it)."}),
            "assumptions": fields.List(fields.String(), required=True,
                                       metadata={"description": "Assumption ids this answer relied on."}),
            "trace": trace_field(), "receipt": receipt_answer_field()}


def request_fields(roles: dict[str, str]) -> dict[str, fields.Field]:
    from service.api.kit.schemas import calculator_rolls_field
    return {"options": options_field(), "seed": seed_field(), "rolls": calculator_rolls_field(roles),
            "receipt": receipt_field()}
