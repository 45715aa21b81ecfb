"""/v1/tactical combinations, body checks, intimidation, stray fire, missile flight, knock-back, melee
spacing and dodges: the maneuvers around the blow (seed 000, "Resolving the Battle" and neighbours)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.fields import fraction_text
from service.api.tactical.melee_maneuver_schemas import (
    BodyCheckRequestSchema,
    BodyCheckSchema,
    CombinationRequestSchema,
    CombinationSchema,
    IntimidationRequestSchema,
    IntimidationSchema,
)
from service.api.tactical.missile_maneuver_schemas import (
    MissileFlightRequestSchema,
    MissileFlightSchema,
    StrayFireRequestSchema,
    StrayFireSchema,
)
from service.api.tactical.spacing_schemas import (
    DodgeRequestSchema,
    DodgeSchema,
    KnockBackRequestSchema,
    KnockBackSchema,
    MeleeSpacingRequestSchema,
    MeleeSpacingSchema,
)
from service.rules.rounding import exact
from service.rules.tactical import (
    body_check,
    combination,
    dodge,
    intimidation,
    missile_flight,
    spacing,
    stray_fire,
)
from service.rules.tactical.contest import contest_probabilities
from service.rules.tactical.potence import knock_back
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.trace import Step

blp = Blueprint("tactical-maneuvers", __name__,
                description="Combinations, body checks and tackles, intimidation, stray fire, missile flight, "
                            "knock-back into barriers, melee spacing and repeated dodges (seed 000).")


def chance_of(av: int, dv: int, task_resolution: dict[str, Any]) -> int:
    """The Task Resolution Table's percent chance for AV against DV, as the caller chose the table."""
    return trt_chance(av, dv, task_resolution["method"], task_resolution.get("table"))


def _steps(steps: Any) -> list[dict[str, Any]]:
    return [step.as_dict() for step in steps]


@blp.post("/combination")
@blp.doc(operationId="tacticalCombination")
@blp.arguments(CombinationRequestSchema, example={"kind": "in-concert", "values": [45, 30], "combination_sl": 12,
                                                  "against": 40, "pots": [18, 9]})
@blp.response(200, CombinationSchema, example={
    "values": [57], "cap": 75, "capped": False, "chances": [59], "chances_exact": ["59/100"], "pot": 27,
    "order": None, "trace": [{"rule": "Attack, Defense & Mixed Combinations (F38)",
                              "detail": "lead 45 + Combination SL 12, at most 45 + 30 = 75", "value": 57}]})
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_combination(body: dict) -> dict:
    """F38: a combination's AV (or DV), capped at both parts added; its chance; the POT of both in concert."""
    found = combination.combine(body["kind"], body["values"], body["combination_sl"], body.get("pots"))
    trt = body["task_resolution"]
    if body["kind"] == "defensive":
        chances = [chance_of(body["against"], found.values[0], trt)]
    else:
        chances = [chance_of(value, body["against"], trt) for value in found.values]
    order = None
    if body.get("initiative") is not None and body.get("foe_initiative") is not None:
        order = list(combination.attack_defence_order(body["initiative"], body["foe_initiative"]))
    return {"values": list(found.values), "cap": found.cap, "capped": found.capped, "chances": chances,
            "chances_exact": [fraction_text(Fraction(c, 100)) for c in chances], "pot": found.pot, "order": order,
            "trace": _steps(found.trace)}


@blp.post("/body-check")
@blp.doc(operationId="tacticalBodyCheck")
@blp.arguments(BodyCheckRequestSchema, example={
    "kind": "body-check",
    "attacker": {"agl_mod": 2, "modified_sta": 16, "str_mod": 2, "strength": 15, "speed_mph": 8, "armor_layers": 2},
    "defender": {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}})
@blp.response(200, BodyCheckSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_body_check(body: dict) -> dict:
    """F39, F40: both sides' values, the contested odds, the bounce of whoever loses and the footing check."""
    kind, scheme, trt = body["kind"], body["progression"], body["task_resolution"]
    att, dfd = (_body(body["attacker"]), _body(body["defender"]))
    av, steps = body_check.body_av(att, kind, scheme)
    dodging = body["defender"].get("dodge") is not None
    if dodging:
        dv, step = body_check.dodge_dv(body["defender"]["dodge"], dfd, att)
        steps.append(step)
    else:
        dv, more = body_check.body_av(dfd, "tackle", scheme)  # standing: the bare sum, no shield/armor/speed
        steps += more
    if kind == "tackle":
        extra_a, extra_d = body_check.tackle_speeds(att, dfd)
        av, dv = av + extra_a, dv + extra_d
        steps.append(Step(body_check.HEADING, f"speed difference to the faster side: +{extra_a} / +{extra_d}",
                          (av, dv)))
    a_chance, d_chance = chance_of(av, dv, trt), chance_of(dv, av, trt)
    odds = contest_probabilities(a_chance, d_chance)
    shares = {"defender_bounced": odds["a"], "attacker_bounced": odds["b"], "both_stop": odds["tie"] +
              odds["both-fail"]}
    moving = body["defender"]["moving"] or dfd.speed_mph > 0  # a defender with a speed is moving too
    footing_dv, who, step = body_check.footing(att, dfd, scheme)
    steps.append(step)
    return {"attacker_av": av, "defender_dv": dv, "defence": "dodge" if dodging else "stand",
            "attacker_chance": a_chance, "defender_chance": d_chance,
            "probabilities": {k: float(v) for k, v in shares.items()},
            "probabilities_exact": {k: fraction_text(v) for k, v in shares.items()},
            "defender_bounce_feet": body_check.bounce_feet(att, dfd, moving, "defender"),
            "attacker_bounce_feet": 0 if dodging else body_check.bounce_feet(att, dfd, moving, "attacker"),
            "footing_dv": footing_dv, "footing_checks": list(who), "trace": _steps(steps)}


def _body(data: dict) -> body_check.Body:
    return body_check.Body(**{k: v for k, v in data.items() if k not in ("dodge", "moving")})


@blp.post("/intimidation")
@blp.doc(operationId="tacticalIntimidation")
@blp.arguments(IntimidationRequestSchema, example={
    "presence_av": 30, "intimidate_sl": 14, "pot_through": 6, "target_dv": 35, "target_presence_sl": 4,
    "target_hrt_mod": 2, "allies_standing": 2, "allies_fallen": 1})
@blp.response(200, IntimidationSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_intimidation(body: dict) -> dict:
    """F41: the Presence contest joined to a blow, the odds of each outcome, and next CS's DV drop."""
    found = intimidation.sides(body["presence_av"], body["pot_through"], body["reprisal"], body["target_dv"],
                               body["target_presence_sl"], body["allies_standing"], body["allies_fallen"],
                               body["equal_values"], body["progression"])
    trt = body["task_resolution"]
    a_chance, t_chance = chance_of(found.av, found.dv, trt), chance_of(found.dv, found.av, trt)
    won = contest_probabilities(a_chance, t_chance)["a"]
    names = ("backs_off", "surrenders", "unaffected", "guard_drops")
    shares = dict.fromkeys(names, Fraction(0))
    shares[intimidation.outcome(True, found.target_ahead).replace("-", "_")] = won
    shares[intimidation.outcome(False, found.target_ahead).replace("-", "_")] = 1 - won
    drop = intimidation.guard_drop(body["intimidate_sl"], body["target_hrt_mod"])
    steps = [*found.trace, Step(f"{intimidation.HEADING} (F41)", f"guard drop: Intimidate SL {body['intimidate_sl']}"
                                                                 f" - HRT mod {body['target_hrt_mod']}", drop)]
    return {"av": found.av, "dv": found.dv, "attacker_chance": a_chance, "target_chance": t_chance,
            "probabilities": {k: float(v) for k, v in shares.items()},
            "probabilities_exact": {k: fraction_text(v) for k, v in shares.items()},
            "guard_drop": drop, "surrender_check_dv": body["pot_through"], "trace": _steps(steps)}


@blp.post("/stray-fire")
@blp.doc(operationId="tacticalStrayFire")
@blp.arguments(StrayFireRequestSchema, example={
    "av": 40, "target_modified_sta": 14, "band_end": 60,
    "bystanders": [{"id": "mule", "modified_sta": 20, "dv": 6, "distance": 48},
                   {"id": "boy", "modified_sta": 9, "dv": 12, "distance": 55}]})
@blp.response(200, StrayFireSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_stray_fire(body: dict) -> dict:
    """Misses & Stray Fire: each figure in line within the band, its size-shifted DV, and who is hit."""
    scheme, trt = body["progression"], body["task_resolution"]
    people = [stray_fire.Bystander(b["id"], b["modified_sta"], b["dv"], exact(b["distance"]))
              for b in body["bystanders"]]
    reached = stray_fire.in_band(people, exact(body["band_end"]))
    rows, steps, chances = [], [], []
    for b in reached:
        modifier = stray_fire.size_modifier(body["target_modified_sta"], b.modified_sta, scheme)
        dv = b.dv + modifier
        chances.append(chance_of(body["av"], dv, trt))
        rows.append({"id": b.id, "size_modifier": modifier, "dv": dv, "chance": chances[-1]})
        steps.append(stray_fire.describe(b, modifier, dv))
    shares, missed = stray_fire.hit_shares(chances)
    for row, share in zip(rows, shares):
        row.update(hit_probability=float(share), hit_probability_exact=fraction_text(share))
    beyond = sorted(b.id for b in people if b not in reached)
    return {"targets": rows, "beyond_band": beyond, "no_one_hit": float(missed),
            "no_one_hit_exact": fraction_text(missed), "trace": _steps(steps)}


@blp.post("/missile-flight")
@blp.doc(operationId="tacticalMissileFlight")
@blp.arguments(MissileFlightRequestSchema, example={"distance_feet": 2400, "kind": "missile"})
@blp.response(200, MissileFlightSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_missile_flight(body: dict) -> dict:
    """A43: how long a missile flies and whether it lands this CS or the next, and when."""
    found = missile_flight.flight(exact(body["distance_feet"]), body["kind"], body["pulse_move"])
    return {"seconds": float(found.seconds), "seconds_exact": fraction_text(found.seconds), "delayed": found.delayed,
            "lands": found.lands, "trace": _steps(found.trace)}


@blp.post("/knock-back")
@blp.doc(operationId="tacticalKnockBack")
@blp.arguments(KnockBackRequestSchema, example={"pot": 24, "modified_sta": 14, "barrier_feet": 4, "agl_av": 30})
@blp.response(200, KnockBackSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_knock_back(body: dict) -> dict:
    """F16, F17, A25: feet knocked back, a barrier's bonus to the POT, and the AGL check to keep one's feet."""
    barrier = exact(body["barrier_feet"]) if body.get("barrier_feet") is not None else None
    found = knock_back(body["pot"], body["modified_sta"], barrier, body["progression"])
    travelled = min(Fraction(found.feet), barrier) if barrier is not None else Fraction(found.feet)
    chance = None
    if body.get("agl_av") is not None:
        chance = chance_of(body["agl_av"], found.keep_feet_dv, body["task_resolution"])
    return {"feet": found.feet, "travelled_feet": float(travelled), "barrier_bonus": found.barrier_bonus,
            "effective_pot": body["pot"] + found.barrier_bonus, "keep_feet_dv": found.keep_feet_dv,
            "keep_feet_chance": chance,
            "keep_feet_chance_exact": None if chance is None else fraction_text(Fraction(chance, 100)),
            "trace": _steps(found.steps)}


@blp.post("/melee-spacing")
@blp.doc(operationId="tacticalMeleeSpacing")
@blp.arguments(MeleeSpacingRequestSchema, example={"foe_weapon_size": 7, "foe_height": 6, "attacker_weapon_size": 4})
@blp.response(200, MeleeSpacingSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_melee_spacing(body: dict) -> dict:
    """F44, A44: close or common melee, the spacing between bases, and the 2-Size reach rule."""
    found = spacing.spacing(body["foe_weapon_size"], exact(body["foe_height"]), body["attacker_weapon_size"],
                            body["scale"])
    return {"mode": found.mode, "spacing_feet": float(found.feet), "spacing_mm": float(found.mm),
            "spacing_mm_exact": fraction_text(found.mm), "body_blocked": found.body_blocked,
            "trace": _steps(found.trace)}


@blp.post("/dodge")
@blp.doc(operationId="tacticalDodge")
@blp.arguments(DodgeRequestSchema, example={"dodge": 20, "use": 4, "sl": 25, "trained": True})
@blp.response(200, DodgeSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def post_dodge(body: dict) -> dict:
    """F37, A34: the value of each Dodge within one action and whether the asked one is exhausted."""
    found = dodge.dodges(body["dodge"], body["use"], body["sl"], body["trained"])
    return {"free": found.free, "values": list(found.values), "use": found.use, "dv": found.dv, "state": found.state,
            "trace": _steps(found.trace)}
