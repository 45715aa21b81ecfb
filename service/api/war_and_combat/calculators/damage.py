"""The /v1/war-and-combat/damage answer (rules document §12.3): the impact cap, the blow through armor and
size thresholds as an exact distribution (remembered), and the rolled blow or COMBAT OPTIONS effect."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import blp
from service.api.war_and_combat.schemas.damage import DamageRequestSchema, DamageSchema
from service.rules.errors import Contradiction
from service.rules.trace import Step
from service.rules.war_and_combat import damage, option_specs, task

DAMAGE_ASSUMPTIONS = ["WAC-IMPACT-PATTERN", "WAC-CRIT-DICE", "WAC-CRIT-OFFSET", "WAC-SIZE-PATTERN", "WAC-INNATE",
                      "WAC-WOUND-TABLE", "WAC-BLUNT-PEN"]


def impact_cap(body: dict[str, Any], attack_type: str = "strike") -> int:
    """The cap: `impact_cap`, or STR + the weapon's impact modifier (STR alone for non-strike attacks)."""
    strength = (body.get("attacker") or {}).get("strength")
    if body.get("impact_cap") is not None and strength is not None:
        raise Contradiction("send `impact_cap` or `attacker.strength`, not both", ("impact_cap",))
    if body.get("impact_cap") is not None:
        return body["impact_cap"]
    if strength is None:
        raise Contradiction("send `impact_cap`, or `attacker.strength` and `weapon`", ("impact_cap",))
    return body["attacker"]["strength"] + (body["weapon"].get("impact_mod", 0) if attack_type == "strike" else 0)


def _weapon(body: dict[str, Any]) -> dict[str, Any]:
    return {"impact_mod": 0, "penetration_value": 0, "damage_type": "blunt", **(body.get("weapon") or {})}


def blow_of(body: dict[str, Any], options: dict[str, Any], margin: int, general: str, attack_type: str,
            steps: list[Step] | None) -> damage.Blow:
    """The blow a damage or attack body lands at this margin on this general location, through that
    location's armor (*Strike Results Procedure*)."""
    target = body["target"]
    innate = target.get("innate_absorption")
    innate = options["innate_absorption"] if innate is None else innate
    return damage.make_blow(impact_cap(body, attack_type), margin, general, target["size"], innate,
                            (target.get("armor") or {}).get(general) or {}, _weapon(body), options, attack_type, steps)


@lru_cache(maxsize=4096)
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


