"""POST and GET /v1/smoting/movement: zone and battle moves, and speed (smoting.md 12)."""
from __future__ import annotations

from typing import Any

from flask import Response

from service.api.http.caching import cacheable
from service.api.kit import calculator as kit
from service.api.kit.fields import fraction_text
from service.api.smoting.calculators import blp, needed
from service.api.smoting.schemas.movement import MovementQuerySchema, MovementRequestSchema, MovementSchema
from service.rules.smoting import calculators as calc


@kit.calculator(blp, "/movement", "smotingMovement", (MovementRequestSchema, MovementSchema), signed=False,
                body_required=needed(MovementRequestSchema))
def movement(body: dict) -> dict[str, Any]:
    """Zone and battle move odds for a mover, and its speed in metres and km/h."""
    found = calc.movement(body, kit.options("smoting", body))
    needed, success = found["battle"]
    out = {"pool": found["pool"], **kit.exact("zone_move", found["zone"]), "zones_per_round": body.get("mr", 1),
           "battle_move": {"roll_needed": needed, "success": float(success)},
           "battle_move_exact": {"success": fraction_text(success)}}
    for name, value in found["speeds"].items():
        out.update(kit.exact(name, value))
    return {**out, "trace": kit.trace(found["trace"])}



@blp.route("/movement", methods=["GET"])
@blp.arguments(MovementQuerySchema, location="query")
@blp.response(200, MovementSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="smotingMovementQuery")
def movement_query(query: dict) -> Response:
    """Zone and battle move odds and speed, from query parameters (default options)."""
    return cacheable(movement(query))
