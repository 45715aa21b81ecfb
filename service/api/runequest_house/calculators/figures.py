"""/v1/runequest-house/combatant, /intent, /contest, /grapple and /movement (rules document §12.7-§12.11)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import Response, request

from service.api.http.blueprint import Blueprint
from service.api.http.caching import cacheable
from service.api.kit import calculator as kit
from service.api.kit.fields import fraction_text
from service.api.runequest_house.schemas.figures import (
    CombatantRequestSchema,
    CombatantSchema,
    ContestRequestSchema,
    ContestSchema,
    GrappleRequestSchema,
    GrappleSchema,
    IntentRequestSchema,
    IntentSchema,
    MovementQuerySchema,
    MovementRequestSchema,
    MovementSchema,
)
from service.rules.errors import Contradiction, RulesError
from service.rules.runequest_house import contest as contests
from service.rules.runequest_house import grapple as grapples
from service.rules.runequest_house import movement as moving
from service.rules.runequest_house import percentile, stats
from service.rules.runequest_house.intent import state_intent, weapon_sr
from service.rules.trace import Step

blp = Blueprint("runequest-house-figures", __name__,
                description="runequest-house (seed 004): derived figures, the Statement of Intent, contests, "
                            "grapple follow-ups and movement.")
UNPROCESSABLE = "UNPROCESSABLE_ENTITY"


@kit.calculator(blp, "/combatant", "runequestHouseCombatant", (CombatantRequestSchema, CombatantSchema),
                signed=False)
def combatant(body: dict[str, Any]) -> dict[str, Any]:
    """A combatant's strike ranks, damage bonus and hit points (rules document §5, §8; RQ3 core tables)."""
    options = kit.options("runequest-house", body)
    chars = body["characteristics"]
    dex, siz, strength, con = chars["dex"], chars["siz"], chars["str"], chars["con"]
    dex_sr = None if dex is None else stats.dex_sr(dex, options)
    siz_sr = None if siz is None else stats.siz_sr(siz, options)
    bonus = None if strength is None or siz is None else stats.damage_bonus(strength, siz, options)
    hp = None if con is None or siz is None else stats.hit_points(con, siz)
    weapons = []
    for i, weapon in enumerate(body["weapons"]):
        own = weapon_sr(weapon, options, ("weapons", i))
        melee = None if dex_sr is None or siz_sr is None else dex_sr + siz_sr + own
        weapons.append({"name": weapon["name"], "melee_sr": melee,
                        "second_attack_sr": None if melee is None else stats.second_attack_sr(melee)})
    steps = [Step("3) Melee Phase", f"DEX SR {dex_sr}, SIZ SR {siz_sr}", dex_sr),
             Step("RQH-DAMAGE-BONUS", f"STR + SIZ: {bonus}", bonus), Step("RQH-HP", f"HP {hp}", hp)]
    return {"dex_sr": dex_sr, "siz_sr": siz_sr, "damage_bonus": bonus, "hp": hp,
            "location_hp": None if hp is None else stats.location_hp(hp, options), "weapons": weapons,
            "missile_sr": dex_sr, "maneuver_base": 25, "dodge_base": 15,
            "trace": [s.as_dict() for s in steps]}


@kit.calculator(blp, "/intent", "runequestHouseIntent", (IntentRequestSchema, IntentSchema),
                signed=False)
def intent(body: dict[str, Any]) -> dict[str, Any]:
    """Check a Statement of Intent of two actions and give each its SR and modifier (*1) Statement of
    Intent*): one weapon twice at -10% each, two spells within 10 SR."""
    options = kit.options("runequest-house", body)
    who = body["combatant"]
    found = state_intent(who["characteristics"]["dex"], who["characteristics"]["siz"], who["weapons"],
                         body["actions"], options)
    return {"valid": found.valid, "problems": found.problems, "actions": found.actions,
            "trace": [s.as_dict() for s in found.trace]}


@kit.calculator(blp, "/contest", "runequestHouseContest", (ContestRequestSchema, ContestSchema))
def contest(body: dict[str, Any]) -> dict[str, Any]:
    """A skill or Maneuver contest (*Maneuver*: the higher degree wins, +5% per metre of basic MOV above the
    opponent's) or a resistance roll (RQ3 resistance table)."""
    options = kit.options("runequest-house", body)
    dice = kit.dice(body)
    if body["kind"] == "resistance":
        for name in ("active", "passive"):
            if body[name] is None:
                raise Contradiction("required for a resistance roll", (name,))
        effective = contests.resistance(body["active"], body["passive"], options)
        roll = None
        if dice is not None:
            face = dice.roll("d100", 1, 100).total
            roll = {"d100": face, "success": face <= effective}
        return {"effective": effective, **kit.exact("chance", contests.resistance_chance(effective)),
                "roll": roll, **kit.rolled(dice),
                "assumptions": ["RQH-RESISTANCE"],
                "trace": [{"rule": "RQH-RESISTANCE", "detail": f"{body['active']} vs {body['passive']}",
                           "value": effective}]}
    for name in ("a", "b"):
        if body[name] is None:
            raise Contradiction(f"required for a {body['kind']} contest", (name,))
    a, b = body["a"], body["b"]
    a_eff, b_eff = a["skill"], b["skill"]
    if body["kind"] == "maneuver":
        a_eff += contests.maneuver_bonus(a["mov"], b["mov"])
        b_eff += contests.maneuver_bonus(b["mov"], a["mov"])
    a_bands, b_bands = percentile.bands(a_eff, options), percentile.bands(b_eff, options)
    roll = None
    if dice is not None:
        fa, fb = dice.roll("a", 1, 100).total, dice.roll("b", 1, 100).total
        da, db = a_bands.degree(fa), b_bands.degree(fb)
        won = contests.winner(da, db)
        roll = {"a": fa, "a_degree": da, "b": fb, "b_degree": db, "winner": None if won == "no_change" else won}
    return {"a_effective": a_eff, "b_effective": b_eff,
            **kit.exact("probabilities", contests.contest(a_bands, b_bands)), "roll": roll,
            **kit.rolled(dice),
            "assumptions": ["RQH-PERCENTILE", "RQH-DEGREES"],
            "trace": [{"rule": "Maneuver", "detail": f"a {a_eff}%, b {b_eff}%; the higher degree wins",
                       "value": a_eff - b_eff}]}


@kit.calculator(blp, "/grapple", "runequestHouseGrapple", (GrappleRequestSchema, GrappleSchema),
                signed=False)
def grapple(body: dict[str, Any]) -> dict[str, Any]:
    """A grapple follow-up (*Page 60*): the second roll's skill, its resistance roll and its damage."""
    options = kit.options("runequest-house", body)
    found = grapples.follow_up(body["mode"], body["grapple"], body["attacker"], body["defender"], options)
    resistance = None
    if found.resistance is not None:
        r = found.resistance
        resistance = {"active": r["active"], "passive": r["passive"], **kit.exact("chance", r["chance"])}
    return {"follow_up_skill": found.follow_up_skill, "resistance": resistance, "damage": found.damage,
            "trace": [s.as_dict() for s in found.trace]}


def movement_body(body: dict[str, Any]) -> dict[str, Any]:
    """Movement figures as the API answers them."""
    options = kit.options("runequest-house", body)
    found = moving.movement(body["mov"], body["move_actions"], body["mobility"], body["engaged"], body["limited"],
                            options)
    out: dict[str, Any] = {"k": found.k}
    for name, value in (("metres_per_phase", found.per_phase), ("metres_per_round", found.per_round),
                        ("metres_per_second", found.per_second), ("limited_metres_per_phase", found.limited_per_phase),
                        ("backwards_metres_per_phase", found.backwards_per_phase)):
        out[name] = float(value)
        out[f"{name}_exact"] = fraction_text(Fraction(value))
    out["applies_limit"] = found.applies_limit
    out["trace"] = [{"rule": "2) Move Phase", "detail": f"MOV {body['mov']} x {found.k} + {body['mobility']}",
                     "value": float(found.per_phase)}]
    return out


@blp.get("/movement")
@blp.arguments(MovementQuerySchema, location="query")
@blp.response(200, MovementSchema)
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseMovementQuery")
def movement_get(query: dict[str, Any]) -> Response:
    """Metres per Move phase, round and second, the one-third limit and backwards movement (*2) Move Phase*),
    from query parameters with the default options."""
    return cacheable(MovementSchema().dump(movement_body(query)))


@kit.calculator(blp, "/movement", "runequestHouseMovement", (MovementRequestSchema, MovementSchema),
                signed=False)
def movement_post(body: dict[str, Any]) -> dict[str, Any]:
    """Metres per Move phase, round and second (*2) Move Phase*: MOV x (1 + move actions) + Mobility per
    phase), the one-third limit when engaged or limited, and backwards movement at half."""
    if not request.get_data(cache=True).strip():
        raise RulesError("a JSON object body is required ({} takes every default)", None)
    return movement_body(body)
