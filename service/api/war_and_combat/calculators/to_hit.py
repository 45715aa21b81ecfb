"""The /v1/war-and-combat/to-hit answer (rules document §12.1): the target level from a defender, an explicit
TL or a shot, the roll bonus, the exact odds (remembered) and the roll when asked."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.api.kit import calculator as kit
from service.api.war_and_combat.calculators import blp
from service.api.war_and_combat.schemas.to_hit import ToHitRequestSchema, ToHitSchema
from service.rules.errors import Contradiction
from service.rules.trace import Step
from service.rules.war_and_combat import option_specs, task, to_hit

TO_HIT_ASSUMPTIONS = ["WAC-TIE", "WAC-CRIT-ARMOR", "WAC-CRIT-DICE", "WAC-LIMB-SIDE"]


def question(body: dict[str, Any], options: dict[str, Any], defence_bonus: dict[str, int]) -> tuple[
        to_hit.Question, list[Step]]:
    """The attack or shot of a to-hit or attack body (exactly one of defender, tl, missile)."""
    given = [name for name in ("defender", "tl", "missile") if body.get(name) is not None]
    if len(given) > 1:
        raise Contradiction("send exactly one of `defender`, `tl` and `missile`", (given[0],))
    if not given:
        raise Contradiction("send one of `defender`, `tl` and `missile`", ("defender",))
    steps: list[Step] = []
    attacker = body["attacker"]
    pace = task.pace_penalty(attacker["pace"], options)
    bonus = attacker["skill"] + attacker["attribute_mod"] + body["modifiers"] + pace - attacker["action_penalty"]
    called = body.get("called_shot")
    if called is not None and "missile" not in given:
        raise Contradiction("only a shot can call its location", ("called_shot",))
    if "defender" in given:
        d = body["defender"]
        tl = task.defence(d["fighter_rank"], d["agl_mod"], d["state"], options, d["def_modifier"])
        steps.append(Step("Resolution of Attacks", f"Defense of FR {d['fighter_rank']}, agility {d['agl_mod']}, "
                          f"state {d['state']}, modifier {d['def_modifier']}", tl))
        mode = "melee"
    elif "tl" in given:
        tl, mode = body["tl"], "melee"
        steps.append(Step("Resolution of Attacks", "target level given", tl))
    else:
        m, mode = body["missile"], "missile"
        band = m.get("range_band")
        if band is None:
            if m.get("distance_m") is None or m.get("base_range_m") is None:
                raise Contradiction("send `range_band`, or `distance_m` and `base_range_m`", ("missile", "range_band"))
            band = to_hit.missile_band(Fraction(m["distance_m"]), Fraction(m["base_range_m"]))
            steps.append(Step("MISSILE TARGETING BY RANGE", f"{m['distance_m']} m at base {m['base_range_m']} m", band))
        elif m.get("distance_m") is not None:
            raise Contradiction("send `range_band` or `distance_m`, not both", ("missile", "distance_m"))
        tl = to_hit.missile_tl(m["target_state"], band, m["into_melee"], m.get("target"), options, steps)
        if called is not None:
            bonus += to_hit.called_shot_penalty(band, called["sub_location"])
    steps.append(Step("Flurry Procedure", f"roll bonus: skill + attribute + modifiers + pace {pace} - penalty "
                      f"{attacker['action_penalty']}", bonus))
    return to_hit.Question(mode, tl, bonus, defence_bonus, called["location"] if called else None), steps


@lru_cache(maxsize=4096)
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


