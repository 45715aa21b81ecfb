"""Pieces every `ars-magica` calculator answer shares: options read through the ruleset, dice, rolls
refused beyond use, assumptions and the trace."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields

from service.api.ars_magica.common import exact_pair
from service.api.kit.schemas import RollSchema, trace_field
from service.rules import registry
from service.rules.ars_magica import stress
from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.trace import Step

RULESET_ID = "ars-magica"


def require_body() -> None:
    """A POST whose fields are all optional still needs its JSON object (a missing body is refused)."""
    from flask import request

    if not request.get_data(cache=True).strip():
        raise RulesError("a JSON object body is required", ("body",))


def options(body: dict) -> dict[str, Any]:
    """Every option's value (the caller's, checked by the ruleset, else the default)."""
    return registry.get(RULESET_ID).read_options(body.get("options"))


def dice_for(body: dict) -> DiceSource | None:
    """Dice when the body asks for a roll (`seed` or `rolls`), else None."""
    if body.get("seed") is None and body.get("rolls") is None:
        return None
    return DiceSource.for_calculator(body.get("seed"), {k: v for k, v in (body.get("rolls") or {}).items()
                                                        if v is not None})


def refuse_unused(dice: DiceSource, rolled: Iterable[tuple[str, stress.Rolled | None, str]]) -> None:
    """Faces beyond what a made roll could use answer 422 (its stress role after the final face, its botch
    role beyond the botch dice rolled); the roles of rolls not made are ignored."""
    for role, made, botch_role in rolled:
        if made is None:
            continue
        stress.refuse_leftovers(dice, (role,))
        if made.botch_faces:
            stress.refuse_leftovers(dice, (botch_role,))


# (id of odds, fields) -> (odds, the answer's plain fields, its object fields); odds objects are remembered
# by the rules, so a question asked again hands back the same object and its text is written once.
_EXACT: dict[tuple[int, tuple], tuple[Any, dict[str, Any], tuple[tuple[str, dict], ...]]] = {}


def exact_fields(odds: Any, names: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """For each (answer name, attribute of `odds`): `name` as float(s) and `name_exact` as fraction text(s)
    (`common.exact_pair`); each answer gets its own copy of the objects."""
    key = (id(odds), names)
    known = _EXACT.get(key)
    if known is None or known[0] is not odds:
        if len(_EXACT) > 4096:
            _EXACT.clear()
        made: dict[str, Any] = {}
        for name, attribute in names:
            made.update(exact_pair(name, getattr(odds, attribute)))
        known = _EXACT[key] = (odds, {name: value for name, value in made.items() if not isinstance(value, dict)},
                               tuple((name, value) for name, value in made.items() if isinstance(value, dict)))
    answer = dict(known[1])
    for name, value in known[2]:
        answer[name] = dict(value)
    return answer


def common(dice: DiceSource | None, steps: Iterable[Step], assumptions: list[str]) -> dict[str, Any]:
    """`dice`, `seed`, `assumptions` and `trace`."""
    return {"dice": [] if dice is None else dice.dice(), "seed": None if dice is None else dice.seed,
            "assumptions": assumptions, "trace": [s.as_dict() for s in steps]}


class CommonAnswerSchema(Schema):
    """Fields every calculator answers."""

    dice = fields.List(fields.Nested(RollSchema), required=True,
                       metadata={"description": "Every die rolled (empty when nothing was rolled)."})
    seed = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The seed that reproduces the dice (null when none was "
                                                   "needed)."})
    assumptions = fields.List(fields.String(), required=True,
                              metadata={"description": "Ids of the assumptions (GET /v1/rulesets/ars-magica) "
                                                       "this answer relied on."})
    trace = trace_field()
