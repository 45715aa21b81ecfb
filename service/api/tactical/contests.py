"""/v1/tactical/initiative, /surprise and /contest: order of play and contested rolls."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.fields import fraction_text
from service.api.tactical import request_examples as examples
from service.api.tactical.contests_schemas import (
    ContestRequestSchema,
    ContestSchema,
    InitiativeRequestSchema,
    InitiativeSchema,
    SurpriseRequestSchema,
    SurpriseSchema,
)
from service.rules.dice import seeded
from service.rules.tactical import contest as contests
from service.rules.tactical import initiative as init
from service.rules.tactical import surprise as surp
from service.rules.tactical.contest import Check

blp = Blueprint("tactical-contests", __name__,
                description="Initiative, Surprise and contested rolls (seed 000).")


@blp.post("/initiative")
@blp.doc(operationId="tacticalInitiative")
@blp.arguments(InitiativeRequestSchema, example=examples.INITIATIVE)
@blp.response(200, InitiativeSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def initiative(body: dict) -> dict:
    """Roll Initiative for a CS: the roster in order of play and the passes of actions."""
    rng, seed = seeded(body["seed"])
    people = [init.Combatant(**c) for c in body["combatants"]]
    result = init.roll_initiative(people, rng, body["tie_break"], body["pass_order"])
    return {"roster": [_placed(p) for p in result.roster], "passes": result.passes,
            **_odds("first_probabilities", result.first_probabilities), "seed": seed, "trace": _steps(result)}


@blp.post("/surprise")
@blp.doc(operationId="tacticalSurprise")
@blp.arguments(SurpriseRequestSchema, example=examples.SURPRISE)
@blp.response(200, SurpriseSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def surprise(body: dict) -> dict:
    """Resolve a Surprise: outcome, stun length, penalty, exact odds and recovery."""
    rng, seed = seeded(body["seed"])
    derived, dv_step = _surprise_dv(body.get("dv_from"))
    dv = surp.check_dv(body["target"].get("dv"), derived)
    aggressor = body.get("aggressor", {}).get("chance")
    faces = body["rolls"].get("aggressor"), body["rolls"].get("target")
    result = surp.surprise(aggressor, body["target"]["chance"], rng, faces, dv, body["trap"])
    return {**_surprise_body(result), "surprise_dv": derived, "seed": seed,
            "trace": [s.as_dict() for s in (*dv_step, *result.trace)]}


@blp.post("/contest")
@blp.doc(operationId="tacticalContest")
@blp.arguments(ContestRequestSchema, example=examples.CONTEST)
@blp.response(200, ContestSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def contest(body: dict) -> dict:
    """Exact odds of a contested roll, and the roll itself when asked (or when faces are given)."""
    a, b = body["a"]["chance"], body["b"]["chance"]
    odds = _odds("probabilities", contests.contest_probabilities(a, b))
    if not (body["roll"] or body.get("rolls")):
        return {**odds, "result": None, "seed": None, "trace": [_odds_step(a, b)]}
    rng, seed = seeded(body["seed"])
    faces = body.get("rolls", {}).get("a"), body.get("rolls", {}).get("b")
    rolled = contests.contest(a, b, rng, faces)
    return {**odds, "result": _contest_result(rolled, body), "seed": seed,
            "trace": [_odds_step(a, b), *(s.as_dict() for s in rolled.trace)]}


def _odds(name: str, odds: dict[Any, Fraction] | None) -> dict[str, Any]:
    if odds is None:
        return {name: None, f"{name}_exact": None}
    keys = {str(k): str(k).replace("both-fail", "both_fail") for k in odds}
    return {name: {keys[str(k)]: float(v) for k, v in odds.items()},
            f"{name}_exact": {keys[str(k)]: fraction_text(v) for k, v in odds.items()}}


def _steps(result: Any) -> list[dict]:
    return [s.as_dict() for s in result.trace]


def _placed(p: init.Placed) -> dict:
    return {"id": p.combatant.id, "roll": p.dice.total, "initiative": p.initiative, "dice": p.dice.as_dict(),
            "actions": p.combatant.actions, "simultaneous": p.simultaneous}


def _surprise_dv(block: dict | None) -> tuple[int | None, tuple]:
    if block is None:
        return None, ()
    springers = [surp.Springer(**s) for s in block["springers"]]
    value, step = surp.surprise_dv(block["base_dv"], springers)
    return value, (step,)


def _surprise_body(r: surp.SurpriseResult) -> dict:
    a = r.aggressor
    return {"outcome": r.verdict.outcome, "duration_cs": r.verdict.duration_cs, "penalty": r.verdict.penalty,
            "rolls": {"aggressor": a.roll.as_dict() if a else None, "target": r.target.roll.as_dict()},
            "margins": {"aggressor": a.margin if a else None, "target": r.target.margin},
            **_odds("probabilities", r.probabilities),
            "expected_duration_cs": float(r.expected_duration_cs),
            "expected_duration_cs_exact": fraction_text(r.expected_duration_cs),
            "recovery": None if r.recovery is None else {
                "hrt_check_dv": r.recovery.hrt_check_dv,
                "stunned_cs_if_failed": r.recovery.stunned_cs_if_failed,
                "penalty_schedule": list(r.recovery.penalty_schedule)}}


def _contest_result(r: contests.ContestResult, body: dict) -> dict:
    sides: dict[str, Check] = {"a": r.a, "b": r.b}
    label = body[r.winner].get("label") if r.winner in sides else None
    return {"rolls": {k: c.roll.as_dict() for k, c in sides.items()},
            "margins": {k: c.margin for k, c in sides.items()},
            "succeeded": {k: c.succeeded for k, c in sides.items()},
            "winner": r.winner, "winner_label": label}


def _odds_step(a: int, b: int) -> dict:
    return contests.odds_step(a, b).as_dict()
