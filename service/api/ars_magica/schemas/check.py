"""Schemas of /v1/ars-magica/check: shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.fields import (
    CommonAnswerSchema,
    exact_text,
    options_field,
    probability,
    rolls_schema,
)
from service.api.kit.fields import choice, flag, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonInteger, Strict, seed_field

KINDS = ("ease", "fatigue", "formulaic")


OUTCOMES = ("success", "success_fatigue", "failure", "botch")


ROLES = {"roll": "The stress die.", "botch": "Botch dice."}


class CheckRequestSchema(Strict):
    """One stress roll against an ease factor (or a spell level); fields not of the `kind` are ignored."""

    EXAMPLE = {"kind": "formulaic", "level": 15, "technique": 8, "form": 6, "stamina": 1, "voice": "firm",
               "gesture": "bold", "seed": 3}
    receipt = receipt_field()

    kind = choice(KINDS, "ease (default), fatigue or formulaic.", "ease")
    total = whole(-100, 200, "ease: the total added to the die (required).")
    ease_factor = whole(-100, 300, "ease: the ease factor (required); fatigue: default 6.")
    stamina = whole(-10, 10, "Stamina (fatigue, formulaic).", 0)
    encumbrance = whole(0, 30, "Encumbrance, a magnitude (fatigue, formulaic).", 0)
    wound_penalty = whole(-50, 0, "Wound penalty (<= 0), or give `wound_level`.", 0)
    fatigue_penalty = whole(-50, 0, "Fatigue penalty (<= 0), or give `fatigue_level`.", 0)
    wound_level = fields.String(validate=validate.Length(1, 40),
                                metadata={"description": "Body level name (option `body_levels`)."})
    fatigue_level = fields.String(validate=validate.Length(1, 40),
                                  metadata={"description": "Fatigue level name (option `fatigue_levels`)."})
    heat = whole(0, 3, "Heat: -1 to -3 on fatigue rolls.", 0)
    level = whole(0, 200, "formulaic: the spell level (required).")
    technique = whole(0, 100, "formulaic: Technique.", 0)
    form = whole(0, 100, "formulaic: Form.", 0)
    careful = flag("formulaic: cast slowly with extra care (+Concentration, one botch die fewer).")
    concentration = whole(0, 30, "formulaic: Concentration (added with `careful`).", 0)
    vis_pawns = whole(0, 50, "formulaic: pawns of vis (+5 each, one more botch die each).", 0)
    voice = choice(("booming", "firm", "soft", "none"), "formulaic: voice.", "firm")
    gesture = choice(("vigorous", "bold", "subtle", "none"), "formulaic: gesture.", "bold")
    botch_dice = JsonInteger(validate=validate.Range(0, 10),
                             metadata={"description": "Botch dice (default option `botch_dice`; a casting adjusts "
                                                      "them for `careful` and `vis_pawns`)."})
    options = options_field()
    seed = seed_field()
    rolls = rolls_schema("CheckRollsSchema", ROLES)


class CheckRollSchema(Schema):
    """The check as rolled."""

    roll = fields.Integer(required=True, metadata={"description": "Total + stress die (0 when botched)."})
    botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0."})
    outcome = choice(OUTCOMES, "What the roll did.", required=True)


class CheckSchema(CommonAnswerSchema):
    """The check's odds, exactly, and the roll when one was made."""
    receipt = receipt_answer_field()

    total = fields.Integer(required=True, metadata={"description": "The total after every modifier."})
    ease_factor = fields.Integer(required=True, metadata={"description": "The ease factor (`level` for a casting)."})
    botch_dice = fields.Integer(required=True, metadata={"description": "Botch dice used."})
    chance = probability("P(success), with fatigue or not.", required=True)
    chance_exact = exact_text("P(success)", required=True)
    probabilities = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.Float(),
                                required=True, metadata={"description": "Exclusive outcomes (formulaic adds "
                                                                        "success_fatigue)."})
    probabilities_exact = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.String(),
                                      required=True, metadata={"description": "The same, exact."})
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll (null unless `seed` or `rolls` was sent)."})
