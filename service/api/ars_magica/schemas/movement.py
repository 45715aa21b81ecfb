"""Schemas of /v1/ars-magica/movement (POST and GET): shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.fields import (
    options_field,
)
from service.api.kit.fields import whole
from service.api.kit.schemas import Strict, trace_field

PACES = ("walk", "hustle", "sprint", "ride")


class MovementRequestSchema(Strict):
    """Who moves: Quickness, Encumbrance, Athletics, Ride and current levels (or penalties)."""

    EXAMPLE = {"qik": 2, "encumbrance": 1, "athletics": 3}

    qik = whole(-10, 10, "Quickness.", 0)
    encumbrance = whole(0, 30, "Encumbrance (a magnitude).", 0)
    athletics = whole(0, 30, "Athletics (sprinting).", 0)
    ride = whole(0, 30, "Ride (riding).", 0)
    wound_level = fields.String(validate=validate.Length(1, 40), metadata={"description": "Body level name."})
    fatigue_level = fields.String(validate=validate.Length(1, 40), metadata={"description": "Fatigue level name."})
    wound_penalty = whole(-50, 0, "Wound penalty (<= 0) when no `wound_level`.", 0)
    fatigue_penalty = whole(-50, 0, "Fatigue penalty (<= 0) when no `fatigue_level`.", 0)
    options = options_field()


def _query_int(low: int, high: int, text: str) -> fields.Integer:
    return fields.Integer(load_default=0, validate=validate.Range(low, high), metadata={"description": text})


class MovementQuerySchema(Strict):
    """The same as query parameters, with the default options (options go in a POST body: a query is bounded
    by the server's 4,094-byte request line, a whole options table is not)."""

    qik = _query_int(-10, 10, "Quickness.")
    encumbrance = _query_int(0, 30, "Encumbrance (a magnitude).")
    athletics = _query_int(0, 30, "Athletics (sprinting).")
    ride = _query_int(0, 30, "Ride (riding).")
    wound_level = fields.String(validate=validate.Length(1, 40), metadata={"description": "Body level name."})
    fatigue_level = fields.String(validate=validate.Length(1, 40), metadata={"description": "Fatigue level name."})
    wound_penalty = _query_int(-50, 0, "Wound penalty (<= 0) when no `wound_level`.")
    fatigue_penalty = _query_int(-50, 0, "Fatigue penalty (<= 0) when no `fatigue_level`.")


def _paces(name: str, kind: type, text: str) -> fields.Nested:
    schema = type(f"{name}Schema", (Schema,), {
        "__module__": __name__, "__doc__": text,
        **{pace: kind(required=True, metadata={"description": pace}) for pace in PACES}})
    return fields.Nested(schema, required=True, metadata={"description": text})


class MovementSchema(Schema):
    """Yards per round by pace, halved when acting, and metric conversions (exact too)."""

    yards_per_round = _paces("YardsPerRound", fields.Integer, "Yards per round.")
    yards_per_round_acting = _paces("YardsActing", fields.Integer, "Yards per round when also acting (halved, rounded down).")
    metres_per_round = _paces("MetresPerRound", fields.Float, "Metres per round.")
    metres_per_second = _paces("MetresPerSecond", fields.Float, "Metres per second.")
    metres_per_round_exact = _paces("MetresPerRoundExact", fields.String, "Metres per round, exact fractions.")
    metres_per_second_exact = _paces("MetresPerSecondExact", fields.String, "Metres per second, exact fractions.")
    round_seconds = fields.Float(required=True, metadata={"description": "Round length (option `round_seconds`)."})
    assumptions = fields.List(fields.String(), required=True,
                              metadata={"description": "Ids of the assumptions this answer relied on."})
    trace = trace_field()
