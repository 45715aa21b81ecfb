"""The /v1/war-and-combat/attack answer (rules document §12.4): every to-hit branch carried through its blow
into one exact distribution, and the rolled attack from the 3d6 to the wound."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.war_and_combat.common import dice_of, pair, trace
from service.api.war_and_combat.damage_answers import DAMAGE_ASSUMPTIONS, blow_of, impact_cap
from service.api.war_and_combat.to_hit_answers import TO_HIT_ASSUMPTIONS, question
from service.rules.war_and_combat import damage, option_specs, to_hit
from service.rules.war_and_combat.exact import fraction_text


def attack_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The attack answer (§12.4): to-hit and damage as one exact distribution."""
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
    dice = dice_of(body)
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
    numbers, exact = pair(out)
    return {"tl": q.tl, "roll_bonus": q.roll_bonus, "need": found.need, "chance": float(found.chance),
            "chance_exact": fraction_text(found.chance), "probabilities": numbers, "probabilities_exact": exact,
            "roll": rolled, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": list(dict.fromkeys(TO_HIT_ASSUMPTIONS + DAMAGE_ASSUMPTIONS)), "trace": trace(steps)}
