"""Schemas of /v1/tactical/pulse, /pulse-ramp and /falling: shapes only (the rules check the rest)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field

SCALES = ["25mm", "10mm", "5mm"]
MAX_MPH = 1000


def _mph(field: type[fields.Float] = JsonFloat) -> fields.Float:
    return field(required=True, allow_nan=False, validate=validate.Range(0, MAX_MPH),
                 metadata={"description": "Full-rate speed in mph (0 to 1000).", "example": 10})


def _scale() -> fields.String:
    return fields.String(load_default="25mm", validate=validate.OneOf(SCALES),
                         metadata={"description": "Display scale: 25mm = 5 mm/ft, 10mm = 2 mm/ft, 5mm = 1 mm/ft."})


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

    items = fields.List(fields.Nested(PulseItemSchema), required=True, validate=validate.Length(1, 100))


class PulseRateSchema(Schema):
    mph = JsonFloat(required=True)
    feet_per_pulse = JsonFloat(required=True, metadata={"description": "Table 7-2 feet column."})
    feet_per_pulse_exact = JsonFloat(required=True, metadata={"description": "mph x 22/15."})
    feet_per_cs = JsonInteger(required=True,
                                 metadata={"description": "Exact feet per pulse x 10, rounded half up."})
    scale_mm_per_pulse = JsonInteger(required=True)
    scale_per_pulse = fields.String(required=True, metadata={"description": "As table 7-2 prints it."})
    source = fields.String(required=True, validate=validate.OneOf(["rule", "printed"]))


class PulseRatesSchema(Schema):
    quarter = fields.Nested(PulseRateSchema, required=True)
    half = fields.Nested(PulseRateSchema, required=True)
    three_quarters = fields.Nested(PulseRateSchema, required=True)
    full = fields.Nested(PulseRateSchema, required=True)


class PulseSchema(Schema):
    """A speed on table 7-2: feet and scale distance per pulse, its quarter rates, the first-pulse cap."""

    mph = JsonFloat(required=True)
    feet_per_pulse = JsonFloat(required=True)
    feet_per_pulse_exact = JsonFloat(required=True)
    scale = fields.String(required=True)
    scale_mm_per_pulse = JsonInteger(required=True)
    scale_per_pulse = fields.String(required=True)
    source = fields.String(required=True, validate=validate.OneOf(["rule", "printed"]))
    rates = fields.Nested(PulseRatesSchema, required=True)
    first_pulse_feet = JsonFloat(required=True, metadata={"description": "Half-rate cap of a first pulse."})
    feet_first_cs_from_standstill = JsonInteger(required=True)
    trace = trace_field()


class PulseBatchResultSchema(Schema):
    results = fields.List(fields.Nested(PulseSchema), required=True)


class PulseRampRequestSchema(Schema):
    """Ten requested pulse rates (fractions of the full rate) at a full-rate speed."""

    mph = _mph()
    rates = fields.List(JsonFloat(allow_nan=False, validate=validate.Range(0, 1),  # quarters: the rules check
                                  metadata={"description": "0, 0.25, 0.5, 0.75 or 1"}), required=True,
                        validate=validate.Length(equal=10))
    attack_pulse = JsonInteger(load_default=10, validate=validate.Range(1, 10),
                                  metadata={"description": "Pulse at which an attack resolves (charge check)."})
    moving_before = JsonBoolean(load_default=False,
                                   metadata={"description": "Was the character moving in the pulse before "
                                                            "this CS? Then pulse 1 is not capped."})


class PulseRampStepSchema(Schema):
    pulse = JsonInteger(required=True)
    requested = JsonFloat(required=True)
    allowed = JsonFloat(required=True)
    feet = JsonFloat(required=True)
    feet_exact = JsonFloat(required=True)


class PulseRampSchema(Schema):
    pulses = fields.List(fields.Nested(PulseRampStepSchema), required=True)
    total_feet = JsonInteger(required=True)
    total_feet_exact = JsonFloat(required=True)
    charge_eligible = JsonBoolean(required=True)
    trace = trace_field()


class FallCatcherSchema(Schema):
    """The catcher's numbers that absorb the impact (F35)."""

    modified_sta = JsonInteger(required=True, validate=validate.Range(0, 1000))
    str_mod = JsonInteger(required=True, validate=validate.Range(-100, 100))
    crd_mod = JsonInteger(required=True, validate=validate.Range(-100, 100))
    armor_dr = JsonInteger(load_default=0, validate=validate.Range(0, 1000))


class FallingRequestSchema(Schema):
    """An object falling: distance, weight, and optionally who tries to catch it."""

    distance_feet = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 100_000))
    weight_pounds = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 1_000_000))
    catcher = fields.Nested(FallCatcherSchema, load_default=None, allow_none=True)


class FallAbsorbSchema(Schema):
    capacity = JsonInteger(required=True)
    excess_pot = JsonInteger(required=True)


class FallingSchema(Schema):
    """Pulses to reach the impact point, the catch DV, the impact POT and what a catcher absorbs."""

    pulses = JsonInteger(required=True)
    adjacent_only = JsonBoolean(required=True)
    impact_pot = JsonInteger(required=True)
    catch_dv = JsonInteger(required=True)
    absorb = fields.Nested(FallAbsorbSchema, required=True, allow_none=True)
    trace = trace_field()
