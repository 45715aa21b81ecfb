"""Schemas of /v1/ars-magica/damage: shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.fields import (
    CommonAnswerSchema,
    botch_dice_schema,
    exact_text,
    options_field,
    outcome_schema,
    probability,
    rolls_schema,
)
from service.api.kit.fields import choice, flag, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import Strict, seed_field
from service.rules.ars_magica import damage
from service.rules.ars_magica.options import LOCATIONS

ROLES = {"damage": "Damage stress die.", "soak": "Soak stress die.", "damage_botch": "Botch dice of the damage "
         "roll.", "soak_botch": "Botch dice of the soak roll."}


SEVERITIES = ("none", "minor", "major", "grave")


class DamageRequestSchema(Strict):
    """A landed blow: damage total against soak total, and how it landed."""

    EXAMPLE = {"damage": 14, "soak": 8, "protection": 4, "seed": 11}
    receipt = receipt_field()

    damage = whole(-50, 100, "Damage total.", required=True)
    soak = whole(-50, 100, "Soak total, armor included.", required=True)
    protection = whole(0, 50, "The armor part of `soak` (dropped on an exceptional blow).", 0)
    exceptional = flag("The blow was exceptional: soak without armor, and a severity.")
    location = choice(LOCATIONS, "Where an exceptional blow lands (required when `exceptional`).")
    all_out = flag("All-out attack: the margin (or the levels, option `all_out_doubles`) is doubled.")
    brawling = flag("Brawling: levels alternate fatigue, body, fatigue...")
    mounted_charge = flag("Mounted charge after at least 10 yards: +6 damage.")
    from_behind = flag("Attack from behind: +3 damage.")
    botch_dice = botch_dice_schema("DamageBotchDiceSchema", ("damage", "soak"))
    options = options_field()
    seed = seed_field()
    rolls = rolls_schema("DamageRollsSchema", ROLES)


class DamageRollSchema(Schema):
    """The blow as rolled."""

    damage_roll = fields.Integer(required=True, metadata={"description": "Damage total + stress (0 when botched)."})
    soak_roll = fields.Integer(required=True, metadata={"description": "Soak total + stress (0 when botched)."})
    margin = fields.Integer(required=True, metadata={"description": "damage_roll - soak_roll, before any doubling."})
    levels = fields.Integer(required=True, metadata={"description": "Levels lost after any doubling."})
    body_levels = fields.Integer(required=True, metadata={"description": "Body levels of `levels`."})
    fatigue_levels = fields.Integer(required=True, metadata={"description": "Fatigue levels (brawling only)."})
    severity = fields.String(required=True, allow_none=True, validate=validate.OneOf(SEVERITIES),
                             metadata={"description": "Exceptional blows only."})
    effect = fields.String(required=True, allow_none=True,
                           metadata={"description": "The exceptional blow's effect (option `exceptional_effects`)."})
    damage_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (damage)."})
    soak_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (soak)."})


KEYS = damage.KEYS


class DamageSchema(CommonAnswerSchema):
    """Levels lost, exactly, and the roll when one was made."""
    receipt = receipt_answer_field()

    damage_total = fields.Integer(required=True, metadata={"description": "With +6 mounted charge, +3 from behind."})
    soak_total = fields.Integer(required=True, metadata={"description": "Less `protection` on an exceptional blow."})
    chance = probability("P(at least one level lost).", required=True)
    chance_exact = exact_text("P(at least one level lost)", required=True)
    probabilities = fields.Nested(outcome_schema("LevelOddsSchema", KEYS, False, "P(n levels lost), n = 0..5, 6+."),
                                  required=True, metadata={"description": "P(n levels lost), n = 0..5, 6+; "
                                                                          "they add up to 1."})
    probabilities_exact = fields.Nested(outcome_schema("LevelOddsExactSchema", KEYS, True,
                                                       "P(n levels lost), exact."), required=True,
                                        metadata={"description": "The same, as exact fractions."})
    severity_probabilities = fields.Nested(outcome_schema("SeverityOddsSchema", SEVERITIES, False,
                                                          "Severity of an exceptional blow."),
                                           required=True, allow_none=True,
                                           metadata={"description": "P(none, minor, major, grave) of an exceptional "
                                                                    "blow (null unless `exceptional`)."})
    severity_probabilities_exact = fields.Nested(outcome_schema("SeverityOddsExactSchema", SEVERITIES, True,
                                                                "Severity of an exceptional blow, exact."),
                                                 required=True, allow_none=True,
                                                 metadata={"description": "The same, as exact fractions."})
    roll = fields.Nested(DamageRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll (null unless `seed` or `rolls` was sent)."})
