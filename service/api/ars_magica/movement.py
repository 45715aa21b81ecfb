"""POST and GET /v1/ars-magica/movement: yards per round by pace (*1. Movement*), in metres too."""
from __future__ import annotations

from fractions import Fraction

from marshmallow import Schema, fields, validate

from service.api.ars_magica import answers
from service.api.ars_magica.common import options_field
from service.api.http.blueprint import Blueprint
from service.api.kit.fields import fraction_text, whole
from service.api.kit.schemas import Strict, trace_field
from service.rules.ars_magica import ladders, movement
from service.rules.rounding import exact

blp = Blueprint("ars-magica-movement", __name__, description="Ars Magica: movement per round (seed 002, "
                "1. Movement).")
PACES = ("walk", "hustle", "sprint", "ride")


class MovementRequestSchema(Strict):
    """Who moves: Quickness, Encumbrance, Athletics, Ride and current levels (or penalties)."""

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


EXAMPLE_REQUEST = {"qik": 2, "encumbrance": 1, "athletics": 3}
EXAMPLE_ANSWER = {"yards_per_round": {"walk": 10, "hustle": 16, "sprint": 34, "ride": 50},
                  "yards_per_round_acting": {"walk": 5, "hustle": 8, "sprint": 17, "ride": 25},
                  "metres_per_round": {"walk": 9.144, "hustle": 14.6304, "sprint": 31.0896, "ride": 45.72},
                  "metres_per_second": {"walk": 1.524, "hustle": 2.4384, "sprint": 5.1816, "ride": 7.62},
                  "metres_per_round_exact": {"walk": "1143/125", "hustle": "9144/625", "sprint": "19431/625",
                                             "ride": "1143/25"},
                  "metres_per_second_exact": {"walk": "381/250", "hustle": "1524/625", "sprint": "6477/1250",
                                              "ride": "381/50"},
                  "round_seconds": 6, "assumptions": ["round_seconds", "movement_halving"], "trace": [{"rule": "1. Movement", "detail": "walk yards per round",
                                                 "value": 10}]}


@blp.post("/movement")
@blp.arguments(MovementRequestSchema, example=EXAMPLE_REQUEST)
@blp.response(200, MovementSchema, example=EXAMPLE_ANSWER)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaMovement")
def movement_post(body: dict) -> dict:
    """Yards (and metres) per round walking, hustling, sprinting and riding."""
    answers.require_body()
    return _answer(body)


@blp.get("/movement")
@blp.arguments(MovementQuerySchema, location="query")
@blp.response(200, MovementSchema, example=EXAMPLE_ANSWER)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaMovementQuery")
def movement_get(query: dict) -> dict:
    """The same as POST, from query parameters."""
    return _answer(query)


def _answer(body: dict) -> dict:
    opts = answers.options(body)
    return _compute(body, opts)


def _compute(body: dict, opts: dict) -> dict:
    penalties = _penalty(body, "wound", opts["body_levels"]) + _penalty(body, "fatigue", opts["fatigue_levels"])
    yards = movement.yards_per_round(body["qik"], body["encumbrance"], body["athletics"], body["ride"], penalties)
    seconds = exact(opts["round_seconds"])
    per_round, per_second = movement.metres(yards, seconds)
    return {"yards_per_round": yards, "yards_per_round_acting": movement.acting(yards),
            "metres_per_round": _floats(per_round), "metres_per_second": _floats(per_second),
            "metres_per_round_exact": _texts(per_round), "metres_per_second_exact": _texts(per_second),
            "round_seconds": float(opts["round_seconds"]),
            "assumptions": ["round_seconds", "movement_halving", "body_levels", "fatigue_levels"],
            "trace": [s.as_dict() for s in movement.steps(yards)]}


def _penalty(body: dict, which: str, ladder: list) -> int:
    name = body.get(f"{which}_level")
    if name is None:
        return body[f"{which}_penalty"]
    return ladders.penalty(ladder, ladders.index_of(ladder, name, (f"{which}_level",)))


def _floats(values: dict[str, Fraction]) -> dict[str, float]:
    return {k: float(v) for k, v in values.items()}


def _texts(values: dict[str, Fraction]) -> dict[str, str]:
    return {k: fraction_text(v) for k, v in values.items()}
