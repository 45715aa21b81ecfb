"""One ruleset's own encounter resource, /v1/{ruleset}/encounters (issue 24): every encounter operation with
that ruleset's exact schemas, built from the shared views (views.py, dice.py) over its `Shapes`.

A ruleset's HTTP package mounts it from its `encounters` module (one call to `encounter_blueprint`). An
encounter created through another ruleset's path (or the shared one, for another ruleset) is not found here:
404, as for an unknown id, before anything else is read or written.
"""
from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import Schema

from service.api.encounters.dice import register_dice
from service.api.encounters.requests import bearer_token, encounter_store
from service.api.encounters.shapes import typed
from service.api.encounters.views import register
from service.api.http.blueprint import Blueprint
from service.sessions.errors import EncounterNotFound


def encounter_blueprint(ruleset_id: str, round_schema: type[Schema] | None, examples: dict[str, Any]) -> Blueprint:
    """The blueprint of `ruleset_id`'s encounters (mounted under /v1/{ruleset}); `round_schema` is its
    stateless round answer (None for a ruleset stepping in Combat Segments), whose own fields type a round's
    `summary`; `examples` its request examples (`create`, `added`, `replaced`, `declarations`)."""
    shapes = typed(ruleset_id, round_schema, examples)
    bp = Blueprint(f"{ruleset_id}-encounters", __name__,
                   description=f"`{ruleset_id}` encounters kept between requests, typed for this ruleset: "
                               f"combatants, declarations, {shapes.steps}, events, undo, a live event stream "
                               "and the committed dice.")
    register(bp, shapes)
    register_dice(bp, shapes)
    bp.before_request(lambda: _same_ruleset(ruleset_id))
    return bp


def _same_ruleset(ruleset_id: str) -> None:
    """404 for an encounter of another ruleset (the token is checked first, as every operation does)."""
    encounter_id = (request.view_args or {}).get("encounter_id")
    if encounter_id is None:
        return
    streamed = request.path.endswith("/stream")
    encounter = encounter_store().get(encounter_id, bearer_token(request.args.get("token") if streamed else None))
    if encounter.ruleset != ruleset_id:
        raise EncounterNotFound(f"encounter {encounter_id!r} is a {encounter.ruleset!r} encounter: address it "
                                f"under /v1/{encounter.ruleset}/encounters")

