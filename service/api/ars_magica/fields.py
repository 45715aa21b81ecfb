"""Field helpers and shared schemas of the `ars-magica` HTTP package: strict objects, bounded integers, the
options object built from the ruleset's OptionSpecs, exact-fraction outputs, stress-die `rolls`, what every
answer carries, and a fighter's gear (characteristics, abilities, weapon, armor, shield) as calculators and
encounter states both read it."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.kit.fields import flag, fraction_text, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, RollSchema, Strict, trace_field
from service.rules.ars_magica.options import OPTIONS
from service.rules.ars_magica.totals import ABILITIES, CHARACTERISTICS
from service.rules.options import OptionSpec

RANGES = ("touch", "reach", "close", "missile")


class CharacteristicsSchema(Strict):
    """The eight characteristics, -10..10 (default 0)."""

    locals().update({name: whole(-10, 10, f"{name.title()} (default 0).") for name in CHARACTERISTICS})


class AbilitiesSchema(Strict):
    """Abilities used in combat, 0..30 (default 0): the weapon skill in use, Dodge, Athletics, Ride, Brawl."""

    locals().update({name: whole(0, 30, f"{name.title()} (default 0).") for name in ABILITIES})


class WeaponSchema(Strict):
    """A weapon's statistics (ArM4 values; every bonus defaults to 0)."""

    name = fields.String(allow_none=True, validate=validate.Length(1, 40), metadata={"description": "A label."})
    init = whole(-20, 20, "Weapon initiative bonus.")
    attack = whole(-20, 20, "Weapon attack bonus.")
    defence = whole(-20, 20, "Weapon defence bonus.")
    damage = whole(-20, 20, "Weapon damage bonus.")
    missile = flag("A missile weapon (damage without Str and Size).", None)
    range = fields.String(validate=validate.OneOf(RANGES), metadata={"description": "Effective range: touch, "
                                                                                   "reach, close or missile."})


class ArmorSchema(Strict):
    """Armor as its protection."""

    protection = whole(0, 50, "Protection added to Soak.", required=True)


class ShieldSchema(Strict):
    """A shield as its defence bonus."""

    defence = whole(0, 20, "Defence bonus (to Defence and to missile ease factors).", required=True)


def _bonus(text: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": -20, "maximum": 20, "description": text}


SHAPES: dict[str, dict[str, Any]] = {
    "WeaponSchema": {"type": "object", "additionalProperties": False, "description": "Weapon statistics.",
                     "properties": {"name": {"type": ["string", "null"], "minLength": 1, "maxLength": 40},
                                    "init": _bonus("Initiative bonus."), "attack": _bonus("Attack bonus."),
                                    "defence": _bonus("Defence bonus."), "damage": _bonus("Damage bonus."),
                                    "missile": {"type": "boolean", "description": "A missile weapon."},
                                    "range": {"type": "string", "enum": list(RANGES), "description": "Range."}}},
    "ArmorSchema": {"type": "object", "additionalProperties": False, "required": ["protection"],
                    "description": "Armor protection.",
                    "properties": {"protection": {"type": "integer", "minimum": 0, "maximum": 50,
                                                  "description": "Protection added to Soak."}}},
}


class PackOr(fields.Field):
    """Statistics as an object, or a name in the ruleset's pack."""

    def __init__(self, schema: type, pack: str, **kwargs: Any):
        self.schema = schema()
        shape = SHAPES[schema.__name__]
        choices = [shape, {"type": "string", "minLength": 1, "maxLength": 40}]
        if kwargs.get("allow_none") or ("load_default" in kwargs and kwargs["load_default"] is None):
            kwargs["allow_none"] = True
            choices.append({"type": "null"})
        super().__init__(metadata={"oneOf": choices,
                                   "description": f"Statistics, or a name in option `{pack}`."}, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 1 <= len(value) <= 40:
            return value
        if isinstance(value, dict):
            return self.schema.load(value)
        raise ValidationError("must be an object of statistics or a pack name")

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value


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


class CommonAnswerSchema(Schema):
    """Fields every calculator answers."""

    dice = fields.List(fields.Nested(RollSchema), required=True,
                       metadata={"description": "Every die rolled (empty when nothing was rolled)."})
    seed = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The seed that reproduces the dice (null when none was "
                                                   "needed)."})
    assumptions = fields.List(fields.String(), required=True,
                              metadata={"description": "Ids of the assumptions (GET /v1/rulesets/ars-magica) "
                                                       "this answer relied on."})
    trace = trace_field()
