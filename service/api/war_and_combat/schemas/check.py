"""Schemas of /v1/war-and-combat/check (rules document §12.2): a 3d6 task or resistance check and its odds."""
from __future__ import annotations

from marshmallow import fields

from service.api.kit.fields import choice, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonFloat, Strict, calculator_rolls_field, seed_field, trace_field
from service.api.war_and_combat.fields import (
    answer_seed_field,
    assumptions_field,
    dice_field,
    exact_field,
    options_field,
    pace_field,
)
from service.rules.war_and_combat.checks import KINDS


class CheckRequestSchema(Strict):
    """A 3d6 task or resistance check."""

    EXAMPLE = {"kind": "stumble", "attribute_mod": 1, "action_penalty": 1, "seed": 3}
    receipt = receipt_field()

    kind = choice(KINDS, "The check: task, fumble (Fumble?/Fumble-N), stumble, restrict, shock, balance, "
                  "pass_through.", "task")
    skill = whole(-50, 100, "Skill level.", 0)
    attribute_mod = whole(-10, 10, "Attribute modifier.", 0)
    modifiers = whole(-50, 50, "Other modifiers.", 0)
    action_penalty = whole(0, 100, "Wound penalties as a positive number.", 0)
    pace = pace_field()
    tl = whole(-50, 200, "Target level (required for task, restrict, shock; Fumble-N/Stumble-N as N).")
    danger_hexes = whole(1, 100, "Danger hexes crossed (pass_through only).")
    options = options_field()
    seed = seed_field()
    rolls = calculator_rolls_field({"check": "The check's 3d6 (3 faces)."})


class CheckRollSchema(Strict):
    """A rolled check."""

    total = whole(-1000, 1000, "3d6 + roll_bonus.", required=True)
    margin = whole(-1000, 1000, "Total less the TL.", required=True)
    outcome = fields.String(required=True, metadata={"description": "success or the kind's failure band."})


class CheckSchema(Strict):
    """Exact odds of a check's outcomes."""
    receipt = receipt_answer_field()

    kind = choice(KINDS, "The check.", required=True)
    tl = whole(-1000, 1000, "Target level.", required=True)
    roll_bonus = whole(-1000, 1000, "Everything added to 3d6.", required=True)
    need = whole(-1000, 1000, "Smallest 3d6 total that succeeds.", required=True)
    chance = JsonFloat(required=True, metadata={"description": "P(success)."})
    chance_exact = fields.String(required=True, metadata={"description": "P(success), exactly."})
    probabilities = probability_dict("The kind's exclusive outcomes.")
    probabilities_exact = exact_field("The same")
    roll = fields.Nested(CheckRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled check (null without `seed` or `rolls`)."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()


