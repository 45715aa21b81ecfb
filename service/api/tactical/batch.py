"""POST /v1/tactical/batch: run many calculator requests in one call, each as its own endpoint would.

Every item goes through the same load schema, view function and dump schema as its single endpoint
(the views are called undecorated, so nothing is re-parsed from the HTTP request); a refused item
gets that endpoint's problem body and status, and never stops the other items.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from flask import current_app
from service.api.http.blueprint import Blueprint
from service.api.tactical import request_examples as examples
from marshmallow import Schema, ValidationError

from service.api.http.errors import problem_body, rules_body, validation_body
from service.api.tactical import contests, damage, movement, to_hit
from service.api.tactical import contests_schemas as cs, damage_schemas as ds
from service.api.tactical import movement_schemas as ms, to_hit_schemas as ts
from service.api.tactical.batch_schemas import BatchRequestSchema, BatchSchema
from service.api.tactical.chapter_ops import CHAPTER_OPS
from service.rules.errors import OutOfRange, RulesError

blp = Blueprint("tactical-batch", __name__, description="Many calculator requests in one call.")


def _op(load: type[Schema], view: Callable[[dict], Any], dump: type[Schema]) -> tuple:
    return load(), inspect.unwrap(view), dump()


OPS: dict[str, tuple[Schema, Callable[[dict], Any], Schema]] = {
    "to-hit": _op(ts.ToHitRequestSchema, to_hit.to_hit, ts.ToHitSchema),
    "range": _op(ts.RangeRequestSchema, to_hit.range_band, ts.RangeSchema),
    "damage": _op(ds.DamageRequestSchema, damage.damage, ds.DamageResultSchema),
    "armor-wear": _op(ds.ArmorWearRequestSchema, damage.armor_wear, ds.ArmorWearResultSchema),
    "pulse": _op(ms.PulseItemSchema, movement.pulse_body, ms.PulseSchema),
    "falling": _op(ms.FallingRequestSchema, movement.post_falling, ms.FallingSchema),
    "initiative": _op(cs.InitiativeRequestSchema, contests.initiative, cs.InitiativeSchema),
    "surprise": _op(cs.SurpriseRequestSchema, contests.surprise, cs.SurpriseSchema),
    "contest": _op(cs.ContestRequestSchema, contests.contest, cs.ContestSchema),
    **{name: _op(*parts) for name, parts in CHAPTER_OPS.items()},
}


def run(op: str, body: dict) -> tuple[int, dict]:
    """One item: (200, the endpoint's answer) or (its error status, its problem body)."""
    load, view, dump = OPS[op]
    instance = {"instance": f"/v1/tactical/{op}"}
    try:
        return 200, dump.dump(view(load.load(body)))
    except ValidationError as error:
        return 422, {**validation_body(error.messages), **instance}
    except RulesError as error:
        return error.status, {**rules_body(error), **instance}
    except Exception as error:  # a bug in one item is logged and answered as that item's 500, not the batch's
        current_app.logger.exception("batch item failed", exc_info=error)
        return 500, problem_body(500, "Internal Server Error", "The server could not complete this item.",
                                 **instance)


def work(body: Any) -> int:
    """An item's cost: the product of the lengths of the lists at the top of its body (at least 1)."""
    cost = 1
    for value in body.values() if isinstance(body, dict) else ():
        if isinstance(value, list):
            cost *= max(1, len(value))
    return cost


@blp.post("/batch")
@blp.doc(operationId="tacticalBatch")
@blp.arguments(BatchRequestSchema, example=examples.BATCH)
@blp.response(200, BatchSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def batch(body: dict) -> dict:
    """Run up to `max_batch_items` calculator requests; each result has its own status and body.

    A batch's cost is bounded too: each item's work is the product of the lengths of the lists in its body
    (strikes x armor layers, combatants, springers; 1 for an item without lists), and a batch whose items'
    work adds up to more than `max_batch_work` is refused (422 on `items`, naming the budget).
    """
    config = current_app.extensions["referee.config"]
    limit = config.max_batch_items
    if len(body["items"]) > limit:
        raise OutOfRange(f"a batch holds at most {limit} items", ("items",))
    total = sum(work(item["body"]) for item in body["items"])
    if total > config.max_batch_work:
        raise OutOfRange(f"this batch's work is {total:,} (each item: the product of its lists' lengths), over the "
                         f"server's budget of {config.max_batch_work:,} a batch; split it", ("items",))
    results = []
    for item in body["items"]:
        status, answer = run(item["op"], item["body"])
        results.append({"id": item["id"], "op": item["op"], "status": status, "body": answer})
    return {"results": results}
