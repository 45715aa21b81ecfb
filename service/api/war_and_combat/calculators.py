"""/v1/war-and-combat/to-hit, /check, /damage and /attack (rules document §12.1-12.4)."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from marshmallow import ValidationError

from service.api.blueprint import Blueprint
from service.api.war_and_combat.calculator_schemas import (
    AttackRequestSchema,
    AttackSchema,
    CheckRequestSchema,
    CheckSchema,
    DamageRequestSchema,
    DamageSchema,
    ToHitRequestSchema,
    ToHitSchema,
)
from service.api.war_and_combat.common import dice_of, pair, trace
from service.rules.errors import Contradiction, RulesError
from service.rules.trace import Step
from service.rules.war_and_combat import checks, damage, option_specs, task, to_hit
from service.rules.war_and_combat.exact import fraction_text

blp = Blueprint("war-and-combat-calculators", __name__,
                description="War & Combat (seed 001): chance to hit, checks, damage, whole attacks.")

TO_HIT_ASSUMPTIONS = ["WAC-TIE", "WAC-CRIT-ARMOR", "WAC-CRIT-DICE", "WAC-LIMB-SIDE"]
DAMAGE_ASSUMPTIONS = ["WAC-IMPACT-PATTERN", "WAC-CRIT-DICE", "WAC-CRIT-OFFSET", "WAC-SIZE-PATTERN", "WAC-INNATE",
                      "WAC-WOUND-TABLE", "WAC-BLUNT-PEN"]


def _options(body: dict[str, Any]) -> dict[str, Any]:
    return option_specs.read(body.get("options"))


def question(body: dict[str, Any], options: dict[str, Any], defence_bonus: dict[str, int]) -> tuple[
        to_hit.Question, list[Step]]:
    """The attack or shot of a to-hit or attack body (exactly one of defender, tl, missile)."""
    given = [name for name in ("defender", "tl", "missile") if body.get(name) is not None]
    if len(given) > 1:
        raise ValidationError({name: ["send exactly one of `defender`, `tl` and `missile`"] for name in given})
    if not given:
        raise RulesError("send one of `defender`, `tl` and `missile`", ("defender",))
    steps: list[Step] = []
    attacker = body["attacker"]
    pace = task.pace_penalty(attacker["pace"], options)
    bonus = attacker["skill"] + attacker["attribute_mod"] + body["modifiers"] + pace - attacker["action_penalty"]
    called = body.get("called_shot")
    if called is not None and "missile" not in given:
        raise RulesError("only a shot can call its location", ("called_shot",))
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
                raise RulesError("send `range_band`, or `distance_m` and `base_range_m`", ("missile", "range_band"))
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
    probs, probs_exact = pair(found.probabilities)
    extra, extra_exact = pair({str(k): v for k, v in found.extra_dice.items()})
    locs, locs_exact = pair(found.locations)
    return {"need": found.need, "chance": float(found.chance), "chance_exact": fraction_text(found.chance),
            "probabilities": probs, "probabilities_exact": probs_exact, "extra_dice": extra,
            "extra_dice_exact": extra_exact, "location_probabilities": locs,
            "location_probabilities_exact": locs_exact}


def to_hit_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The to-hit answer (§12.1)."""
    options = _options(body)
    bonuses = tuple(sorted((k, v) for k, v in (body.get("defence_bonus") or {}).items() if v))
    q, steps = question(body, options, dict(bonuses))
    odds = _odds(q.mode, q.tl, q.roll_bonus, q.called, bonuses, options["tie_succeeds"],
                 options["critical_margin_includes_armor_bonus"])
    steps.append(Step("Critical Hits", "margin >= 5 is a critical; every 5 adds a d6", odds["chance_exact"]))
    dice = dice_of(body)
    rolled = None
    if dice is not None:
        dice.check_queues({"attack": 6, "location": 6, "side": 2}, {"attack": 3, "location": 3, "side": 1})
        rolled = to_hit.roll(q, options, dice, steps=steps).as_dict()
    return {"mode": q.mode, "tl": q.tl, "roll_bonus": q.roll_bonus, **{k: _copy(v) for k, v in odds.items()},
            "roll": rolled, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": TO_HIT_ASSUMPTIONS + (["WAC-POINT-BLANK", "WAC-EVADING"] if q.mode == "missile" else []),
            "trace": trace(steps)}


def check_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The check answer (§12.2)."""
    options = _options(body)
    kind = body["kind"]
    if body.get("danger_hexes") is not None and kind != "pass_through":
        raise RulesError("`danger_hexes` is for a pass_through", ("danger_hexes",))
    tl = body.get("tl")
    if tl is None:
        tl = checks.default_tl(kind, options, body.get("danger_hexes"))
        if tl is None:
            raise RulesError(f"a {kind} check needs `tl`", ("tl",))
    bonus = (body["skill"] + body["attribute_mod"] + body["modifiers"] + task.pace_penalty(body["pace"], options)
             - body["action_penalty"])
    tie = options["tie_succeeds"]
    probs = checks.probabilities(kind, tl, bonus, tie)
    steps = [Step("Resolution of Attacks", f"{kind}: 3d6 + {bonus} against TL {tl}", tl)]
    dice = dice_of(body)
    rolled = None
    if dice is not None:
        dice.check_queues({"check": 6}, {"check": 3})
        rolled = checks.roll(kind, tl, bonus, tie, dice).as_dict()
    numbers, exact = pair(probs)
    return {"kind": kind, "tl": tl, "roll_bonus": bonus, "need": task.need(tl, bonus, tie),
            "chance": float(probs["success"]), "chance_exact": fraction_text(probs["success"]),
            "probabilities": numbers, "probabilities_exact": exact, "roll": rolled,
            "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": ["WAC-TIE"] + (["WAC-BALANCE"] if kind == "balance" else [])
            + (["WAC-PASS-BASE", "WAC-PASS-HEX"] if kind == "pass_through" else []), "trace": trace(steps)}


def impact_cap(body: dict[str, Any], attack_type: str = "strike") -> int:
    """The cap: `impact_cap`, or STR + the weapon's impact modifier (STR alone for non-strike attacks)."""
    strength = (body.get("attacker") or {}).get("strength")
    if body.get("impact_cap") is not None and strength is not None:
        raise Contradiction("send `impact_cap` or `attacker.strength`, not both", ("impact_cap",))
    if body.get("impact_cap") is not None:
        return body["impact_cap"]
    if strength is None:
        raise RulesError("send `impact_cap`, or `attacker.strength` and `weapon`", ("impact_cap",))
    return body["attacker"]["strength"] + (body["weapon"].get("impact_mod", 0) if attack_type == "strike" else 0)


def _weapon(body: dict[str, Any]) -> dict[str, Any]:
    return {"impact_mod": 0, "penetration_value": 0, "damage_type": "blunt", **(body.get("weapon") or {})}


def _blow(body: dict[str, Any], options: dict[str, Any], margin: int, general: str, attack_type: str,
          steps: list[Step] | None) -> damage.Blow:
    target = body["target"]
    innate = target.get("innate_absorption")
    innate = options["innate_absorption"] if innate is None else innate
    return damage.make_blow(impact_cap(body, attack_type), margin, general, target["size"], innate,
                            (target.get("armor") or {}).get(general) or {}, _weapon(body), options, attack_type, steps)


@lru_cache(maxsize=4096)
def _blow_odds(blow: damage.Blow, strike: bool) -> tuple[Any, Any, Any, Any]:
    """A blow's result distribution (and a non-strike attack's column odds) as numbers and exact strings."""
    probs = damage.distribution(blow) if strike else {k: Fraction(k == "none") for k in damage.RESULT_KEYS}
    numbers, exact = pair(probs)
    if strike:
        return numbers, exact, None, None
    return (numbers, exact, *pair(damage.column_distribution(blow)))


def damage_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The damage answer (§12.3)."""
    options = _options(body)
    steps: list[Step] = []
    attack_type = body["attack_type"]
    general = task.general_of(body["location"])
    blow = _blow(body, options, body["margin"], general, attack_type, steps)
    strike = attack_type == "strike"
    dice = dice_of(body)
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
    numbers, exact, col_numbers, col_exact = _blow_odds(blow, strike)
    impaired, disabled, destroyed = blow.limits
    return {"impact_cap": impact_cap(body, attack_type), "impact_dice": blow.dice.text, "critical": blow.critical,
            "critical_dice": blow.extra, "impact_expression": blow.expression, "absorption": blow.absorption,
            "penetration_limit": blow.penetration_limit,
            "thresholds": {"impaired": impaired, "disabled": disabled, "destroyed": destroyed},
            "probabilities": dict(numbers), "probabilities_exact": dict(exact),
            "combat_option_probabilities": _copy(col_numbers), "combat_option_probabilities_exact": _copy(col_exact), "roll": rolled, "combat_option": option,
            "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": DAMAGE_ASSUMPTIONS + ([] if strike else ["WAC-COLUMN", "WAC-SUBDUAL-ATTR"]),
            "trace": trace(steps)}


def attack_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The attack answer (§12.4): to-hit and damage as one exact distribution."""
    options = _options(body)
    armor = body["target"].get("armor") or {}
    bonuses = {loc: piece.get("defence_bonus", 0) for loc, piece in armor.items()}
    impact_cap(body)  # contradictions first
    q, steps = question(body, options, bonuses)
    found = to_hit.odds(q, options)
    whole = 216 * 216
    out = {"miss": found.probabilities["miss"], "glance": found.probabilities["glance"],
           **{k: Fraction(0) for k in damage.RESULT_KEYS}}
    for _, general, weight, outcome, k in found.branches:
        blow = _blow(body, options, 5 * k if outcome == "critical" else 1, general, "strike", None)
        for key, p in damage.distribution(blow).items():
            out[key] += Fraction(weight, whole) * p
    dice = dice_of(body)
    rolled = None
    if dice is not None:
        top = max(found.extra_dice)
        biggest = _blow(body, options, 1, "head", "strike", None).dice
        dice.check_queues({"attack": 6, "location": 6, "side": 2, "impact": biggest.sides, "critical": 6},
                          {"attack": 3, "location": 3, "side": 1, "impact": biggest.count, "critical": top})
        r = to_hit.roll(q, options, dice, steps=steps)
        rolled = {"total": r.total, "margin": r.margin, "outcome": r.outcome, "location": r.location,
                  "impact": None, "effective_impact": None, "penetrating": None, "severity": None,
                  "wound_type": None, "effects": []}
        if r.outcome in ("hit", "critical"):
            blow = _blow(body, options, r.margin if r.outcome == "critical" else 1, r.general or "chest", "strike",
                         steps)
            landed = damage.land(blow, damage.roll_impact(blow, dice))
            rolled.update(impact=landed.impact, effective_impact=landed.effective, penetrating=landed.penetrating,
                          severity=landed.severity, wound_type=landed.wound_type, effects=landed.effects)
    numbers, exact = pair(out)
    return {"tl": q.tl, "roll_bonus": q.roll_bonus, "need": found.need, "chance": float(found.chance),
            "chance_exact": fraction_text(found.chance), "probabilities": numbers, "probabilities_exact": exact,
            "roll": rolled, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": list(dict.fromkeys(TO_HIT_ASSUMPTIONS + DAMAGE_ASSUMPTIONS)), "trace": trace(steps)}


def _copy(value: Any) -> Any:
    return dict(value) if isinstance(value, dict) else value


def _example(schema: type, body: dict[str, Any], answer: Any) -> dict[str, Any]:
    return answer(schema().load(body))


TO_HIT_EXAMPLE = {"attacker": {"skill": 4, "attribute_mod": 1}, "defender": {"fighter_rank": 2, "agl_mod": 1,
                  "state": "turned"}, "defence_bonus": {"head": 1}, "seed": 7}
CHECK_EXAMPLE = {"kind": "stumble", "attribute_mod": 1, "action_penalty": 1, "seed": 3}
DAMAGE_EXAMPLE = {"impact_cap": 14, "margin": 6, "location": "left_leg",
                  "weapon": {"penetration_value": 1, "damage_type": "cut"},
                  "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}},
                  "rolls": {"impact": [2, 5, 6], "critical": [3]}}
ATTACK_EXAMPLE = {"attacker": {"skill": 5, "attribute_mod": 1}, "defender": {"fighter_rank": 3},
                  "impact_cap": 12, "weapon": {"penetration_value": 1, "damage_type": "cut"},
                  "target": {"size": 10, "armor": {"chest": {"absorption": 2, "penetration_threshold": 3},
                                                   "head": {"absorption": 2, "penetration_threshold": 3,
                                                            "defence_bonus": 1}}}, "seed": 11}


@blp.post("/to-hit")
@blp.doc(operationId="warAndCombatToHit")
@blp.arguments(ToHitRequestSchema, example=TO_HIT_EXAMPLE)
@blp.response(200, ToHitSchema, example=_example(ToHitRequestSchema, TO_HIT_EXAMPLE, to_hit_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_to_hit(body: dict) -> dict:
    """Chance that a melee attack (3d6 + skill + agility against Defense) or a shot (against the range target
    level) lands: exact odds of miss, glance off armor, hit and critical, the extra impact dice and the
    location; with `seed` or `rolls`, the rolled attack (*Resolution of Attacks*, *Critical Hits*,
    *Ranged Combat*)."""
    return to_hit_answer(body)


@blp.post("/check")
@blp.doc(operationId="warAndCombatCheck")
@blp.arguments(CheckRequestSchema, example=CHECK_EXAMPLE)
@blp.response(200, CheckSchema, example=_example(CheckRequestSchema, CHECK_EXAMPLE, check_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_check(body: dict) -> dict:
    """Any 3d6 task or resistance check — Fumble?/Fumble-N, Stumble?/Stumble-N, Restrict, Shock, balance,
    pass-through — with the exact odds of each miss-by result (*Wound Effects*, *Secondary Effects*)."""
    return check_answer(body)


@blp.post("/damage")
@blp.doc(operationId="warAndCombatDamage")
@blp.arguments(DamageRequestSchema, example=DAMAGE_EXAMPLE)
@blp.response(200, DamageSchema, example=_example(DamageRequestSchema, DAMAGE_EXAMPLE, damage_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_damage(body: dict) -> dict:
    """One landed blow: impact dice from the impact cap (plus a critical's extra d6), absorption, penetration,
    severity against the size thresholds and the wound's effect, as an exact distribution; non-strike attacks
    answer their COMBAT OPTIONS column (*Strike Results Procedure*, COMBAT OPTIONS)."""
    return damage_answer(body)


@blp.post("/attack")
@blp.doc(operationId="warAndCombatAttack")
@blp.arguments(AttackRequestSchema, example=ATTACK_EXAMPLE)
@blp.response(200, AttackSchema, example=_example(AttackRequestSchema, ATTACK_EXAMPLE, attack_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_attack(body: dict) -> dict:
    """One whole attack from the 3d6 roll to the wound, as one exact distribution over the attack roll, the
    location roll and the impact dice (*Flurry Procedure*, *Strike Results Procedure*)."""
    return attack_answer(body)
