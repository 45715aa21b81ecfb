"""Schemas of /v1/runequest-house/check (rules document §2, §12): shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.fields import choice, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonFloat, JsonInteger
from service.api.runequest_house.fields import (
    BandsSchema,
    answer_seed,
    assumptions_list,
    dice_list,
    exact_dict,
    options_field,
    rolls_field,
    seed_field,
    trace_field,
)

MULTIPLIERS = ("1", "3/4", "1/2", "1/5")


class CharacteristicSchema(Schema):
    """A characteristic roll: the characteristic times a multiple (DEX x5 "difficult", DEX x3 "very difficult")."""

    value = whole(1, 100, "The characteristic (1..100).", required=True)
    multiple = whole(1, 5, "The multiple (1..5).", required=True)


class CheckRequestSchema(Schema):
    """One percentile roll: a skill or a characteristic x multiple, with modifiers."""

    EXAMPLE = {"skill": 65, "modifier": -10, "seed": 7}
    receipt = receipt_field()

    skill = whole(-100, 300, "The skill % (give this or `characteristic`).", load_default=None, allow_none=True)
    characteristic = fields.Nested(CharacteristicSchema, load_default=None, allow_none=True,
                                   metadata={"description": "A characteristic roll instead of a skill."})
    modifier = whole(-200, 200, "Additive modifier in percentage points.", load_default=0)
    multiplier = choice(MULTIPLIERS, "Fractional multiplier applied after the additive modifier.", load_default="1")
    fumble_multiplier = whole(1, 2, "2 doubles the fumble count (flexible or chain weapons, Page 63).",
                                load_default=1)
    options = options_field()
    seed = seed_field()
    rolls = rolls_field("RunequestHouseCheckRolls", {"d100": ("The d100 face (1..100, 100 = 00).", 1)})


class CheckRollSchema(Schema):
    """The rolled d100 and its degree."""

    d100 = whole(1, 100, "The face rolled.", required=True)
    degree = choice(("fumble", "failure", "success", "special", "critical"), "Its degree.", required=True)


class CheckSchema(Schema):
    """The effective percentage, its bands, the exact degree odds and the optional roll."""
    receipt = receipt_answer_field()

    effective = JsonInteger(required=True, metadata={"description": "The modified skill after rounding."})
    bands = fields.Nested(BandsSchema, required=True, metadata={"description": "The degree bands."})
    chance = JsonFloat(required=True, metadata={"description": "P(success of any degree)."})
    chance_exact = fields.String(required=True, metadata={"description": "`chance` as an exact fraction."})
    probabilities = probability_dict("Exclusive odds of critical, special, success, failure, fumble.")
    probabilities_exact = exact_dict("The same odds.")
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll, when `seed` or `rolls` was sent."})
    dice = dice_list()
    seed = answer_seed()
    assumptions = assumptions_list()
    trace = trace_field()
