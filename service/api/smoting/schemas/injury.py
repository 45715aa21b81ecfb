"""Schemas of the smoting /injury calculator (smoting.md section 12): injury location and effect; shapes
only."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.fields import flag
from service.api.kit.schemas import JsonInteger
from service.api.smoting.fields import (
    answer_fields,
    exact_field,
    named_schema,
    odds_field,
    request_fields,
)

InjuryRequestSchema = named_schema("SmotingInjuryRequestSchema", "An injury roll.", {
    "killing_blow": flag("+1 on the effect roll."),
    **request_fields({"location": "4 faces of the location roll.", "effect": "1 face of the effect roll."})},
    {"killing_blow": False, "rolls": {"location": [4, 4, 4, 6], "effect": [3]}})


class InjuryRollSchema(Schema):
    """The injury as rolled."""

    faces = fields.List(JsonInteger(), required=True, metadata={"description": "The 4d6."})
    face = JsonInteger(required=True, metadata={"description": "The deciding face."})
    location = fields.String(required=True, metadata={"description": "Where the injury is."})
    shift = JsonInteger(required=True, metadata={"description": "Areas the attacker may shift it (0-2)."})
    effect_roll = JsonInteger(required=True, metadata={"description": "Effect row (1d6, +1 killing blow)."})
    effect = fields.String(required=True, metadata={"description": "The effect."})


InjurySchema = named_schema("SmotingInjurySchema", "Injury odds and roll.", {
    "face_probabilities": odds_field("P(each face decides).", "\"1\"..\"6\""),
    "face_probabilities_exact": exact_field("P(each face decides)."),
    "location_probabilities": odds_field("P(each location)."),
    "location_probabilities_exact": exact_field("P(each location)."),
    "shift_probabilities": odds_field("P(shift).", "\"0\", \"1\", \"2\""),
    "shift_probabilities_exact": exact_field("P(shift)."),
    "roll": fields.Nested(InjuryRollSchema, required=True, allow_none=True,
                          metadata={"description": "The injury location and effect as rolled (null without "
                                                   "`seed` or `rolls`)."}),
    **answer_fields()})
