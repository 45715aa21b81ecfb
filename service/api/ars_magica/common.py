"""Field helpers and shared schemas of the `ars-magica` HTTP package: strict objects, bounded integers, the
options object built from the ruleset's OptionSpecs, exact-fraction outputs and stress-die `rolls`."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.fields import fraction_text, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, Strict
from service.rules.ars_magica.options import OPTIONS
from service.rules.options import OptionSpec


def _option_field(name: str, spec: OptionSpec) -> fields.Field:
    text = f"{spec.summary} [{spec.tag}] Default: {spec.default!r}."
    if spec.kind == "int":
        return JsonInteger(validate=validate.Range(spec.minimum, spec.maximum), metadata={"description": text})
    if spec.kind == "number":
        return JsonFloat(allow_nan=False, validate=validate.Range(spec.minimum, spec.maximum),
                         metadata={"description": text})
    if spec.kind == "bool":
        return JsonBoolean(metadata={"description": text})
    if spec.kind == "enum":
        return fields.String(validate=validate.OneOf(spec.choices or ()), metadata={"description": text})
    return fields.Raw(metadata={"description": text + " Send the whole table to override.", **(spec.schema or {})})


OptionsSchema = type("OptionsSchema", (Strict,), {
    "__module__": __name__, "__doc__": "Rule options of the `ars-magica` ruleset (any subset; GET /v1/rulesets/ars-magica lists them).",
    **{name: _option_field(name, spec) for name, spec in OPTIONS.items()}})


def options_field() -> fields.Nested:
    """The `options` object of every calculator."""
    return fields.Nested(OptionsSchema, load_default=dict,
                         metadata={"description": "Rule options (any subset); an unknown option is refused.",
                                   "example": {"botch_dice": 1, "attack_tie": "defender"}})


def exact_pair(name: str, values: Mapping[str, Fraction] | Fraction | None) -> dict[str, Any]:
    """`name` as float(s) and `name_exact` as fraction text(s) (rules README, "Exact probabilities")."""
    if values is None:
        return {name: None, f"{name}_exact": None}
    if isinstance(values, Fraction):
        return {name: float(values), f"{name}_exact": fraction_text(values)}
    return {name: {k: float(v) for k, v in values.items()},
            f"{name}_exact": {k: fraction_text(v) for k, v in values.items()}}


EXACT = validate.Regexp(r"^-?\d+/[1-9]\d*$")


def probability(text: str, **kw: Any) -> fields.Float:
    """A probability as a JSON number."""
    return fields.Float(metadata={"description": text}, **kw)


def exact_text(text: str, **kw: Any) -> fields.String:
    """A probability as an exact fraction string "n/d"."""
    return fields.String(validate=EXACT, metadata={"description": text + " (exact fraction \"n/d\")"}, **kw)


def outcome_schema(name: str, keys: tuple[str, ...], exact: bool, text: str) -> type[Schema]:
    """A schema of exclusive outcomes keyed by `keys` (numbers, or exact fraction strings)."""
    make = exact_text if exact else probability
    return type(name, (Schema,), {"__module__": __name__, "__doc__": text, **{k: make(f"P({k})", required=True, data_key=k)
                                                       for k in keys}})


def stress_faces(text: str) -> fields.List:
    """Faces of d10s read 0..9, in the order rolled."""
    return fields.List(JsonInteger(validate=validate.Range(0, 9)), validate=validate.Length(max=64),
                       metadata={"description": text})


def rolls_schema(name: str, roles: Mapping[str, str]) -> fields.Nested:
    """The calculator's `rolls` object: role -> d10 faces 0..9."""
    schema = type(name, (Strict,), {"__module__": __name__, "__doc__": "Faces rolled at the table, by role (d10 faces 0..9; a stress "
                                               "die's 1 is followed by its re-roll).",
                                    **{role: stress_faces(text) for role, text in roles.items()}})
    return fields.Nested(schema, load_default=None, allow_none=True,
                         metadata={"description": "Faces rolled at the table, by role; missing dice come from "
                                                  "the seed. A roll is made only when `rolls` or `seed` is sent."})


def botch_dice_schema(name: str, roles: tuple[str, str]) -> fields.Nested:
    """`botch_dice` per roll (0..10; default option `botch_dice`)."""
    schema = type(name, (Strict,), {"__module__": __name__, "__doc__": "Botch dice per roll (default: option `botch_dice`).",
                                    **{role: whole(0, 10, f"Botch dice of the {role} roll.") for role in roles}})
    return fields.Nested(schema, load_default=dict, metadata={"description": "Botch dice rolled when that roll's "
                                                                             "stress die shows 0."})
