"""Schemas of the smoting /check calculator (smoting.md section 12): any d6 success pool; shapes and
bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.smoting.fields import (
    POOL,
    answer_fields,
    chance_fields,
    exact_field,
    named_schema,
    odds_field,
    request_fields,
)

CheckRequestSchema = named_schema("SmotingCheckRequestSchema", "Any d6 success pool: a task, an attribute roll, a "
                             "zone or battle move.", {
    "dice": whole(0, 30, "The base pool in dice.", required=True),
    "modifiers": whole(-30, 30, "Dice added or removed.", 0),
    "running": flag("+1 die (movement while running)."),
    "stunned": flag("-2 dice."),
    "explode": JsonBoolean(load_default=None, allow_none=True,
                           metadata={"description": "Re-roll 6s; null follows option `explode`."}),
    "need": whole(1, 30, "Successes needed (`task` only).", 1),
    "kind": fields.String(load_default="task", validate=validate.OneOf(["task", "attribute", "zone_move",
                                                                          "battle_move"]),
                          metadata={"description": "task (needs `need`), attribute (1 success), zone_move "
                                                   "(2 to arrive, 1 boundary), battle_move (1, rolled below 4 "
                                                   "dice)."}),
    **request_fields({"pool": POOL})},
    {"dice": 5, "kind": "task", "need": 1, "seed": 7})


class CheckRollSchema(Schema):
    """The pool as rolled."""

    faces = fields.List(JsonInteger(), required=True, metadata={"description": POOL})
    successes = JsonInteger(required=True, metadata={"description": "Faces at or above `success_min`."})
    outcome = fields.String(required=True, metadata={"description": "One of the `probabilities` keys."})


CheckSchema = named_schema("SmotingCheckSchema", "A pool's odds and, with a seed or rolls, its roll.", {
    "pool": JsonInteger(required=True, metadata={"description": "Dice rolled after modifiers."}),
    "explode": JsonBoolean(required=True, metadata={"description": "Whether 6s re-roll."}),
    **chance_fields(),
    "probabilities": odds_field("Exclusive outcomes.", "success/failure, or arrive/boundary/stay"),
    "probabilities_exact": exact_field("Exclusive outcomes."),
    "success_probabilities": odds_field("P(exactly k successes).", "\"0\"..\"2*pool\", \"more\""),
    "success_probabilities_exact": exact_field("P(exactly k successes)."),
    "expected_successes": JsonFloat(required=True, metadata={"description": "Mean successes."}),
    "expected_successes_exact": fields.String(required=True, metadata={"description": "Mean, exact."}),
    "roll_needed": JsonBoolean(metadata={"description": "battle_move only: whether the pool is below 4 dice."}),
    "roll": fields.Nested(CheckRollSchema, required=True, allow_none=True,
                          metadata={"description": "The pool as rolled (null without `seed` or `rolls`)."}),
    **answer_fields()},
    {"pool": 5, "explode": True, "chance": 0.868, "chance_exact": "211/243"})
