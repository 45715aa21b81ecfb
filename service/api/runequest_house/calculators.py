"""/v1/runequest-house/check, /to-hit, /attack, /damage, /armor and /knockback: percentile degrees,
attack against dodge or parry, and a landed blow through parry, armor and hit points (rules document §12).
The answers are worked out in check_answers, to_hit_answers, attack_answers and damage_answers."""
from __future__ import annotations

from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.receipts import receipted
from service.api.runequest_house import check_schemas as cs
from service.api.runequest_house import damage_schemas as ds
from service.api.runequest_house.attack_answers import attack_answer
from service.api.runequest_house.check_answers import CHECK_ASSUMPTIONS, check_answer
from service.api.runequest_house.common import read_options
from service.api.runequest_house.damage_answers import damage_answer
from service.api.runequest_house.to_hit_answers import to_hit_answer
from service.rules.runequest_house import armor
from service.rules.runequest_house import knockback as kb

blp = Blueprint("runequest-house-calculators", __name__,
                description="runequest-house (seed 004): percentile checks, attacks against dodge and parry, "
                            "damage, armor layering and knockback.")
UNPROCESSABLE = "UNPROCESSABLE_ENTITY"


@blp.post("/check")
@blp.arguments(cs.CheckRequestSchema, example={"skill": 65, "modifier": -10, "seed": 7})
@blp.response(200, cs.CheckSchema, example={
    "effective": 55, "bands": {"critical": 3, "special": 11, "success": 55, "fumble_from": 99}, "chance": 0.55,
    "chance_exact": "11/20", "probabilities": {"critical": 0.03, "special": 0.08, "success": 0.44, "failure": 0.43,
                                               "fumble": 0.02},
    "probabilities_exact": {"critical": "3/100", "special": "2/25", "success": "11/25", "failure": "43/100",
                            "fumble": "1/50"},
    "roll": {"d100": 42, "degree": "success"},
    "dice": [{"role": "d100", "expression": "d100", "dice": [42], "total": 42, "supplied": False}], "seed": 7,
    "assumptions": CHECK_ASSUMPTIONS, "trace": [{"rule": "check", "detail": "base 65%", "value": 65}]})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseCheck")
@receipted
def check(body: dict[str, Any]) -> dict[str, Any]:
    """One percentile roll (rules document §2, RQ3 core): the modified skill or characteristic x multiple,
    its critical/special/success/fumble bands and the exact odds of each degree."""
    return check_answer(body)


TO_HIT_EXAMPLE = {"attack": 70, "defence": {"type": "parry", "skill": 55, "item": "medium_shield"}, "seed": 11}


@blp.post("/to-hit")
@blp.arguments(cs.ToHitRequestSchema, example=TO_HIT_EXAMPLE)
@blp.response(200, cs.ToHitSchema, example={
    "attack_effective": 70, "attack_bands": {"critical": 4, "special": 14, "success": 70, "fumble_from": 99},
    "defence_effective": 55, "defence_bands": {"critical": 3, "special": 11, "success": 55, "fumble_from": 99},
    "defence_critical_only": False, "defence_chance": 0.55, "defence_chance_exact": "11/20", "chance": 0.3123,
    "chance_exact": "3123/10000",
    "probabilities": {"fumble": 0.02, "miss": 0.28, "parried": 0.1232, "parried_special": 0.0224,
                      "parried_critical": 0.0021, "hit": 0.252, "special": 0.045, "critical": 0.0153},
    "probabilities_exact": {"fumble": "1/50", "miss": "7/25", "parried": "77/625", "parried_special": "7/312",
                            "parried_critical": "21/10000", "hit": "63/250", "special": "9/200",
                            "critical": "153/10000"},
    "location_table": "melee", "location_probabilities": {"right_leg": 0.2, "left_leg": 0.2, "abdomen": 0.15,
                                                          "chest": 0.05, "right_arm": 0.15, "left_arm": 0.15,
                                                          "head": 0.1},
    "location_probabilities_exact": {"right_leg": "1/5", "left_leg": "1/5", "abdomen": "3/20", "chest": "1/20",
                                     "right_arm": "3/20", "left_arm": "3/20", "head": "1/10"},
    "roll": {"attack": 23, "attack_degree": "success", "defence": 71, "defence_degree": "failure", "outcome": "hit",
             "location": "right_arm"},
    "dice": [], "seed": 11, "assumptions": CHECK_ASSUMPTIONS, "trace": []})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseToHit")
@receipted
def to_hit_view(body: dict[str, Any]) -> dict[str, Any]:
    """The attack % against a declared dodge, parry or nothing (rules document §4): every degree outcome as
    an exact fraction of 100 x 100 (a dodge lowers the attack's degree, a parry meets it), and the
    location table's distribution."""
    return to_hit_answer(body)


@blp.post("/attack")
@blp.arguments(cs.AttackRequestSchema, example={
    "attack": 70, "weapon": {"name": "broadsword"}, "damage_bonus": "+1d4",
    "defence": {"type": "parry", "skill": 55, "item": "medium_shield", "ap": 12},
    "target": {"siz": 13, "armor": {"chest": ["ringmail", "soft_leather"]}}})
@blp.response(200, cs.AttackSchema, example={
    "chance": 0.3123, "chance_exact": "3123/10000",
    "probabilities": {"fumble": 0.02, "miss": 0.28, "no_damage": 0.2, "damage": 0.5},
    "probabilities_exact": {"fumble": "1/50", "miss": "7/25", "no_damage": "1/5", "damage": "1/2"},
    "damage_probabilities": {"0": 0.5, "1": 0.5}, "damage_probabilities_exact": {"0": "1/2", "1": "1/2"},
    "roll": None, "dice": [], "seed": None, "assumptions": CHECK_ASSUMPTIONS, "trace": []})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseAttack")
@receipted
def attack_view(body: dict[str, Any]) -> dict[str, Any]:
    """One whole attack (rules document §4-§6): roll, defence, location, damage, parry absorption and armor,
    as an exact distribution of the points reaching a location's HP."""
    return attack_answer(body)


@blp.post("/damage")
@blp.arguments(ds.DamageRequestSchema, example={
    "weapon": "broadsword", "damage_bonus": "+1d4", "degree": "special", "location": "chest",
    "target": {"siz": 13, "str": 12, "dex": 14, "armor": ["ringmail", "soft_leather"], "location_hp": 6, "hp": 13},
    "seed": 3})
@blp.response(200, ds.DamageSchema, example={
    "expression": "2d8+2+1d4", "armor_ap": 6, "probabilities": {"0": 0.1, "1": 0.9},
    "probabilities_exact": {"0": "1/10", "1": "9/10"}, "knockback_chance": 0.25, "knockback_chance_exact": "1/4",
    "roll": {"damage": 14, "through_parry": 14, "parry_ap_loss": 0, "armor_absorbed": 6, "to_location": 8,
             "location_hp_after": -2, "hp_after": 5, "location_state": "incapacitated", "dead": False,
             "knockback": {"knockback_damage": 14, "threshold": 13, "metres": 1, "dex_multiplier": 5,
                           "dex_chance": 0.7, "dex_chance_exact": "7/10", "automatic_fall": False, "unhorsed": None,
                           "collision": None}},
    "dice": [], "seed": 3, "assumptions": ["RQH-SPECIAL-DAMAGE"], "trace": []})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseDamage")
@receipted
def damage_view(body: dict[str, Any]) -> dict[str, Any]:
    """One landed blow (rules document §5): special and critical damage, parry absorption, armor (ignored by
    criticals), the exact distribution of the points reaching the location, HP and knockback."""
    return damage_answer(body)


@blp.post("/armor")
@blp.arguments(ds.ArmorRequestSchema, example={"layers": ["plate", "chainmail"], "protection": 2})
@blp.response(200, ds.ArmorSchema, example={"ap": 14, "highest": 8, "layer_bonus": 4,
                                            "trace": [{"rule": "Page 68", "detail": "8 + 4 + 2", "value": 14}]})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseArmor")
def armor_view(body: dict[str, Any]) -> dict[str, Any]:
    """Layered AP of one location (*Page 68*): the highest piece plus half (rounded up) of the lower ones,
    plus protective spells."""
    options = read_options(body["options"])
    found = armor.layered(body["layers"], body["protection"], options)
    detail = f"{found.highest} + {found.layer_bonus} ({options['layering']}) + {body['protection']} protection"
    return {"ap": found.ap, "highest": found.highest, "layer_bonus": found.layer_bonus,
            "trace": [{"rule": "Page 68", "detail": detail, "value": found.ap}]}


@blp.post("/knockback")
@blp.arguments(ds.KnockbackRequestSchema, example={"damage": 24, "weapon_type": "crush",
                                                   "target": {"siz": 13, "dex": 12}})
@blp.response(200, ds.KnockbackAnswerSchema, example={
    "knockback_damage": 48, "threshold": 13, "metres": 4, "dex_multiplier": 2, "dex_chance": 0.24,
    "dex_chance_exact": "6/25", "automatic_fall": False, "unhorsed": None, "collision": None,
    "trace": [{"rule": "Page 49", "detail": "48 against SIZ 13: 4 m", "value": 4}]})
@blp.alt_response(422, response=UNPROCESSABLE)
@blp.doc(operationId="runequestHouseKnockback")
def knockback_view(body: dict[str, Any]) -> dict[str, Any]:
    """Knockback distance and the DEX roll to stay up from one damage figure (*Page 49*, *Bracing Against
    Knockback*, *Knockback Into Small Objects, People and Solid Objects*)."""
    options = read_options(body["options"])
    target = body["target"]
    who = kb.Target(target["siz"], target["str"], target["dex"], target["braced"], target["mounted"])
    found = kb.knockback(body["damage"], body["weapon_type"], who, options, body["penetrated"], body["impaled"],
                         body["obstacle"])
    detail = f"{found.knockback_damage} counted against {found.threshold}: {found.metres} m"
    return {**found.as_dict(), "trace": [{"rule": "Page 49", "detail": detail, "value": found.metres}]}
