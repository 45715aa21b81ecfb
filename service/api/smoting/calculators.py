"""/v1/smoting calculators: check, to-hit, damage, attack, injury, combatant, movement (smoting.md 12)."""
from __future__ import annotations

from typing import Any

from flask import Response

from service.api.http.blueprint import Blueprint
from service.api.http.caching import cacheable
from service.api.kit.fields import fraction_text
from service.api.kit.receipts import receipted
from service.api.smoting import (
    check_schemas,
    combatant_schemas,
    damage_schemas,
    injury_schemas,
    movement_schemas,
    to_hit_schemas,
)
from service.api.smoting.common import chance, odds
from service.rules.dice import DiceSource
from service.rules.smoting import RULESET
from service.rules.smoting import calculators as calc
from service.rules.smoting import combatant as fighter

blp = Blueprint("smoting", __name__, description="Smoting thy Enemy (seed 003): d6 success pools, damage "
                                                   "and ranks, injuries, movement.")


def _options(body: dict[str, Any]) -> dict[str, Any]:
    return RULESET.read_options(body.get("options"))


def _dice(body: dict[str, Any]) -> DiceSource | None:
    if body.get("seed") is None and not body.get("rolls"):
        return None
    return DiceSource.for_calculator(body.get("seed"), {k: v for k, v in (body.get("rolls") or {}).items()
                                                        if v is not None})


def _answer(found: dict[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    out = {k: v for k, v in found.items() if k not in ("odds", "chance", "trace")}
    if "chance" in found:
        out.update(chance(*found["chance"]))
    for name, (values, exact) in found.get("odds", {}).items():
        out.update(odds(values, exact, name))
    if "expected_successes" in out:
        value = out["expected_successes"]
        out.update(expected_successes=float(value), expected_successes_exact=fraction_text(value))
    out.update(dice=[] if dice is None else dice.dice(), seed=None if dice is None else dice.seed,
               trace=[step.as_dict() for step in found["trace"]])
    return out


FORMATTED: dict[int, tuple[Any, dict[str, Any]]] = {}


def _run(function: Any, body: dict[str, Any]) -> dict[str, Any]:
    dice = _dice(body)
    found = function(body, _options(body), dice)
    if dice is not None:
        return _answer(found, dice)
    known = FORMATTED.get(id(found))  # a remembered answer (the same object) is formatted once
    if known is None or known[0] is not found:
        if len(FORMATTED) > 4096:
            FORMATTED.clear()
        known = FORMATTED[id(found)] = (found, _answer(found, None))
    return known[1]


def _op(name: str, schema_in: Any, schema_out: Any):
    def decorate(view):
        view = blp.alt_response(422, response="UNPROCESSABLE_ENTITY")(view)
        view = blp.response(200, schema_out, example=getattr(schema_out, "EXAMPLE", None))(view)
        needed = any(f.required for f in schema_in._declared_fields.values())  # all optional: a body may be left out
        view = blp.arguments(schema_in, example=getattr(schema_in, "EXAMPLE", None), required=needed)(view)
        return blp.doc(operationId=name)(view)
    return decorate


def _calculator(path: str, name: str, schemas: tuple[Any, Any], function: Any, summary: str) -> None:
    """Register POST `path`: load with `schemas[0]`, answer `function`'s odds (and roll) as `schemas[1]`."""
    def view(body: dict) -> dict:
        return _run(function, body)
    view.__name__ = view.__qualname__ = path.strip("/").replace("-", "_")
    view.__doc__ = summary
    blp.route(path, methods=["POST"])(_op(name, *schemas)(receipted(view)))


_calculator("/check", "smotingCheck", (check_schemas.CheckRequestSchema, check_schemas.CheckSchema), calc.check,
            "Any d6 success pool: a task, an attribute roll, a zone or battle move - odds and an optional roll.")
_calculator("/to-hit", "smotingToHit", (to_hit_schemas.ToHitRequestSchema, to_hit_schemas.ToHitSchema), calc.hit,
            "The chance an attack pool lands against dodge, parry or a live defence pool.")
_calculator("/damage", "smotingDamage", (damage_schemas.DamageRequestSchema, damage_schemas.DamageSchema), calc.damage,
            "A landed blow: damage pool, block and soak, and the defeat, trauma, killing-blow and massive bands.")
_calculator("/attack", "smotingAttack", (damage_schemas.AttackRequestSchema, damage_schemas.AttackSchema), calc.attack,
            "One whole attack, from the attack pool to the damage band.")
_calculator("/injury", "smotingInjury", (injury_schemas.InjuryRequestSchema, injury_schemas.InjurySchema), calc.injury,
            "Injury location (4d6, the face shown most) and effect (1d6, +1 on a killing blow).")


@blp.route("/combatant", methods=["POST"])
@_op("smotingCombatant", combatant_schemas.CombatantRequestSchema, combatant_schemas.CombatantSchema)
def combatant(body: dict) -> dict:
    """Derived values: action dice, soak dice, thresholds, defeats to out of action, crossover."""
    found = fighter.derived(body, _options(body))
    return {**found, "trace": [{"rule": "Ranks.", "detail": "derived from ranks, bonuses and group", "value": None}]}


def _movement(body: dict) -> dict[str, Any]:
    found = calc.movement(body, _options(body))
    needed, success = found["battle"]
    out: dict[str, Any] = {"pool": found["pool"], **odds(found["zone"], True, "zone_move"),
                           "battle_move": {"roll_needed": needed, "success": float(success)},
                           "battle_move_exact": {"success": fraction_text(success)}, "zones_per_round": body.get("mr", 1)}
    for name, value in found["speeds"].items():
        out.update({name: float(value), f"{name}_exact": fraction_text(value)})
    return {**out, "trace": [step.as_dict() for step in found["trace"]]}


@blp.route("/movement", methods=["POST"])
@_op("smotingMovement", movement_schemas.MovementRequestSchema, movement_schemas.MovementSchema)
def movement(body: dict) -> dict:
    """Zone and battle move odds for a mover, and its speed in metres and km/h."""
    return _movement(body)


@blp.route("/movement", methods=["GET"])
@blp.arguments(movement_schemas.MovementQuerySchema, location="query")
@blp.response(200, movement_schemas.MovementSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="smotingMovementQuery")
def movement_query(query: dict) -> Response:
    """Zone and battle move odds and speed, from query parameters (default options)."""
    return cacheable(_movement(query))
