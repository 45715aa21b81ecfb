"""POST /v1/tactical combinations, body checks, intimidation, stray fire, missile flight, knock-back, melee
spacing and dodges: the maneuvers around the blow (seed 000, "Resolving the Battle" and neighbours)."""
from __future__ import annotations

from fractions import Fraction

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.api.tactical.calculators import chance, chance_of, percent_exact
from service.api.tactical.schemas.maneuvers import (
    BodyCheckRequestSchema,
    BodyCheckSchema,
    CombinationRequestSchema,
    CombinationSchema,
    DodgeRequestSchema,
    DodgeSchema,
    IntimidationRequestSchema,
    IntimidationSchema,
    KnockBackRequestSchema,
    KnockBackSchema,
    MeleeSpacingRequestSchema,
    MeleeSpacingSchema,
    MissileFlightRequestSchema,
    MissileFlightSchema,
    StrayFireRequestSchema,
    StrayFireSchema,
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
from service.rules.trace import Step

blp = Blueprint("tactical-maneuvers", __name__,
                description="Combinations, body checks and tackles, intimidation, stray fire, missile flight, "
                            "knock-back into barriers, melee spacing and repeated dodges (seed 000).")


@kit.calculator(blp, "/combination", "tacticalCombination", (CombinationRequestSchema, CombinationSchema), signed=False)
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
            "chances_exact": [percent_exact(c) for c in chances], "pot": found.pot, "order": order,
            "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/body-check", "tacticalBodyCheck", (BodyCheckRequestSchema, BodyCheckSchema), signed=False)
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
            **kit.exact("probabilities", shares),
            "defender_bounce_feet": body_check.bounce_feet(att, dfd, moving, "defender"),
            "attacker_bounce_feet": 0 if dodging else body_check.bounce_feet(att, dfd, moving, "attacker"),
            "footing_dv": footing_dv, "footing_checks": list(who), "trace": kit.trace(steps)}


def _body(data: dict) -> body_check.Body:
    return body_check.Body(**{k: v for k, v in data.items() if k not in ("dodge", "moving")})


@kit.calculator(blp, "/intimidation", "tacticalIntimidation", (IntimidationRequestSchema, IntimidationSchema), signed=False)
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
            **kit.exact("probabilities", shares),
            "guard_drop": drop, "surrender_check_dv": body["pot_through"], "trace": kit.trace(steps)}


@kit.calculator(blp, "/stray-fire", "tacticalStrayFire", (StrayFireRequestSchema, StrayFireSchema), signed=False)
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
        row.update(kit.exact("hit_probability", share))
    beyond = sorted(b.id for b in people if b not in reached)
    return {"targets": rows, "beyond_band": beyond, **kit.exact("no_one_hit", missed), "trace": kit.trace(steps)}


@kit.calculator(blp, "/missile-flight", "tacticalMissileFlight", (MissileFlightRequestSchema, MissileFlightSchema), signed=False)
def post_missile_flight(body: dict) -> dict:
    """A43: how long a missile flies and whether it lands this CS or the next, and when."""
    found = missile_flight.flight(exact(body["distance_feet"]), body["kind"], body["pulse_move"])
    return {**kit.exact("seconds", found.seconds), "delayed": found.delayed, "lands": found.lands,
            "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/knock-back", "tacticalKnockBack", (KnockBackRequestSchema, KnockBackSchema), signed=False)
def post_knock_back(body: dict) -> dict:
    """F16, F17, A25: feet knocked back, a barrier's bonus to the POT, and the AGL check to keep one's feet."""
    barrier = exact(body["barrier_feet"]) if body.get("barrier_feet") is not None else None
    found = knock_back(body["pot"], body["modified_sta"], barrier, body["progression"])
    travelled = min(Fraction(found.feet), barrier) if barrier is not None else Fraction(found.feet)
    return {"feet": found.feet, "travelled_feet": float(travelled), "barrier_bonus": found.barrier_bonus,
            "effective_pot": body["pot"] + found.barrier_bonus, "keep_feet_dv": found.keep_feet_dv,
            **chance("keep_feet_chance", body.get("agl_av"), found.keep_feet_dv, body["task_resolution"]),
            "trace": kit.trace(found.steps)}


@kit.calculator(blp, "/melee-spacing", "tacticalMeleeSpacing", (MeleeSpacingRequestSchema, MeleeSpacingSchema), signed=False)
def post_melee_spacing(body: dict) -> dict:
    """F44, A44: close or common melee, the spacing between bases, and the 2-Size reach rule."""
    found = spacing.spacing(body["foe_weapon_size"], exact(body["foe_height"]), body["attacker_weapon_size"],
                            body["scale"])
    return {"mode": found.mode, "spacing_feet": float(found.feet), **kit.exact("spacing_mm", found.mm),
            "body_blocked": found.body_blocked,
            "trace": kit.trace(found.trace)}


@kit.calculator(blp, "/dodge", "tacticalDodge", (DodgeRequestSchema, DodgeSchema), signed=False)
def post_dodge(body: dict) -> dict:
    """F37, A34: the value of each Dodge within one action and whether the asked one is exhausted."""
    found = dodge.dodges(body["dodge"], body["use"], body["sl"], body["trained"])
    return {"free": found.free, "values": list(found.values), "use": found.use, "dv": found.dv, "state": found.state,
            "trace": kit.trace(found.trace)}
