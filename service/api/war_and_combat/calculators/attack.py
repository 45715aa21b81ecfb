"""The /v1/war-and-combat/attack answer (rules document §12.4): every to-hit branch carried through its blow
into one exact distribution, and the rolled attack from the 3d6 to the wound."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import (
    DAMAGE_ASSUMPTIONS,
    TO_HIT_ASSUMPTIONS,
    blow_of,
    blp,
    impact_cap,
    question,
)
from service.api.war_and_combat.schemas.attack import AttackRequestSchema, AttackSchema
from service.rules.war_and_combat import damage, option_specs, to_hit


@kit.calculator(blp, "/attack", "warAndCombatAttack", (AttackRequestSchema, AttackSchema))
def attack_answer(body: dict[str, Any]) -> dict[str, Any]:
    """One whole attack from the 3d6 roll to the wound, as one exact distribution over the attack roll, the
    location roll and the impact dice (*Flurry Procedure*, *Strike Results Procedure*)."""
    options = option_specs.read(body.get("options"))
    armor = body["target"].get("armor") or {}
    bonuses = {loc: piece.get("defence_bonus", 0) for loc, piece in armor.items()}
    impact_cap(body)  # contradictions first
    q, steps = question(body, options, bonuses)
    found = to_hit.odds(q, options)
    whole = 216 * 216
    out = {"miss": found.probabilities["miss"], "glance": found.probabilities["glance"],
           **{k: Fraction(0) for k in damage.RESULT_KEYS}}
    for _, general, weight, outcome, k in found.branches:
        blow = blow_of(body, options, 5 * k if outcome == "critical" else 1, general, "strike", None)
        for key, p in damage.distribution(blow).items():
            out[key] += Fraction(weight, whole) * p
    dice = kit.dice(body)
    rolled = None
    if dice is not None:
        top = max(found.extra_dice)
        biggest = blow_of(body, options, 1, "head", "strike", None).dice
        dice.check_queues({"attack": 6, "location": 6, "side": 2, "impact": biggest.sides, "critical": 6},
                          {"attack": 3, "location": 3, "side": 1, "impact": biggest.count, "critical": top})
        r = to_hit.roll(q, options, dice, steps=steps)
        rolled = {"total": r.total, "margin": r.margin, "outcome": r.outcome, "location": r.location,
                  "impact": None, "effective_impact": None, "penetrating": None, "severity": None,
                  "wound_type": None, "effects": []}
        if r.outcome in ("hit", "critical"):
            blow = blow_of(body, options, r.margin if r.outcome == "critical" else 1, r.general or "chest", "strike",
                         steps)
            landed = damage.land(blow, damage.roll_impact(blow, dice))
            rolled.update(impact=landed.impact, effective_impact=landed.effective, penetrating=landed.penetrating,
                          severity=landed.severity, wound_type=landed.wound_type, effects=landed.effects)
    return {"tl": q.tl, "roll_bonus": q.roll_bonus, "need": found.need, **kit.exact("chance", found.chance),
            **kit.exact("probabilities", out), "roll": rolled, **kit.rolled(dice),
            "assumptions": list(dict.fromkeys(TO_HIT_ASSUMPTIONS + DAMAGE_ASSUMPTIONS)), "trace": kit.trace(steps)}


