"""POST /v1/tactical/segments/resolve: one Combat Segment of an encounter sent whole (nothing stored)."""
from __future__ import annotations

from service.api.blueprint import Blueprint

from service.api.encounters_schemas import SegmentResolvedSchema, SegmentResolveRequestSchema
from service.sessions.encounters import fresh_seed, resolve_once

blp = Blueprint("tactical-segments", __name__, description="Resolve one Combat Segment statelessly: send the "
                "encounter state and declarations, get the events and the state after it.")


@blp.post("/segments/resolve")
@blp.arguments(SegmentResolveRequestSchema)
@blp.response(200, SegmentResolvedSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def resolve(body: dict) -> dict:
    """Resolve one segment of the encounter in the body (seed "The Order of Play each CS")."""
    seed = fresh_seed() if body["seed"] is None else body["seed"]
    segment = resolve_once("tactical", body["state"], body["declarations"], seed, ("state",))
    return {"events": segment.events, "state": segment.state, "seed": seed}
