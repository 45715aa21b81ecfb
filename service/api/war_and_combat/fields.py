"""Schema pieces shared by the `war-and-combat` endpoints: options built from the ruleset's OptionSpecs,
bounded integers, probability objects, dice and trace (rules README, common conventions)."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.kit.fields import choice, exact_strings
from service.api.kit.schemas import JsonBoolean, JsonInteger, RollSchema, Strict, trace_field
from service.rules.war_and_combat import option_specs
from service.rules.war_and_combat.task import PACES, SPECIFIC

LOCATION_SPECIFIC = validate.OneOf(SPECIFIC)


def pace_field() -> fields.String:
    """The mover's pace (ACTION PENALTY BY PACE)."""
    return choice(PACES, "Pace while rolling: walk -1, jog -2, run -3, sprint/jump/dive -5, swing -4; "
                  "creep, crawl, swim per option `unlisted_pace_penalty`.", "none")


def _option_field(name: str, spec: option_specs.OptionSpec) -> fields.Field:
    text = f"{spec.summary} Default {spec.default!r} [{spec.tag}]."
    if spec.kind == "bool":
        return JsonBoolean(metadata={"description": text})
    if spec.kind == "int":
        return JsonInteger(validate=validate.Range(spec.minimum, spec.maximum), metadata={"description": text})
    if spec.kind == "enum" and isinstance(spec.default, bool):
        return JsonBoolean(validate=validate.OneOf(spec.choices), metadata={"description": text})
    if spec.kind == "enum":
        return fields.String(validate=validate.OneOf(spec.choices), metadata={"description": text})
    if spec.kind == "ordering":
        return fields.List(fields.String(validate=validate.OneOf(spec.choices)), validate=validate.Length(1, 3),
                           metadata={"description": text, "uniqueItems": True})
    if spec.kind == "dice":
        return fields.String(validate=validate.Length(1, 40), metadata={"description": text})
    return fields.Raw(metadata={"description": text, **(spec.schema or {})})


OptionsSchema = Strict.from_dict({name: _option_field(name, spec) for name, spec in option_specs.SPECS.items()},
                                 name="WarAndCombatOptionsSchema")
OptionsSchema.__doc__ = ("Options of the `war-and-combat` ruleset (rules document §10): any subset; an unknown "
                         "name answers 422.")


def options_field() -> fields.Nested:
    """The `options` object every calculator accepts."""
    return fields.Nested(OptionsSchema, load_default=dict,
                         metadata={"description": "Ruleset options (GET /v1/rulesets/war-and-combat lists them)."})


def exact_field(text: str) -> fields.Dict:
    """The same object with exact "n/d" strings."""
    return exact_strings(text + " (exact fractions \"n/d\").")


def dice_field() -> fields.List:
    """Every die rolled, in order."""
    return fields.List(fields.Nested(RollSchema), required=True,
                       metadata={"description": "Every die rolled, with its role; empty when nothing was rolled."})


def answer_seed_field() -> fields.Integer:
    """The seed echoed (null when nothing was generated)."""
    return JsonInteger(required=True, allow_none=True,
                       metadata={"description": "The seed that reproduces the dice (null when no die was generated)."})


def assumptions_field() -> fields.List:
    """Assumption ids the answer relied on."""
    return fields.List(fields.String(), required=True,
                       metadata={"description": "Ids of the assumptions (GET /v1/rulesets/war-and-combat) used."})


__all__ = ["trace_field"]
