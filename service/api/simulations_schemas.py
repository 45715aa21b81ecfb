"""Schemas of /v1/simulations: the job request, the job as returned, and its progress."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, seed_field


class OptionsSchema(Schema):
    """Rule switches of a simulation (defaults: RULINGS and the digest's defaults)."""

    method = fields.String(load_default="ratio", validate=validate.OneOf(["ratio", "linear"]),
                           metadata={"description": "Task Resolution Table method (RULINGS 4)."})
    heroic = JsonBoolean(load_default=True, metadata={"description": "A Heroic hit doubles the POT."})
    bumble = JsonBoolean(load_default=True, metadata={"description": "Count Bumbles (a miss either way)."})
    armor_wear = JsonBoolean(load_default=True)
    reprisals = JsonBoolean(load_default=True, 
                               metadata={"description": "A missed attack gives a Reprisal."})
    progression = fields.String(load_default="triangular", validate=validate.OneOf(["triangular", "linear"]))
    targeting = fields.String(load_default="first", validate=validate.OneOf(["first", "random"]),
                              metadata={"description": "Strike the lowest-index standing foe, or a "
                                                       "random one."})
    max_segments = JsonInteger(load_default=100, validate=validate.Range(1, 1000),
                                  metadata={"description": "A fight still on after this many segments is "
                                                           "a draw."})


class SideSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 100))
    combatants = fields.List(fields.Dict(), required=True, validate=validate.Length(1, 100),
                             metadata={"description": "Combatants in the encounter-state format."})


class MatchupSchema(Schema):
    """Two or more sides of combatants (or an encounter's combatants, each with its `side`)."""

    sides = fields.List(fields.Nested(SideSchema), validate=validate.Length(2, 20))
    combatants = fields.List(fields.Dict(), validate=validate.Length(2, 200))
    options = fields.Nested(OptionsSchema, load_default=dict)


class SimulationRequestSchema(Schema):
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
