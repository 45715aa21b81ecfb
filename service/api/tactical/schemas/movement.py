"""Schemas of /v1/tactical/pulse, /pulse-ramp and /falling: shapes only (the rules check the rest)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import quarter_rate
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field

SCALES = ["25mm", "10mm", "5mm"]
MAX_MPH = 1000


def _mph(field: type[fields.Float] = JsonFloat) -> fields.Float:
    return field(required=True, allow_nan=False, validate=validate.Range(0, MAX_MPH),
                 metadata={"description": "Full-rate speed in mph (0 to 1000).", "example": 10})


def _scale() -> fields.String:
    return fields.String(load_default="25mm", validate=validate.OneOf(SCALES),
                         metadata={"description": "Display scale: 25mm = 5 mm/ft, 10mm = 2 mm/ft, 5mm = 1 "
                                                  "mm/ft."})


VERBATIM = {"description": "Return table 7-2's printed cells where the speed is printed (RULINGS 15); "
                           "otherwise the generating rule."}


class PulseQuerySchema(Schema):
    """One speed to convert by table 7-2 (query string)."""

    mph = _mph(fields.Float)
    scale = _scale()
    verbatim = fields.Boolean(load_default=False, metadata=VERBATIM)


class PulseItemSchema(Schema):
    """One speed to convert by table 7-2 (JSON body)."""

    mph = _mph()
    scale = _scale()
    verbatim = JsonBoolean(load_default=False, metadata=VERBATIM)


class PulseBatchSchema(Schema):
    """Several conversions in one request."""

    EXAMPLE = {"items": [{"mph": 10, "scale": "10mm"}, {"mph": 0.5, "scale": "5mm"}]}

    items = fields.List(fields.Nested(PulseItemSchema), required=True, validate=validate.Length(1, 100),
                        metadata={"description": "Speeds to convert (1-100)."})


class PulseRateSchema(Schema):
    """One quarter rate of a speed, per pulse (table 7-2)."""

    mph = JsonFloat(required=True, metadata={"description": "Speed at this rate in mph."})
    feet_per_pulse = JsonFloat(required=True, metadata={"description": "Table 7-2 feet column."})
    feet_per_pulse_exact = JsonFloat(required=True, metadata={"description": "mph x 22/15."})
    feet_per_cs = JsonInteger(required=True,
                                 metadata={"description": "Exact feet per pulse x 10, rounded half up."})
    scale_mm_per_pulse = JsonInteger(required=True,
                                     metadata={"description": "Millimetres on the table per pulse at the "
                                                              "display scale."})
    scale_per_pulse = fields.String(required=True, metadata={"description": "As table 7-2 prints it."})
    source = fields.String(required=True, validate=validate.OneOf(["rule", "printed"]),
                           metadata={"description": "`printed` when table 7-2 prints this speed (verbatim), "
                                                    "else `rule` (the generating rule)."})


class PulseRatesSchema(Schema):
    """The speed at each quarter rate."""

    quarter = fields.Nested(PulseRateSchema, required=True, metadata={"description": "At a quarter rate."})
    half = fields.Nested(PulseRateSchema, required=True, metadata={"description": "At half rate."})
    three_quarters = fields.Nested(PulseRateSchema, required=True,
                                   metadata={"description": "At three-quarter rate."})
    full = fields.Nested(PulseRateSchema, required=True, metadata={"description": "At full rate."})


class PulseSchema(Schema):
    """A speed on table 7-2: feet and scale distance per pulse, its quarter rates, the first-pulse cap."""

    mph = JsonFloat(required=True, metadata={"description": "The full-rate speed asked for, in mph."})
    feet_per_pulse = JsonFloat(required=True,
                               metadata={"description": "Feet per pulse as table 7-2 gives it."})
    feet_per_pulse_exact = JsonFloat(required=True,
                                     metadata={"description": "Feet per pulse before rounding (mph x 22/15)."})
    scale = fields.String(required=True, metadata={"description": "The display scale used."})
    scale_mm_per_pulse = JsonInteger(required=True,
                                     metadata={"description": "Millimetres on the table per pulse at that "
                                                              "scale."})
    scale_per_pulse = fields.String(required=True,
                                    metadata={"description": "Table distance per pulse, as table 7-2 prints "
                                                             "it."})
    source = fields.String(required=True, validate=validate.OneOf(["rule", "printed"]),
                           metadata={"description": "`printed` (table 7-2's cell) or `rule` (the generating "
                                                    "rule)."})
    rates = fields.Nested(PulseRatesSchema, required=True,
                          metadata={"description": "The same speed at each quarter rate."})
    first_pulse_feet = JsonFloat(required=True, metadata={"description": "Half-rate cap of a first pulse."})
    feet_first_cs_from_standstill = JsonInteger(required=True,
                                                metadata={"description": "Feet covered in a first CS started "
                                                                         "from a standstill (half-rate first "
                                                                         "pulse)."})
    trace = trace_field()


class PulseBatchResultSchema(Schema):
    """One answer per speed, in the order sent."""

    results = fields.List(fields.Nested(PulseSchema), required=True,
                          metadata={"description": "The conversions, in order."})


class PulseRampRequestSchema(Schema):
    """Ten requested pulse rates (fractions of the full rate) at a full-rate speed."""

    EXAMPLE = {"mph": 12, "rates": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}

    mph = _mph()
    rates = fields.List(quarter_rate("0, 0.25, 0.5, 0.75 or 1"), required=True,
                        validate=validate.Length(equal=10),
                        metadata={"description": "The quarter rate asked for in each of the ten pulses."})
    attack_pulse = JsonInteger(load_default=10, validate=validate.Range(1, 10),
                                  metadata={"description": "Pulse at which an attack resolves (charge check)."})
    moving_before = JsonBoolean(load_default=False,
                                   metadata={"description": "Was the character moving in the pulse before "
                                                            "this CS? Then pulse 1 is not capped."})


class PulseRampStepSchema(Schema):
    """One pulse of movement."""

    pulse = JsonInteger(required=True, metadata={"description": "Pulse number (1-10)."})
    requested = JsonFloat(required=True, metadata={"description": "The rate asked for."})
    allowed = JsonFloat(required=True,
                        metadata={"description": "The rate allowed (a first pulse from a standstill is "
                                                 "capped at half rate)."})
    feet = JsonFloat(required=True, metadata={"description": "Feet moved in this pulse."})
    feet_exact = JsonFloat(required=True, metadata={"description": "Feet before rounding."})


class PulseRampSchema(Schema):
    """Ten pulses of movement, and whether they earn a charge."""

    pulses = fields.List(fields.Nested(PulseRampStepSchema), required=True,
                         metadata={"description": "Each pulse, in order."})
    total_feet = JsonInteger(required=True, metadata={"description": "Feet moved in all."})
    total_feet_exact = JsonFloat(required=True, metadata={"description": "Feet in all before rounding."})
    charge_eligible = JsonBoolean(required=True,
                                  metadata={"description": "Whether the run-up qualifies as a charge."})
    trace = trace_field()


class FallCatcherSchema(Schema):
    """The catcher's numbers that absorb the impact (F35)."""

    modified_sta = JsonInteger(required=True, validate=validate.Range(0, 1000),
                               metadata={"description": "The catcher's modified STA (size)."})
    str_mod = JsonInteger(required=True, validate=validate.Range(-100, 100),
                          metadata={"description": "The catcher's STR modifier."})
    crd_mod = JsonInteger(required=True, validate=validate.Range(-100, 100),
                          metadata={"description": "The catcher's CRD modifier."})
    armor_dr = JsonInteger(load_default=0, validate=validate.Range(0, 1000),
                           metadata={"description": "DR of the catcher's armor (it absorbs impact POT too)."})


class FallingRequestSchema(Schema):
    """An object falling: distance, weight, and optionally who tries to catch it."""

    EXAMPLE = {"distance_feet": 150, "weight_pounds": 40,
               "catcher": {"modified_sta": 14, "str_mod": 2, "crd_mod": 1, "armor_dr": 10}}

    distance_feet = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 100_000),
                              metadata={"description": "Feet the object falls."})
    weight_pounds = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 1_000_000),
                              metadata={"description": "Its weight in pounds."})
    catcher = fields.Nested(FallCatcherSchema, load_default=None, allow_none=True,
                            metadata={"description": "Someone trying to catch it (null: nobody)."})


class FallAbsorbSchema(Schema):
    """What the catcher absorbs of the impact."""

    capacity = JsonInteger(required=True, metadata={"description": "POT the catcher can absorb."})
    excess_pot = JsonInteger(required=True, metadata={"description": "POT left over, which he takes."})


class FallingSchema(Schema):
    """Pulses to reach the impact point, the catch DV, the impact POT and what a catcher absorbs."""

    pulses = JsonInteger(required=True,
                         metadata={"description": "Pulses a catcher has to get under the object."})
    adjacent_only = JsonBoolean(required=True,
                                metadata={"description": "Only a catcher already next to the landing spot "
                                                         "can make it."})
    impact_pot = JsonInteger(required=True, metadata={"description": "POT of the impact."})
    catch_dv = JsonInteger(required=True, metadata={"description": "DV of the catch."})
    absorb = fields.Nested(FallAbsorbSchema, required=True, allow_none=True,
                           metadata={"description": "What the catcher absorbs (null without a catcher)."})
    trace = trace_field()
