"""POST /v1/tactical/segments/resolve: one Combat Segment of an encounter sent whole, nothing stored (seed 000,
"The Order of Play each CS")."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.encounters.schemas import (
    EXAMPLE_BANDIT,
    EXAMPLE_COMBATANT,
    EXAMPLE_DECLARATION,
    EXAMPLE_DECLARATIONS,
    MAX_DECLARATIONS,
)
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.kit.events import event_field
from service.api.kit.schemas import seed_field
from service.api.tactical.state import DeclarationSchema, EncounterStateSchema
from service.sessions.encounters import fresh_seed
from service.sessions.steps import resolve_once


def _state(**kwargs) -> fields.Nested:
    return fields.Nested(EncounterStateSchema,
                         metadata={"description": "The encounter state: `combatants`, `options`, `segment`.",
                                   "example": {"segment": 0, "options": {}, "combatants": [EXAMPLE_COMBATANT]}},
                         **kwargs)


class SegmentResolveRequestSchema(Schema):
    """A stateless segment: the whole encounter state comes with the request."""

    state = _state(required=True)
    declarations = fields.List(fields.Nested(DeclarationSchema), validate=validate.Length(max=MAX_DECLARATIONS),
                               load_default=list,
                               metadata={"description": "What each combatant does in the segment.",
                                         "example": [EXAMPLE_DECLARATION]})
    seed = seed_field()


class SegmentResolvedSchema(Schema):
    """One Combat Segment resolved: its events and the state after it."""

    events = event_field("tactical", required=True, metadata={"description": "What happened, in order; `seq` "
                                                                           "numbers them from 1 in the answer."})
    state = _state(required=True)
    seed = fields.Integer(required=True, metadata={"description": "The seed the segment was resolved with."})


blp = Blueprint("tactical-segments", __name__, description="Resolve one Combat Segment statelessly: send the "
                "encounter state and declarations, get the events and the state after it.")


SegmentResolveRequestSchema.EXAMPLE = {
    "state": {"segment": 0, "options": {}, "combatants": [EXAMPLE_COMBATANT, EXAMPLE_BANDIT]},
    "declarations": EXAMPLE_DECLARATIONS["declarations"], "seed": 7}


@kit.calculator(blp, "/segments/resolve", "tacticalResolveSegment", (SegmentResolveRequestSchema,
                                                                     SegmentResolvedSchema), signed=False)
def resolve(body: dict) -> dict:
    """Resolve one segment of the encounter in the body (seed "The Order of Play each CS")."""
    seed = fresh_seed() if body["seed"] is None else body["seed"]
    segment = resolve_once("tactical", body["state"], body["declarations"], seed, ("state",))
    events = [{**event, "seq": number} for number, event in enumerate(segment.events, 1)]
    return {"events": events, "state": segment.state, "seed": seed}
