"""GET and POST /v1/tactical/pulse, /pulse-ramp and /falling: table 7-2 conversions, the pulse ramp, falling
objects (seed 000, "Movement")."""
from __future__ import annotations

from typing import Any

from flask import Response

from service.api.http.blueprint import Blueprint
from service.api.http.caching import cacheable, conditional
from service.api.http.headers import headers
from service.api.kit import calculator as kit
from service.api.tactical.schemas.movement import (
    FallingRequestSchema,
    FallingSchema,
    PulseBatchResultSchema,
    PulseBatchSchema,
    PulseQuerySchema,
    PulseRampRequestSchema,
    PulseRampSchema,
    PulseSchema,
)
from service.rules.errors import RulesError
from service.rules.rounding import exact
from service.rules.tactical import falling, movement, pulse

blp = Blueprint("movement", __name__, description="Movement: pulse conversions (table 7-2), the pulse "
                                                   "ramp and charge, falling objects.")


def _conversion(found: pulse.Conversion) -> dict[str, Any]:
    return {"mph": float(found.mph), "feet_per_pulse": float(found.feet),
            "feet_per_pulse_exact": float(found.feet_exact), "scale_mm_per_pulse": found.scale_mm,
            "scale_per_pulse": found.scale_text, "source": found.source}


def _rate(rate: movement.Rate) -> dict[str, Any]:
    return {**_conversion(rate.conversion), "feet_per_cs": rate.feet_per_cs}


def pulse_body(item: dict[str, Any]) -> dict[str, Any]:
    """One speed converted (rule or printed) with its quarter rates, as the API answers it."""
    mph = exact(item["mph"])
    found = pulse.convert(mph, item["scale"], item["verbatim"])
    rates = movement.rates(mph, item["scale"], item["verbatim"])
    return {**_conversion(found), "scale": found.scale,
            "rates": {rate.name: _rate(rate) for rate in rates.rates},
            "first_pulse_feet": float(rates.first_pulse_feet),
            "feet_first_cs_from_standstill": rates.feet_first_cs_from_standstill,
            "trace": kit.trace((*found.trace, *rates.trace))}


def _at(index: int, item: dict[str, Any]) -> dict[str, Any]:
    try:
        return pulse_body(item)
    except RulesError as error:
        error.field = ("items", index, *(error.field or ()))
        raise


@blp.get("/pulse")
@blp.doc(operationId="tacticalPulseQuery")
@blp.arguments(PulseQuerySchema, location="query")
@blp.response(200, PulseSchema, headers=headers("ETag"))
@conditional
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def get_pulse(query: dict[str, Any]) -> Response:
    """Feet and scale distance per pulse for a speed (table 7-2), with its quarter rates."""
    return cacheable(PulseSchema().dump(pulse_body(query)))


@kit.calculator(blp, "/pulse", "tacticalPulse", (PulseBatchSchema, PulseBatchResultSchema), signed=False)
def post_pulse(body: dict[str, Any]) -> dict[str, Any]:
    """Convert up to 100 speeds at once (table 7-2)."""
    return {"results": [_at(index, item) for index, item in enumerate(body["items"])]}


@kit.calculator(blp, "/pulse-ramp", "tacticalPulseRamp", (PulseRampRequestSchema, PulseRampSchema), signed=False)
def post_ramp(body: dict[str, Any]) -> dict[str, Any]:
    """Ten pulses of movement after the first-pulse half-rate cap, and whether they make a charge."""
    found = movement.ramp(exact(body["mph"]), [exact(share) for share in body["rates"]],
                          body["attack_pulse"], body["moving_before"])
    pulses = [{"pulse": m.pulse, "requested": float(m.requested), "allowed": float(m.allowed),
               "feet": float(m.feet), "feet_exact": float(m.feet_exact)} for m in found.pulses]
    return {"pulses": pulses, "total_feet": found.total_feet, "total_feet_exact": float(found.total_feet_exact),
            "charge_eligible": found.charge_eligible, "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/falling", "tacticalFalling", (FallingRequestSchema, FallingSchema), signed=False)
def post_falling(body: dict[str, Any]) -> dict[str, Any]:
    """Pulses to reach a falling object, its catch DV and impact POT, and what a catcher absorbs."""
    catcher = falling.Catcher(**body["catcher"]) if body["catcher"] else None
    found = falling.fall(exact(body["distance_feet"]), exact(body["weight_pounds"]), catcher)
    absorb = {"capacity": found.absorb.capacity, "excess_pot": found.absorb.excess_pot} if found.absorb else None
    return {"pulses": found.pulses, "adjacent_only": found.adjacent_only, "impact_pot": found.impact_pot,
            "catch_dv": found.catch_dv, "absorb": absorb, "trace": kit.trace(found.trace)}
