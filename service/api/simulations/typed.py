"""One ruleset's own simulation resource, /v1/{ruleset}/simulations (issue 24): its matchup's sides hold that
ruleset's combatants (the schema its encounters take) and its options, and a finished job's `result` is typed,
`details` included; the operations are the shared ones (views.py) over its `SimShapes`.

A ruleset's HTTP package mounts it from its `simulations` module (one call to `simulation_blueprint`). A job
started through another ruleset's path (or the shared one, for another ruleset) is not found here: 404, as for
an unknown id.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema

from service.api.http.blueprint import Blueprint
from service.api.simulations.shapes import typed
from service.api.simulations.views import register


def simulation_blueprint(ruleset_id: str, result: type[Schema], example: dict[str, Any]) -> Blueprint:
    """The blueprint of `ruleset_id`'s simulations (mounted under /v1/{ruleset}); `result` types a finished
    job's `result`, `example` is its request example."""
    bp = Blueprint(f"{ruleset_id}-simulations", __name__,
                   description=f"`{ruleset_id}` simulations: Monte Carlo batches of fights as jobs, typed for "
                               "this ruleset.")
    register(bp, typed(ruleset_id, result, example))
    return bp
