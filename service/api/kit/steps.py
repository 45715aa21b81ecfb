"""POST /v1/{ruleset}/rounds/resolve, shared by every round-based ruleset: one step, nothing stored.

A ruleset's HTTP package declares its own request and response schemas (its state, declarations and
summary fields, so the contract documents them) on top of `RoundRequestBase`/`RoundResponseBase`, and
its view is one call to `resolve_round` (README of the rules documents, "Stateless rounds").
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.events import event_field
from service.api.kit.schemas import round_rolls_field, seed_field
from service.rules.interface import LAST_STEP
from service.sessions.steps import resolve_once


class RoundRequestBase(Schema):
    """`state`, `declarations`, `seed` and `rolls`; a ruleset adds its own `state` and `declarations`."""

    seed = seed_field()
    rolls = round_rolls_field()


class RoundResponseBase(Schema):
    """`round` (the number just resolved), `seed`, `events` and `state`; a ruleset adds its summary."""

    round = fields.Integer(required=True, validate=validate.Range(1, LAST_STEP),
                           metadata={"description": "The round just resolved (the request's `state.round` + 1; a "
                                                    f"state at round {LAST_STEP} has no next round: 422)."})
    seed = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "The seed used (replays the same answer): the request's, or a "
                                                   "random one when some dice were still needed; null when "
                                                   "every die came from `rolls` and no seed was sent."})
    events = event_field(required=True)


def resolve_round(ruleset_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """Resolve one round of the state in `body` through the ruleset's engine."""
    step = resolve_once(ruleset_id, body["state"], body.get("declarations") or [], body.get("seed"), ("state",),
                        body.get("rolls") or [])
    return {"round": step.number, "seed": step.seed, **step.summary, "events": step.events, "state": step.state}
