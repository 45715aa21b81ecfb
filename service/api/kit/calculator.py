"""The calculator kit: what every ruleset's calculators do alike (rules README, "Common conventions").

A calculator reads a body's `options` through its ruleset, rolls only when the body sends `seed` or `rolls`,
and answers its odds as JSON numbers beside their exact "n/d" twins, with every die rolled, the seed that
replays them and the trace of the rules applied. Odds the rules remember come back as the very same object,
so `Remembered` shapes each of those answers once. `calculator` registers a function of the body as one
POST operation, documented by its request and answer schemas.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.fields import fraction_text
from service.api.kit.receipts import receipted
from service.rules import memo, registry
from service.rules.dice import DiceSource, seeded
from service.rules.trace import Step


def options(ruleset_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value: the caller's `options`, checked by the ruleset, else its default."""
    return registry.get(ruleset_id).read_options(body.get("options"))


def dice(body: Mapping[str, Any], empty_rolls_roll: bool = False) -> DiceSource | None:
    """The answer's dice when the body asks for a roll (`seed`, or faces in `rolls`), else None (odds only);
    with `empty_rolls_roll` an empty `rolls` object asks for one too. Roles sent as null are left out."""
    rolls = body.get("rolls")
    if body.get("seed") is None and (rolls is None if empty_rolls_roll else not rolls):
        return None
    return DiceSource.for_calculator(body.get("seed"), {k: v for k, v in (rolls or {}).items() if v is not None})


def generator(body: Mapping[str, Any]) -> tuple[random.Random, int]:
    """A generator seeded from the body's `seed` (a fresh one when it sends none) and that seed, for rules
    that draw from a seeded generator rather than a dice source (tactical Initiative, Surprise, contests)."""
    return seeded(body.get("seed"))


def exact(name: str, value: Fraction | Mapping[Any, Fraction] | None, shown: bool = True) -> dict[str, Any]:
    """`name` as a JSON number (or an object of them) and `name_exact` as "n/d" text(s) in lowest terms;
    a missing value is null in both; `shown` false answers a null twin (a sum with no exact value)."""
    if value is None:
        return {name: None, f"{name}_exact": None}
    if isinstance(value, Mapping):
        return {name: {str(k): float(v) for k, v in value.items()},
                f"{name}_exact": {str(k): fraction_text(v) for k, v in value.items()} if shown else None}
    return {name: float(value), f"{name}_exact": fraction_text(value) if shown else None}


def rolled(source: DiceSource | None) -> dict[str, Any]:
    """The answer's `dice` (every die rolled, in order) and the `seed` that replays them (null: none)."""
    return {"dice": [] if source is None else source.dice(), "seed": None if source is None else source.seed}


def trace(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """The answer's `trace`: each rule or ruling applied, in order."""
    return [step.as_dict() for step in steps]


def copied(value: Any) -> Any:
    """A remembered answer's object copied before it goes out, so that nothing downstream edits the memory."""
    return dict(value) if isinstance(value, dict) else value


class Remembered:
    """Answers shaped once per rules result the rules hand back again, kept (with the result, so its id
    stays its own) in the rules' memo store: bounded by bytes per process (service.rules.memo)."""

    def __init__(self) -> None:
        self._tag = memo.new_tag()

    def __call__(self, found: Any, shape: Callable[[], Any], key: Any = ()) -> Any:
        """`shape()` for `found` (and `key`): made the first time, then the same answer while both are kept."""
        slot = (self._tag, id(found), key)
        known = memo.STORE.get(slot)
        if known is memo.MISSING or known[0] is not found:
            known = (found, shape())
            memo.STORE.put(slot, known)
        return known[1]


def calculator(blp: Blueprint, path: str, operation_id: str, schemas: tuple[Any, Any], signed: bool = True,
               body_required: bool = True) -> Callable[[Callable[[dict], dict]], Callable[[dict], dict]]:
    """Register the decorated `answer(body) -> dict` as POST `path` on `blp`, its docstring the operation's
    summary: the body loaded by `schemas[0]` (with its `EXAMPLE`), the answer documented by `schemas[1]`;
    `signed` answers carry a `receipt` when the body asks for one."""
    request, response = schemas

    def register(answer: Callable[[dict], dict]) -> Callable[[dict], dict]:
        view = blp.alt_response(422, response="UNPROCESSABLE_ENTITY")(receipted(answer) if signed else answer)
        view = blp.response(200, response, example=getattr(response, "EXAMPLE", None))(view)
        view = blp.arguments(request, example=getattr(request, "EXAMPLE", None), required=body_required)(view)
        blp.route(path, methods=["POST"])(blp.doc(operationId=operation_id)(view))
        return answer
    return register
