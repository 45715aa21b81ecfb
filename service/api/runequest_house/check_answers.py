"""The runequest-house percentile check (rules document §2, RQ3 core): the modified value, its degree bands,
the exact odds of each degree and, when asked, a d100 roll."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.runequest_house.common import chance_pair, dice_source, probability_pair, read_options
from service.rules.errors import Contradiction
from service.rules.runequest_house import percentile
from service.rules.runequest_house.options import fraction
from service.rules.trace import Step

DEGREE_ORDER = ("critical", "special", "success", "failure", "fumble")
CHECK_ASSUMPTIONS = ["RQH-PERCENTILE", "RQH-ROUNDING", "RQH-DEGREES", "RQH-MODIFIER-ORDER"]


def trace(steps: Any) -> list[dict[str, Any]]:
    """Trace steps as JSON."""
    return [s.as_dict() for s in steps]


def degree_odds(bands: percentile.Bands) -> dict[str, Fraction]:
    """The exact odds of each degree, best first."""
    found = bands.probabilities()
    return {key: found[key] for key in DEGREE_ORDER}


def check_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of /check: one percentile roll's bands and odds (rules document §2)."""
    options = read_options(body["options"])
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
    dice, roll = dice_source(body), None
    if dice is not None:
        face = dice.roll("d100", 1, 100).total
        roll = {"d100": face, "degree": bands.degree(face)}
    return {"effective": value, "bands": bands.as_dict(), **chance_pair("chance", percentile.chance(bands)),
            **probability_pair("probabilities", degree_odds(bands)), "roll": roll,
            "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": CHECK_ASSUMPTIONS, "trace": trace(steps)}
