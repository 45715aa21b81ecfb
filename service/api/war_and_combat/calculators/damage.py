"""POST /v1/war-and-combat/damage (rules document §12.3): the blow through armor and size thresholds as an
exact distribution (remembered), and the rolled blow or COMBAT OPTIONS effect."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import DAMAGE_ASSUMPTIONS, blow_of, blp, impact_cap
from service.api.war_and_combat.schemas.damage import DamageRequestSchema, DamageSchema
from service.rules import memo
from service.rules.trace import Step
from service.rules.war_and_combat import damage, option_specs, task


@memo.bounded
def _blow_odds(blow: damage.Blow, strike: bool) -> dict[str, Any]:
    """A blow's result distribution (and a non-strike attack's column odds) as numbers and exact strings."""
    probs = damage.distribution(blow) if strike else {k: Fraction(k == "none") for k in damage.RESULT_KEYS}
    return {**kit.exact("probabilities", probs),
            **kit.exact("combat_option_probabilities", None if strike else damage.column_distribution(blow))}


@kit.calculator(blp, "/damage", "warAndCombatDamage", (DamageRequestSchema, DamageSchema))
def damage_answer(body: dict[str, Any]) -> dict[str, Any]:
    """One landed blow: impact dice from the impact cap (plus a critical's extra d6), absorption, penetration,
    severity against the size thresholds and the wound's effect, as an exact distribution; non-strike attacks
    answer their COMBAT OPTIONS column (*Strike Results Procedure*, COMBAT OPTIONS)."""
    options = option_specs.read(body.get("options"))
    steps: list[Step] = []
    attack_type = body["attack_type"]
    general = task.general_of(body["location"])
    blow = blow_of(body, options, body["margin"], general, attack_type, steps)
    strike = attack_type == "strike"
    dice = kit.dice(body)
    rolled, option = None, None
    if dice is not None:
        dice.check_queues({"impact": blow.dice.sides, "critical": 6}, {"impact": blow.dice.count,
                                                                      "critical": blow.extra})
        landed = damage.land(blow, damage.roll_impact(blow, dice), wound=strike)
        rolled = landed.as_dict()
        if not strike:
            option = damage.combat_option(attack_type, damage.column(landed.effective, blow.limits))
        steps.append(Step("Wound Severity", f"effective impact {landed.effective}: {landed.severity}",
                          landed.severity))
    impaired, disabled, destroyed = blow.limits
    return {"impact_cap": impact_cap(body, attack_type), "impact_dice": blow.dice.text, "critical": blow.critical,
            "critical_dice": blow.extra, "impact_expression": blow.expression, "absorption": blow.absorption,
            "penetration_limit": blow.penetration_limit,
            "thresholds": {"impaired": impaired, "disabled": disabled, "destroyed": destroyed},
            **{k: kit.copied(v) for k, v in _blow_odds(blow, strike).items()}, "roll": rolled,
            "combat_option": option, **kit.rolled(dice),
            "assumptions": DAMAGE_ASSUMPTIONS + ([] if strike else ["WAC-COLUMN", "WAC-SUBDUAL-ATTR"]),
            "trace": kit.trace(steps)}
