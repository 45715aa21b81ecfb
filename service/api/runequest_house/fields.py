"""Schema pieces and answer helpers shared by the `runequest-house` calculators."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit import schemas
from service.api.kit.fields import exact_strings, options_schema, whole
from service.api.kit.schemas import JsonFloat, JsonInteger, RollSchema, trace_field
from service.rules.runequest_house.dice_expr import DICE_SHAPE
from service.rules.runequest_house.options import ACTIONS, OPTIONS, SHIELD_SIZES, WEAPON_KINDS, WEAPON_TYPES

DEGREES = ("fumble", "failure", "success", "special", "critical")
LOCATIONS = ("right_leg", "left_leg", "abdomen", "chest", "right_arm", "left_arm", "head")
ITEMS = ("weapon", "buckler", "small_shield", "medium_shield", "hoplite_shield", "large_shield")
SEED_DOC = "Seed for the dice (0..2^63-1); with `seed` or `rolls` the answer rolls, and echoes the seed used."


OptionsSchema = options_schema(OPTIONS, "RunequestHouseOptionsSchema",
                               "Any subset of the runequest-house options (GET /v1/rulesets/runequest-house); "
                               "a table option (the rq3 pack) is replaced whole.")


def options_field() -> fields.Nested:
    """The `options` object: any subset of the ruleset's options, checked against them (422 names
    `options.<name>`); a [CORE] table is replaced by sending the whole table."""
    return fields.Nested(OptionsSchema, load_default=dict, metadata={
        "description": "Any subset of the runequest-house options (GET /v1/rulesets/runequest-house); a table "
                       "option (the rq3 pack) is replaced whole.", "example": {"rounding": "half_up"}})


def dice_field(text: str, **kw: Any) -> fields.String:
    """A dice expression ("1d8+1", "+1d4", "0") in the shape the rules parse (`DICE_SHAPE`)."""
    return fields.String(validate=[validate.Length(1, 40), validate.Regexp(DICE_SHAPE["pattern"])],
                         metadata={"description": text}, **kw)


def seed_field() -> JsonInteger:
    """The calculators' optional `seed` (with `seed` or `rolls` the answer rolls)."""
    return schemas.seed_field(SEED_DOC)


def rolls_field(name: str, roles: dict[str, tuple[str, int]]) -> fields.Nested:
    """`rolls`: role -> faces, each role with its description and the most faces it could ever use."""
    role_fields = {role: fields.List(JsonInteger(validate=validate.Range(1, 1000)), validate=validate.Length(max=most),
                                     metadata={"description": text}) for role, (text, most) in roles.items()}
    schema = Schema.from_dict(role_fields, name=name)
    schema.__doc__ = "Faces rolled at the table, by role; missing dice come from the seed."
    return fields.Nested(schema, load_default=None, allow_none=True,
                         metadata={"description": "Faces rolled at the table, by role (a face outside its die: "
                                                  "422); missing dice come from the seed."})


def exact_dict(description: str) -> fields.Dict:
    return exact_strings(description + " As exact fraction strings.")


def number_or_null(description: str) -> JsonFloat:
    return JsonFloat(required=True, allow_none=True, metadata={"description": description})


class BandsSchema(Schema):
    """Degree bands of a percentage: the highest roll of each success band and the lowest fumble roll."""

    critical = whole(0, 100, "Highest roll that is a critical.", required=True)
    special = whole(0, 100, "Highest roll that is a special (or better).", required=True)
    success = whole(0, 100, "Highest roll that succeeds (01-05 and 96-00 bounds applied).", required=True)
    fumble_from = whole(1, 101, "Lowest roll that fumbles.", required=True)


def dice_list() -> fields.List:
    return fields.List(fields.Nested(RollSchema), required=True, metadata={"description": "Every die rolled."})


def assumptions_list() -> fields.List:
    return fields.List(fields.String(), required=True,
                       metadata={"description": "Assumption ids (GET /v1/rulesets/runequest-house) relied on."})


def answer_seed() -> JsonInteger:
    return JsonInteger(required=True, allow_none=True, metadata={"description": "The seed used (null when no die "
                                                                                "came from the generator)."})


__all__ = ["ACTIONS", "SHIELD_SIZES", "WEAPON_KINDS", "WEAPON_TYPES", "trace_field"]
