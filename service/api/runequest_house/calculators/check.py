"""POST /v1/runequest-house/check: one percentile roll and its degrees (rules document §2, §12)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.kit import calculator as kit
from service.api.runequest_house.calculators import CHECK_ASSUMPTIONS, blp
from service.api.runequest_house.schemas.check import CheckRequestSchema, CheckSchema
from service.rules.errors import Contradiction
from service.rules.runequest_house import percentile
from service.rules.runequest_house.options import fraction
from service.rules.trace import Step

DEGREE_ORDER = ("critical", "special", "success", "failure", "fumble")


def degree_odds(bands: percentile.Bands) -> dict[str, Fraction]:
    """The exact odds of each degree, best first."""
    found = bands.probabilities()
    return {key: found[key] for key in DEGREE_ORDER}


@kit.calculator(blp, "/check", "runequestHouseCheck", (CheckRequestSchema, CheckSchema))
def check_answer(body: dict[str, Any]) -> dict[str, Any]:
    """One percentile roll (rules document §2, RQ3 core): the modified skill or characteristic x multiple,
    its critical/special/success/fumble bands and the exact odds of each degree."""
    options = kit.options("runequest-house", body)
    if (body["skill"] is None) == (body["characteristic"] is None):
        raise Contradiction("give exactly one of skill and characteristic", ("skill",))
    char = body["characteristic"]
    base = body["skill"] if char is None else char["value"] * char["multiple"]
    multiplier = fraction(body["multiplier"])
    value = percentile.effective(base, [body["modifier"]], [multiplier], options["modifier_order"])
    bands = percentile.bands(value, options, body["fumble_multiplier"])
    steps = [Step("check", f"base {base}%", base), Step("modifier", f"{body['modifier']:+d}%", body["modifier"]),
             Step("multiplier", f"x {body['multiplier']}", multiplier),
             Step("RQH-MODIFIER-ORDER", f"effective {value}%", value),
             Step("RQH-DEGREES", f"critical 1-{bands.critical}, special 1-{bands.special}, success 1-{bands.success}, "
                                 f"fumble {bands.fumble_from}-100", bands.success)]
    dice, roll = kit.dice(body), None
    if dice is not None:
        face = dice.roll("d100", 1, 100).total
        roll = {"d100": face, "degree": bands.degree(face)}
    return {"effective": value, "bands": bands.as_dict(), **kit.exact("chance", percentile.chance(bands)),
            **kit.exact("probabilities", degree_odds(bands)), "roll": roll,
            **kit.rolled(dice),
            "assumptions": CHECK_ASSUMPTIONS, "trace": kit.trace(steps)}
