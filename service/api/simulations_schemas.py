"""Schemas of /v1/simulations: the job request, the job as returned, and its progress."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ruleset_http import RulesetIds, payload
from service.api.schemas import JsonFloat, JsonInteger, seed_field

SimulationOptionsPayload = payload("sim_options", "A simulation's rule options, in its ruleset's format "
                                                  "(tactical: the engine's switches; the others: the ruleset's "
                                                  "options plus `max_rounds`).")


class SideSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 100))
    combatants = fields.List(fields.Dict(), required=True, validate=validate.Length(1, 100),
                             metadata={"description": "Combatants in the encounter-state format."})


class MatchupSchema(Schema):
    """Two or more sides of combatants (or an encounter's combatants, each with its `side`)."""

    sides = fields.List(fields.Nested(SideSchema), validate=validate.Length(2, 20))
    combatants = fields.List(fields.Dict(), validate=validate.Length(2, 200))
    options = fields.Nested(SimulationOptionsPayload, load_default=dict)


class SimulationRequestSchema(Schema):
    ruleset = fields.String(load_default=None, validate=RulesetIds(),
                            metadata={"description": "The ruleset whose rules play the fights (default "
                                                     "`tactical`; with `encounter_id`, the encounter's)."})
    matchup = fields.Nested(MatchupSchema, metadata={"description": "The fight, inline."})
    encounter_id = fields.String(metadata={"description": "Simulate a stored encounter as it stands "
                                                          "(send its token as `Authorization: Bearer`)."})
    trials = JsonInteger(required=True, validate=validate.Range(min=1),
                            metadata={"description": "Number of fights, 1..max_trials (config)."})
    seed = seed_field()
    chunk_size = JsonInteger(load_default=None, allow_none=True, validate=validate.Range(100, 1_000_000),
                                metadata={"description": "Fights per chunk (default 20000)."})


class ProgressSchema(Schema):
    trials_done = JsonInteger(required=True)
    trials = JsonInteger(required=True)
    percent = JsonFloat(required=True)
    eta_seconds = JsonFloat(allow_none=True, required=True)


class LinksSchema(Schema):
    self = fields.String(required=True)
    stream = fields.String(required=True)
    plots = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class SimulationSchema(Schema):
    """A simulation job: its state, progress, and the summary once done."""

    id = fields.String(required=True)
    ruleset = fields.String(required=True, metadata={"description": "The ruleset that played the fights."})
    state = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "cancelled",
                                                                   "failed"]))
    trials = JsonInteger(required=True)
    seed = JsonInteger(required=True)
    chunk_size = JsonInteger(required=True)
    chunks = JsonInteger(required=True)
    progress = fields.Nested(ProgressSchema, required=True)
    result = fields.Dict(allow_none=True, metadata={"description": "Win chances with 95% intervals, "
                                                                   "segments, wounds, armor, first strike."})
    error = fields.String(allow_none=True)
    links = fields.Nested(LinksSchema, required=True)
