"""Shapes of POST /v1/tactical/batch: many calculator requests in one call, answered item by item."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonInteger

OPS = ("to-hit", "range", "damage", "armor-wear", "pulse", "falling", "initiative", "surprise", "contest",
       "combination", "body-check", "intimidation", "stray-fire", "missile-flight", "knock-back", "melee-spacing",
       "dodge", "task", "catch", "surprise-check", "mortal-wound", "after-battle", "healing")
HARD_LIMIT = 100  # the schema's (and the spec's) bound; a deployment's `max_batch_items` may only lower it


class BatchItemSchema(Schema):
    """One calculator request: which calculator, and the body its own endpoint takes."""

    id = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100),
                       metadata={"description": "Your id for this item, echoed in its result."})
    op = fields.String(required=True, validate=validate.OneOf(OPS),
                       metadata={"description": "The calculator: the last part of its /v1/tactical path "
                                                "(`pulse` takes one speed: mph, scale, verbatim)."})
    body = fields.Dict(keys=fields.String(), required=True,
                       metadata={"description": "The request body the calculator's own endpoint takes."})


class BatchRequestSchema(Schema):
    """Calculator calls to run in one request."""

    EXAMPLE = {"items": [{"id": "a", "op": "to-hit", "body": {"av": 60, "dv": 45}},
                         {"id": "b", "op": "range", "body": {"weapon": "sling", "distance": 50}},
                         {"id": "c", "op": "pulse", "body": {"mph": 12, "scale": "10mm"}}]}

    items = fields.List(fields.Nested(BatchItemSchema), required=True,
                        validate=validate.Length(1, HARD_LIMIT),
                        metadata={"description": "1 to `max_batch_items` (default 100) requests."})


class BatchResultItemSchema(Schema):
    """One item's answer: its endpoint's normal body (status 200), or that endpoint's problem body."""

    id = fields.String(allow_none=True, required=True, metadata={"description": "The item's id, as sent."})
    op = fields.String(required=True, metadata={"description": "The calculator it called."})
    status = JsonInteger(required=True, metadata={"description": "200, or the error status (usually 422)."})
    body = fields.Dict(required=True, metadata={"description": "Its answer, or a problem document."})


class BatchSchema(Schema):
    """One answer per item, in the order sent."""

    results = fields.List(fields.Nested(BatchResultItemSchema), required=True,
                          metadata={"description": "The answers."})
