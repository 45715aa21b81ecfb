"""POST /v1/tactical/batch: run many calculator requests in one call, each as its own endpoint would.

Every item goes through the same load schema, view function and dump schema as its single endpoint
(the views are called undecorated, so nothing is re-parsed from the HTTP request); a refused item
gets that endpoint's problem body and status, and never stops the other items.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from flask import current_app
from marshmallow import Schema, ValidationError

from service.api.http.blueprint import Blueprint
from service.api.http.errors import problem_body, rules_body, validation_body
from service.api.kit import calculator as kit
from service.api.tactical.calculators import aftermath, contests, damage, maneuvers, movement, to_hit
from service.api.tactical.schemas import aftermath as af
from service.api.tactical.schemas import contests as cs
from service.api.tactical.schemas import damage as ds
from service.api.tactical.schemas import maneuvers as mn
from service.api.tactical.schemas import movement as ms
from service.api.tactical.schemas import to_hit as ts
from service.api.tactical.schemas.batch import BatchRequestSchema, BatchSchema
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
    "combination": _op(mn.CombinationRequestSchema, maneuvers.post_combination, mn.CombinationSchema),
    "body-check": _op(mn.BodyCheckRequestSchema, maneuvers.post_body_check, mn.BodyCheckSchema),
    "intimidation": _op(mn.IntimidationRequestSchema, maneuvers.post_intimidation, mn.IntimidationSchema),
    "stray-fire": _op(mn.StrayFireRequestSchema, maneuvers.post_stray_fire, mn.StrayFireSchema),
    "missile-flight": _op(mn.MissileFlightRequestSchema, maneuvers.post_missile_flight, mn.MissileFlightSchema),
    "knock-back": _op(mn.KnockBackRequestSchema, maneuvers.post_knock_back, mn.KnockBackSchema),
    "melee-spacing": _op(mn.MeleeSpacingRequestSchema, maneuvers.post_melee_spacing, mn.MeleeSpacingSchema),
    "dodge": _op(mn.DodgeRequestSchema, maneuvers.post_dodge, mn.DodgeSchema),
    "task": _op(af.TaskRequestSchema, aftermath.post_task, af.TaskSchema),
    "catch": _op(af.CatchRequestSchema, aftermath.post_catch, af.CatchSchema),
    "surprise-check": _op(af.SurpriseCheckRequestSchema, aftermath.post_surprise_check, af.SurpriseCheckSchema),
    "mortal-wound": _op(af.MortalWoundRequestSchema, aftermath.post_mortal_wound, af.MortalWoundSchema),
    "after-battle": _op(af.AfterBattleRequestSchema, aftermath.post_after_battle, af.AfterBattleSchema),
    "healing": _op(af.HealingRequestSchema, aftermath.post_healing, af.HealingSchema),
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


@kit.calculator(blp, "/batch", "tacticalBatch", (BatchRequestSchema, BatchSchema), signed=False)
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
