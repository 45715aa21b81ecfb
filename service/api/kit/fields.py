"""Field helpers every ruleset's HTTP package builds its schemas from: bounded whole numbers, fixed
choices, flags and exact fractions, each with the description the contract requires."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, Strict
from service.rules.options import OptionSpec


def _presence(default: Any, required: bool) -> dict[str, Any]:
    """Required, or loaded with a default, or simply optional (absent when not sent)."""
    if required:
        return {"required": True}
    return {} if default is None else {"load_default": default}


def whole(low: int, high: int, text: str, default: Any = None, required: bool = False, **kw: Any) -> JsonInteger:
    """A whole number in `low..high` with its description; `meta` adds more OpenAPI metadata."""
    return JsonInteger(validate=validate.Range(low, high), metadata={"description": text, **kw.pop("meta", {})},
                       **_presence(default, required), **kw)


def bounded(bounds: validate.Range, text: str, default: Any = None, **kw: Any) -> JsonInteger:
    """A whole number within a named range: required unless it has a default."""
    assert bounds.min_inclusive and bounds.max_inclusive, "whole numbers take inclusive bounds"
    return whole(bounds.min, bounds.max, text, default, required=default is None, **kw)


class Quarters(validate.Validator):
    """A number that is a whole count of quarters (JSON Schema's `multipleOf: 0.25`)."""

    error = "Must be a multiple of 0.25: 0, 0.25, 0.5, 0.75 or 1."

    def __call__(self, value: Any) -> Any:
        if (value * 4) % 1:
            raise validate.ValidationError(self.error)
        return value


def quarter_rate(text: str, **kw: Any) -> JsonFloat:
    """A quarter rate of movement: 0, 0.25, 0.5, 0.75 or 1 (tactical's Pulse Movement, A35), written as a
    number in 0..1 that is a multiple of 0.25 (generated clients refuse number enums)."""
    return JsonFloat(allow_nan=False, validate=[validate.Range(0, 1), Quarters()],
                     metadata={"description": text, "multipleOf": 0.25}, **kw)


def choice(values: Iterable[str], text: str, default: Any = None, required: bool = False,
           **kw: Any) -> fields.String:
    """One of a fixed set of names."""
    return fields.String(validate=validate.OneOf(list(values)), metadata={"description": text},
                         **_presence(default, required), **kw)


def flag(text: str, default: bool | None = False) -> JsonBoolean:
    """A JSON true/false with its description (no default when `default` is None)."""
    return JsonBoolean(metadata={"description": text}, **_presence(default, False))


def fraction_text(value: Fraction) -> str:
    """An exact probability as the contract writes it: "n/d" in lowest terms, always with the slash."""
    return f"{value.numerator}/{value.denominator}"


def probability_dict(text: str) -> fields.Dict:
    """An answer's name -> probability object (numbers; required)."""
    return fields.Dict(keys=fields.String(), values=JsonFloat(), required=True, metadata={"description": text})


def exact_strings(text: str, **kw: Any) -> fields.Dict:
    """An answer's name -> exact fraction string object (required)."""
    return fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={"description": text},
                       **kw)


def string_or_null(text: str) -> fields.String:
    """A required string that may be null (an exact fraction that does not apply, an absent name)."""
    return fields.String(required=True, allow_none=True, metadata={"description": text})


def option_field(spec: OptionSpec) -> fields.Field:
    """One option as the contract states it: its kind's JSON type and bounds, or a table's own shape."""
    meta = {"description": f"{spec.summary} Default {spec.default!r} [{spec.tag}]."}
    if spec.kind == "bool" or (spec.kind == "enum" and isinstance(spec.default, bool)):
        return JsonBoolean(metadata=meta, **({"validate": validate.OneOf(spec.choices)} if spec.choices else {}))
    if spec.kind == "int":
        return JsonInteger(validate=validate.Range(spec.minimum, spec.maximum), metadata=meta)
    if spec.kind == "number":
        return JsonFloat(allow_nan=False, validate=validate.Range(spec.minimum, spec.maximum), metadata=meta)
    if spec.kind == "enum":
        return fields.String(validate=validate.OneOf(spec.choices or ()), metadata=meta)
    if spec.kind == "ordering":
        return fields.List(fields.String(validate=validate.OneOf(spec.choices or ())),
                           validate=validate.Length(1, len(spec.choices or ())), metadata={**meta, "uniqueItems": True})
    return fields.Raw(metadata={**meta, **(spec.schema or {})})


def options_schema(specs: Mapping[str, OptionSpec], name: str, doc: str) -> type[Schema]:
    """A ruleset's `options` object: any subset of its options, each as `option_field` states it; an unknown
    name is refused."""
    schema = Strict.from_dict({key: option_field(spec) for key, spec in specs.items()}, name=name)
    schema.__doc__ = doc
    return schema


# A combatant id travels in URL paths (`/combatants/{id}`): 1-64 of A-Z a-z 0-9 `_ . ~ -`, starting with a
# letter or digit, so the spec says what encounters have always refused.
COMBATANT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.~-]{0,63}$"


def combatant_id(text: str) -> fields.String:
    """A combatant's `id`: required, 1-64 URL-safe characters (the pattern above)."""
    return fields.String(required=True, validate=[validate.Length(1, 64), validate.Regexp(
        COMBATANT_ID_PATTERN, error="a combatant id is 1-64 of A-Z a-z 0-9 _ . ~ - and starts with a letter or "
                                    "digit")], metadata={"description": text})
