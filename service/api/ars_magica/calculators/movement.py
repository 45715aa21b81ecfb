"""POST and GET /v1/ars-magica/movement: yards per round by pace (*1. Movement*), in metres too."""
from __future__ import annotations

from fractions import Fraction

from service.api.ars_magica.calculators import options, require_body
from service.api.ars_magica.schemas.movement import MovementQuerySchema, MovementRequestSchema, MovementSchema
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.fields import fraction_text
from service.rules.ars_magica import ladders, movement
from service.rules.rounding import exact

blp = Blueprint("ars-magica-movement", __name__, description="Ars Magica: movement per round (seed 002, "
                "1. Movement).")


@kit.calculator(blp, "/movement", "arsMagicaMovement", (MovementRequestSchema, MovementSchema), signed=False)
def movement_post(body: dict) -> dict:
    """Yards (and metres) per round walking, hustling, sprinting and riding."""
    require_body()
    return _answer(body)


@blp.get("/movement")
@blp.arguments(MovementQuerySchema, location="query")
@blp.response(200, MovementSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaMovementQuery")
def movement_get(query: dict) -> dict:
    """The same as POST, from query parameters."""
    return _answer(query)


def _answer(body: dict) -> dict:
    opts = options(body)
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
