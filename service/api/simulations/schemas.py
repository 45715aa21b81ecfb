"""Schemas of /v1/simulations: the job request, the job as returned, and its progress."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.payloads import RulesetIds, payload
from service.api.kit.schemas import JsonFloat, JsonInteger, seed_field

SimulationOptionsPayload = payload("sim_options", "A simulation's rule options, in its ruleset's format "
                                                  "(tactical: the engine's switches; the others: the ruleset's "
                                                  "options plus `max_rounds`).")

EXAMPLE = {"ruleset": "tactical", "trials": 10000, "seed": 7, "matchup": {"sides": [
    {"name": "knight", "combatants": [
        {"id": "knight", "attributes": {"STR": 16, "mSTA": 14, "CND": 15, "AGL": 12, "HRT": 14, "P-RES": 13},
         "mods": {"AWA": 1, "HRT": 1}, "dodge_dv": 20,
         "weapons": [{"name": "arming sword", "av": 70, "parry": 45, "size": 6, "weight_class": 2}],
         "armor": [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded", "dr": 10}]}]},
    {"name": "bandits", "combatants": [
        {"id": f"b{n}", "dodge_dv": 15, "weapons": [{"name": "axe", "av": 45, "parry": 25, "size": 5, "weight_class": 3}],
         "armor": [{"type": "padded", "dr": 10}]} for n in (1, 2)]}]}}


class SideSchema(Schema):
    """One side of a simulated fight."""

    name = fields.String(required=True, validate=validate.Length(1, 64),
                         metadata={"description": "The side's name (results are reported by it; at most 64 "
                                                  "characters, as a combatant's `side`)."})
    combatants = fields.List(fields.Dict(), required=True, validate=validate.Length(1, 100),
                             metadata={"description": "Combatants in the encounter-state format."})


class MatchupSchema(Schema):
    """Two or more sides of combatants (or an encounter's combatants, each with its `side`)."""

    sides = fields.List(fields.Nested(SideSchema), validate=validate.Length(2, 20),
                        metadata={"description": "Two or more sides, each with its combatants (at most 200 "
                                                 "combatants in all)."})
    combatants = fields.List(fields.Dict(), validate=validate.Length(2, 200),
                             metadata={"description": "Or: combatants each carrying a `side`, as in an "
                                                      "encounter."})
    options = fields.Nested(SimulationOptionsPayload, load_default=dict,
                            metadata={"description": "Rule options of the simulated fights (in the ruleset's "
                                                     "format)."})


class SimulationRequestSchema(Schema):
    """A simulation to start: a matchup (inline, or a stored encounter) and how many fights."""

    ruleset = fields.String(load_default=None, validate=RulesetIds(),
                            metadata={"description": "The ruleset whose rules play the fights (default "
                                                     "`tactical`; with `encounter_id`, the encounter's)."})
    matchup = fields.Nested(MatchupSchema, metadata={"description": "The fight, inline."})
    encounter_id = fields.String(metadata={"description": "Simulate a stored encounter as it stands "
                                                          "(send its token as `Authorization: Bearer`)."})
    trials = JsonInteger(required=True, validate=validate.Range(1, 1_000_000),
                         metadata={"description": "Number of fights, at most REFEREE_MAX_TRIALS (default and "
                                                  "most: 1,000,000), within the job's "
                                                  "CPU budget (`max_job_cpu_seconds`, estimated for the engine "
                                                  "that plays the matchup, every fight to its step cap)."})
    seed = seed_field()
    chunk_size = JsonInteger(load_default=None, allow_none=True, validate=validate.Range(100, 1_000_000),
                             metadata={"description": "Fights per chunk. A job has at most 50 chunks (so at least "
                                                      "trials / 50), each estimated within "
                                                      "`max_chunk_cpu_seconds`; default 20000, fewer when such a "
                                                      "chunk would cost more, more for over 50 chunks."})


class ProgressSchema(Schema):
    """How far a simulation has got."""

    trials_done = JsonInteger(required=True, metadata={"description": "Fights finished."})
    trials = JsonInteger(required=True, metadata={"description": "Fights asked for."})
    percent = JsonFloat(required=True, metadata={"description": "trials_done as a percentage of trials."})
    eta_seconds = JsonFloat(allow_none=True, required=True,
                            metadata={"description": "Estimated seconds left (null until there is a rate)."})
    chunks_requeued = JsonInteger(required=True,
                                  metadata={"description": "Times a chunk went back to the queue before it finished "
                                                           "(it runs again from its start, counted once): at once "
                                                           "when its worker was told to stop, or once its lease "
                                                           "lapsed when its worker died."})


class CostSchema(Schema):
    """What a simulation may cost the workers, as its budget counts it."""

    engine = fields.String(required=True, validate=validate.OneOf(["vectorised", "loop"]),
                           metadata={"description": "The engine that plays it: `vectorised` (numpy, every fight "
                                                    "of a chunk at once) or `loop` (the round resolver, fight by "
                                                    "fight)."})
    cpu_seconds = JsonFloat(required=True,
                            metadata={"description": "Worker CPU seconds it may cost at most, every fight counted "
                                                     "to its step cap; a chunk running past twice its share is "
                                                     "stopped and the job fails."})


class LinksSchema(Schema):
    """URLs of a simulation job."""

    self = fields.String(required=True, metadata={"description": "The job (poll it)."})
    stream = fields.String(required=True, metadata={"description": "Its progress as server-sent events."})
    plots = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Chart name -> URL of its SVG (once the job is done)."})


class SimulationSchema(Schema):
    """A simulation job: its state, progress, and the summary once done."""

    id = fields.String(required=True, metadata={"description": "The job's id."})
    ruleset = fields.String(required=True, metadata={"description": "The ruleset that played the fights."})
    state = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "failed"]),
                          metadata={"description": "queued, running, done or failed (a deleted job is gone)."})
    trials = JsonInteger(required=True, metadata={"description": "Fights asked for."})
    seed = JsonInteger(required=True,
                       metadata={"description": "The seed of the whole job (the same seed and chunks replay "
                                                "the same fights)."})
    chunk_size = JsonInteger(required=True,
                             metadata={"description": "Fights per chunk (each chunk is one task on a worker)."})
    chunks = JsonInteger(required=True, metadata={"description": "Number of chunks."})
    cost = fields.Nested(CostSchema, allow_none=True, required=True,
                         metadata={"description": "What the job may cost a worker (its budget)."})
    progress = fields.Nested(ProgressSchema, required=True,
                             metadata={"description": "How far the job has got."})
    result = fields.Dict(allow_none=True, metadata={"description": "Win chances with 95% intervals, "
                                                                   "segments, wounds, armor, first strike."})
    error = fields.String(allow_none=True, metadata={"description": "Why the job failed (null otherwise)."})
    links = fields.Nested(LinksSchema, required=True,
                          metadata={"description": "URLs of the job, its stream and its plots."})
