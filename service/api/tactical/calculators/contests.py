"""POST /v1/tactical/initiative, /surprise and /contest: order of play and contested rolls (seed 000,
"Initiative", "Surprise!!", RULINGS 1)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.tactical.schemas.contests import (
    ContestRequestSchema,
    ContestSchema,
    InitiativeRequestSchema,
    InitiativeSchema,
    SurpriseRequestSchema,
    SurpriseSchema,
)
from service.rules.tactical import contest as contests
from service.rules.tactical import initiative as init
from service.rules.tactical import surprise as surp
from service.rules.tactical.contest import Check

blp = Blueprint("tactical-contests", __name__,
                description="Initiative, Surprise and contested rolls (seed 000).")


@kit.calculator(blp, "/initiative", "tacticalInitiative", (InitiativeRequestSchema, InitiativeSchema),
                signed=False)
def initiative(body: dict) -> dict:
    """Roll Initiative for a CS: the roster in order of play and the passes of actions."""
    rng, seed = kit.generator(body)
    people = [init.Combatant(**c) for c in body["combatants"]]
    result = init.roll_initiative(people, rng, body["tie_break"], body["pass_order"])
    return {"roster": [_placed(p) for p in result.roster], "passes": result.passes,
            **_odds("first_probabilities", result.first_probabilities), "seed": seed,
            "trace": kit.trace(result.trace)}


@kit.calculator(blp, "/surprise", "tacticalSurprise", (SurpriseRequestSchema, SurpriseSchema), signed=False)
def surprise(body: dict) -> dict:
    """Resolve a Surprise: outcome, stun length, penalty, exact odds and recovery."""
    rng, seed = kit.generator(body)
    derived, dv_step = _surprise_dv(body.get("dv_from"))
    dv = surp.check_dv(body["target"].get("dv"), derived)
    aggressor = body.get("aggressor", {}).get("chance")
    faces = body["rolls"].get("aggressor"), body["rolls"].get("target")
    result = surp.surprise(aggressor, body["target"]["chance"], rng, faces, dv, body["trap"])
    return {**_surprise_body(result), "surprise_dv": derived, "seed": seed,
            "trace": kit.trace((*dv_step, *result.trace))}


@kit.calculator(blp, "/contest", "tacticalContest", (ContestRequestSchema, ContestSchema), signed=False)
def contest(body: dict) -> dict:
    """Exact odds of a contested roll, and the roll itself when asked (or when faces are given)."""
    a, b = body["a"]["chance"], body["b"]["chance"]
    odds = _odds("probabilities", contests.contest_probabilities(a, b))
    if not (body["roll"] or body.get("rolls")):
        return {**odds, "result": None, "seed": None, "trace": kit.trace([contests.odds_step(a, b)])}
    rng, seed = kit.generator(body)
    faces = body.get("rolls", {}).get("a"), body.get("rolls", {}).get("b")
    rolled = contests.contest(a, b, rng, faces)
    return {**odds, "result": _contest_result(rolled, body), "seed": seed,
            "trace": kit.trace((contests.odds_step(a, b), *rolled.trace))}


def _odds(name: str, odds: dict[Any, Fraction] | None) -> dict[str, Any]:
    return kit.exact(name, None if odds is None else {str(k).replace("both-fail", "both_fail"): v
                                                      for k, v in odds.items()})


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
            **kit.exact("expected_duration_cs", r.expected_duration_cs),
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
