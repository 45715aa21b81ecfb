"""POST /v1/war-and-combat/to-hit (rules document §12.1): the exact odds of a melee attack or a shot
(remembered) and the roll when asked."""
from __future__ import annotations

from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import TO_HIT_ASSUMPTIONS, blp, question
from service.api.war_and_combat.schemas.to_hit import ToHitRequestSchema, ToHitSchema
from service.rules import memo
from service.rules.trace import Step
from service.rules.war_and_combat import option_specs, to_hit


@memo.bounded
def _odds(mode: str, tl: int, bonus: int, called: str | None, defence_bonus: tuple[tuple[str, int], ...], tie: bool,
          include: bool) -> dict[str, Any]:
    """The odds part of a to-hit answer: a pure function of the question, remembered (a VTT asks again)."""
    options = {"tie_succeeds": tie, "critical_margin_includes_armor_bonus": include}
    found = to_hit.odds(to_hit.Question(mode, tl, bonus, dict(defence_bonus), called), options)
    return {"need": found.need, **kit.exact("chance", found.chance), **kit.exact("probabilities", found.probabilities),
            **kit.exact("extra_dice", found.extra_dice), **kit.exact("location_probabilities", found.locations)}


@kit.calculator(blp, "/to-hit", "warAndCombatToHit", (ToHitRequestSchema, ToHitSchema))
def to_hit_answer(body: dict[str, Any]) -> dict[str, Any]:
    """Chance that a melee attack (3d6 + skill + agility against Defense) or a shot (against the range target
    level) lands: exact odds of miss, glance off armor, hit and critical, the extra impact dice and the
    location; with `seed` or `rolls`, the rolled attack (*Resolution of Attacks*, *Critical Hits*,
    *Ranged Combat*)."""
    options = option_specs.read(body.get("options"))
    bonuses = tuple(sorted((k, v) for k, v in (body.get("defence_bonus") or {}).items() if v))
    q, steps = question(body, options, dict(bonuses))
    odds = _odds(q.mode, q.tl, q.roll_bonus, q.called, bonuses, options["tie_succeeds"],
                 options["critical_margin_includes_armor_bonus"])
    steps.append(Step("Critical Hits", "margin >= 5 is a critical; every 5 adds a d6", odds["chance_exact"]))
    dice = kit.dice(body)
    rolled = None
    if dice is not None:
        dice.check_queues({"attack": 6, "location": 6, "side": 2}, {"attack": 3, "location": 3, "side": 1})
        rolled = to_hit.roll(q, options, dice, steps=steps).as_dict()
    return {"mode": q.mode, "tl": q.tl, "roll_bonus": q.roll_bonus, **{k: kit.copied(v) for k, v in odds.items()},
            "roll": rolled, **kit.rolled(dice),
            "assumptions": TO_HIT_ASSUMPTIONS + (["WAC-POINT-BLANK", "WAC-EVADING"] if q.mode == "missile" else []),
            "trace": kit.trace(steps)}
