"""Schemas of the tactical missile calculators: stray fire past a missed target and missile flight time
(A43); shapes and bounds only, the rules live in the domain."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.schemas import JsonBoolean, JsonFloat, trace_field
from service.api.tactical.maneuver_fields import FEET, answer_int, progression_field, task_resolution_field
from service.api.tactical.to_hit_schemas import SCORE


class BystanderSchema(Schema):
    """A figure on the line of fire beyond the missed target."""

    id = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Who it is."})
    modified_sta = bounded(SCORE, "The figure's modified STA.")
    dv = bounded(SCORE, "The DV the figure offers as a target of this shot.")
    distance = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Distance from the shooter, in the band's unit."})


class StrayFireRequestSchema(Schema):
    """A missed shot and who stands beyond the target, up to the end of its range band."""

    av = bounded(SCORE, "The shooter's AV.")
    target_modified_sta = bounded(SCORE, "The missed target's modified STA.")
    band_end = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Where the target's range band ends (same unit as distance)."})
    bystanders = fields.List(fields.Nested(BystanderSchema), required=True, validate=validate.Length(0, 200),
                             metadata={"description": "Figures whose Zone the extended line crosses."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class StrayTargetSchema(Schema):
    """One figure in line: its DV with the size modifier, its chance, and the chance it is the one hit."""

    id = fields.String(required=True, metadata={"description": "Who it is."})
    size_modifier = answer_int("Progressive DV shift for the size difference (+ smaller, - larger).")
    dv = answer_int("DV with the size modifier.")
    chance = answer_int("Percent chance a shot at it hits.")
    hit_probability = JsonFloat(required=True, metadata={"description": "Chance it is the figure hit (all "
                                                                        "nearer ones missed)."})
    hit_probability_exact = fields.String(required=True, metadata={"description": "Exact fraction."})


class StrayFireSchema(Schema):
    """Every figure in the band, nearest first, and the chance the missile hits no one."""

    targets = fields.List(fields.Nested(StrayTargetSchema), required=True, metadata={"description": "In order."})
    beyond_band = fields.List(fields.String(), required=True,
                              metadata={"description": "Figures past the band's end: the missile falls short."})
    no_one_hit = JsonFloat(required=True, metadata={"description": "Chance every figure is missed."})
    no_one_hit_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    trace = trace_field()


class MissileFlightRequestSchema(Schema):
    """How far a missile flies and what it is (A43)."""

    distance_feet = JsonFloat(required=True, allow_nan=False, validate=FEET, metadata={"description": "In feet."})
    kind = fields.String(required=True, validate=validate.OneOf(["hurled", "missile"]),
                         metadata={"description": "hurled (about 50 ft/s) or missile: arrow or bolt (about 200)."})
    pulse_move = JsonBoolean(load_default=False, metadata={"description": "Pulse Move in use (changes when it lands)."})


class MissileFlightSchema(Schema):
    """Time aloft and when the missile lands."""

    seconds = JsonFloat(required=True, metadata={"description": "Seconds aloft."})
    seconds_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    delayed = JsonBoolean(required=True, metadata={"description": "True when it lands in the next CS."})
    lands = fields.String(required=True, metadata={"description": "When in play it lands."})
    trace = trace_field()
