"""/v1/runequest-house/check, /to-hit, /attack, /damage, /armor and /knockback: percentile degrees,
attack against dodge or parry, and a landed blow through parry, armor and hit points (rules document §12)."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.api.blueprint import Blueprint
from service.api.fields import fraction_text
from service.api.runequest_house import check_schemas as cs
from service.api.runequest_house import damage_schemas as ds
from service.api.runequest_house.common import chance_pair, dice_source, probability_pair, read_options
from service.rules.errors import RulesError
from service.rules.runequest_house import armor, percentile, stats, to_hit
from service.rules.runequest_house import knockback as kb
from service.rules.runequest_house.damage import blow, passage, passage_distribution, wound
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.options import fraction
from service.rules.runequest_house.pack import LOCATIONS
from service.rules.trace import Step

blp = Blueprint("runequest-house-calculators", __name__,
                description="runequest-house (seed 004): percentile checks, attacks against dodge and parry, "
                            "damage, armor layering and knockback.")
UNPROCESSABLE = "UNPROCESSABLE_ENTITY"
DEGREE_ORDER = ("critical", "special", "success", "failure", "fumble")
CHECK_ASSUMPTIONS = ["RQH-PERCENTILE", "RQH-ROUNDING", "RQH-DEGREES", "RQH-MODIFIER-ORDER"]


def _trace(steps: Any) -> list[dict[str, Any]]:
    return [s.as_dict() for s in steps]


def _odds(bands: percentile.Bands) -> dict[str, Fraction]:
    found = bands.probabilities()
    return {key: found[key] for key in DEGREE_ORDER}


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
def check(body: dict[str, Any]) -> dict[str, Any]:
    """One percentile roll (rules document §2, RQ3 core): the modified skill or characteristic x multiple,
    its critical/special/success/fumble bands and the exact odds of each degree."""
    options = read_options(body["options"])
    if (body["skill"] is None) == (body["characteristic"] is None):
        raise RulesError("give exactly one of skill and characteristic", ("skill",))
    char = body["characteristic"]
    base = body["skill"] if char is None else char["value"] * char["multiple"]
    multiplier = fraction(body["multiplier"])
    value = percentile.effective(base, [body["modifier"]], [multiplier], options["modifier_order"])
    bands = percentile.bands(value, options, body["fumble_multiplier"])
    steps = [Step("check", f"base {base}%", base), Step("modifier", f"{body['modifier']:+d}%", body["modifier"]),
             Step("multiplier", f"x {body['multiplier']}", multiplier),
             Step("RQH-MODIFIER-ORDER", f"effective {value}%", value),
             Step("RQH-DEGREES", f"critical 1-{bands.critical}, special 1-{bands.special}, success 1-{bands.success}, "
                                 f"fumble {bands.fumble_from}-100", bands.success)]
    dice, roll = dice_source(body), None
    if dice is not None:
        face = dice.roll("d100", 1, 100).total
        roll = {"d100": face, "degree": bands.degree(face)}
    return {"effective": value, "bands": bands.as_dict(), **chance_pair("chance", percentile.chance(bands)),
            **probability_pair("probabilities", _odds(bands)), "roll": roll,
            "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": CHECK_ASSUMPTIONS, "trace": _trace(steps)}


# --- to-hit and attack -------------------------------------------------------------------------------------------


def _odds_of_attack(body: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[Any, Any, list[str]]:
    weapon, situation, defence = body["weapon"], body["situation"], body["defence"]
    attack = to_hit.attack_check(body["attack"], body["attack_modifier"], weapon, situation, options)
    guard = to_hit.defence_check(defence, weapon, situation, options)
    used = list(CHECK_ASSUMPTIONS)
    if situation["prone_attacker"] or situation["prone_target"]:
        used.append("RQH-PRONE")
    if situation["closed_vs_long"]:
        used.append("RQH-CLOSED-LONG")
    if weapon["kind"] != "melee" and situation["target_movement"] != "none":
        used.append("RQH-MOVING-TARGET")
    if guard.type == "dodge":
        used.append("RQH-FUMBLED-DODGE-SPECIAL")
        if defence["same_sr_attacks"]:
            used.append("RQH-SAME-SR-DODGE")
    if guard.critical_only:
        used.append("RQH-CRIT-ONLY-PARRY")
    if guard.type == "parry" and weapon["kind"] == "projected" and defence["item"] in to_hit.SHIELDS \
            and defence["item"] not in to_hit.LARGE_SHIELDS:
        used.append("RQH-SMALL-SHIELD-MISSILES")
    used.append("RQH-LOCATIONS")
    return attack, guard, used


def _roll_attack(dice: Any, attack: Any, guard: Any, table: str, options: Mapping[str, Any]) -> dict[str, Any]:
    face = dice.roll("attack", 1, 100).total
    degree = attack.bands.degree(face)
    d_face, d_degree = None, None
    if guard.type != "none":
        d_face = dice.roll("defence", 1, 100).total
        counting = guard.counting_bands()
        d_degree = counting.degree(d_face) if counting else "failure"
    result = to_hit.outcome(degree, guard.type, d_degree)
    location = None
    if result in (*to_hit.LANDED, "parried", "parried_special"):
        rows = options["missile_locations" if table == "missile" else "melee_locations"]
        if table == "high_ground":
            location = to_hit.location_of(rows, dice.roll("location", 1, 10, 10).total)
        else:
            location = to_hit.location_of(rows, dice.roll("location", 1, 20).total)
    return {"attack": face, "attack_degree": degree, "defence": d_face, "defence_degree": d_degree,
            "outcome": result, "location": location}


def _to_hit_answer(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    if not body["options"]:  # a pure answer under the default options: remembered
        key = (body["attack"], body["attack_modifier"], *(tuple(sorted(body[part].items()))
                                                          for part in ("weapon", "situation", "defence")))
        try:
            return _default_to_hit(key, body)
        except TypeError:  # an unhashable value: work it out
            pass
    return _work_to_hit(body)


def _default_to_hit(key: tuple, body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    found = _TO_HIT_MEMO.get(key)
    if found is None:
        found = _work_to_hit(body)
        if len(_TO_HIT_MEMO) > 4096:
            _TO_HIT_MEMO.clear()
        _TO_HIT_MEMO[key] = found
    return found


_TO_HIT_MEMO: dict[tuple, tuple] = {}


def _work_to_hit(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    options = read_options(body["options"])
    attack, guard, used = _odds_of_attack(body, options)
    odds = to_hit.outcome_probabilities(attack.bands, guard)
    landed = to_hit.landed_chance(odds)
    table = to_hit.location_table(body["weapon"], body["situation"])
    places = to_hit.location_probabilities(table, options)
    answer = {
        "attack_effective": attack.effective, "attack_bands": attack.bands.as_dict(),
        "defence_effective": guard.check.effective if guard.check else None,
        "defence_bands": guard.check.bands.as_dict() if guard.check else None,
        "defence_critical_only": guard.critical_only, **chance_pair("defence_chance", to_hit.defence_chance(guard)),
        **chance_pair("chance", landed), **probability_pair("probabilities", odds), "location_table": table,
        **probability_pair("location_probabilities", places), "assumptions": used,
        "trace": _trace((*attack.trace, *(guard.check.trace if guard.check else ())))}
    return answer, attack, guard, options


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
def to_hit_view(body: dict[str, Any]) -> dict[str, Any]:
    """The attack % against a declared dodge, parry or nothing (rules document §4): every degree outcome as
    an exact fraction of 100 x 100 (a dodge lowers the attack's degree, a parry meets it), and the
    location table's distribution."""
    answer, attack, guard, options = _to_hit_answer(body)
    dice, roll = dice_source(body), None
    if dice is not None:
        roll = _roll_attack(dice, attack, guard, answer["location_table"], options)
    return {**answer, "roll": roll, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None}


def _attack_weapon(weapon: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(weapon)
    if weapon.get("name") is not None:
        known = options["weapon_pack"]["weapons"]
        if weapon["name"] not in known:
            raise RulesError(f"unknown weapon {weapon['name']!r}; known: {sorted(known)}", ("weapon", "name"))
        for key in ("damage", "type"):
            if out.get(key) is None:
                out[key] = known[weapon["name"]][key]
    for key in ("damage", "type"):
        if out.get(key) is None:
            raise RulesError(f"the weapon's {key} (or a weapon-pack name) is required", ("weapon", key))
    parse(out["damage"], ("weapon", "damage"))
    return out


def _armor_at(target: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, int]:
    out = {}
    for loc in LOCATIONS:
        layers = target["armor"].get(loc, [])
        for i, layer in enumerate(layers):
            ok_int = isinstance(layer, int) and not isinstance(layer, bool) and 0 <= layer <= 30
            if not ok_int and not isinstance(layer, str):
                raise RulesError("a layer is an AP 0..30 or an armor-pack name", ("target", "armor", loc, i))
        out[loc] = armor.layered(layers, target["protection"], options, ("target", "armor", loc)).ap
    return out


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
def attack_view(body: dict[str, Any]) -> dict[str, Any]:
    """One whole attack (rules document §4-§6): roll, defence, location, damage, parry absorption and armor,
    as an exact distribution of the points reaching a location's HP."""
    answer, attack, guard, options = _to_hit_answer(body)
    weapon = _attack_weapon(body["weapon"], options)
    defence, target = body["defence"], body["target"]
    if guard.type == "parry" and defence["ap"] is None:
        raise RulesError("a parry needs the parrying item's AP", ("defence", "ap"))
    parse(body["damage_bonus"], ("damage_bonus",))
    armor_ap = _armor_at(target, options)
    places = to_hit.location_probabilities(answer["location_table"], options)
    outcome_odds = {"fumble": Fraction(0), "miss": Fraction(0), "no_damage": Fraction(0), "damage": Fraction(0)}
    damage_odds: dict[int, Fraction] = {}
    parry_ap = defence["ap"] or 0
    counting = guard.counting_bands()
    defence_odds = {"failure": Fraction(1)} if counting is None else counting.probabilities()
    for a_degree, pa in attack.bands.probabilities().items():
        for d_degree, pd in defence_odds.items():
            p = pa * pd
            if not p:
                continue
            result = to_hit.outcome(a_degree, guard.type, None if counting is None else d_degree)
            if result in ("fumble", "miss", "parried_critical"):
                outcome_odds["no_damage" if result == "parried_critical" else result] += p
                damage_odds[0] = damage_odds.get(0, Fraction(0)) + p
                continue
            degree = a_degree if result.startswith("parried") else ("success" if result == "hit" else result)
            parry_degree = {"parried": "success", "parried_special": "special"}.get(result, "failure")
            expression = blow(weapon["damage"], weapon["type"], body["damage_bonus"], degree, options)
            for loc, pl in places.items():
                if not pl:
                    continue
                spread = passage_distribution(expression, degree, parry_degree, parry_ap, armor_ap[loc], options)
                for points, pp in spread.items():
                    share = p * pl * pp
                    damage_odds[points] = damage_odds.get(points, Fraction(0)) + share
                    outcome_odds["damage" if points > 0 else "no_damage"] += share
    dice, roll = dice_source(body), None
    if dice is not None:
        roll = _roll_attack(dice, attack, guard, answer["location_table"], options)
        if roll["location"] is not None:
            degree = roll["attack_degree"]
            degree = {"hit": "success"}.get(roll["outcome"], roll["outcome"]) if roll["outcome"] in to_hit.LANDED else degree
            parry_degree = {"parried": "success", "parried_special": "special"}.get(roll["outcome"], "failure")
            roll.update(_roll_damage(dice, body, weapon, degree, parry_degree, parry_ap,
                                     armor.layered(target["armor"].get(roll["location"], []), target["protection"],
                                                   options).ap,
                                     roll["location"], target, options))
    return {**{k: answer[k] for k in ("chance", "chance_exact", "assumptions", "trace")},
            **probability_pair("probabilities", outcome_odds),
            **probability_pair("damage_probabilities", dict(sorted(damage_odds.items()))),
            "roll": roll, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None}


# --- damage -----------------------------------------------------------------------------------------------------


def _dice_needed(weapon: Mapping[str, Any], bonus: str, degree: str, options: Mapping[str, Any]) -> tuple[int, int]:
    base, db = parse(weapon["damage"]), parse(bonus)
    if degree == "critical_max":
        return 0, 0
    special = degree in ("special", "critical") and options["special_damage"] == "rq3"
    weapon_dice = sum(c for _, c, _ in base.dice) * (2 if special and weapon["type"] != "crush" else 1)
    bonus_dice = 0 if special and weapon["type"] == "crush" else sum(c for _, c, _ in db.dice)
    return weapon_dice, bonus_dice


def _roll_damage(dice: Any, body: Mapping[str, Any], weapon: Mapping[str, Any], degree: str, parry_degree: str,
                 parry_ap: int, armor_ap: int, location: str, target: Mapping[str, Any],
                 options: Mapping[str, Any], location_hp: int | None = None) -> dict[str, Any]:
    bonus = body["damage_bonus"]
    weapon_dice, bonus_dice = _dice_needed(weapon, bonus, degree, options)
    rolls = body.get("rolls") or {}
    if len(rolls.get("damage") or []) > weapon_dice:
        raise RulesError(f"at most {weapon_dice} damage faces for this blow", ("rolls", "damage"))
    if len(rolls.get("bonus") or []) > bonus_dice:
        raise RulesError(f"at most {bonus_dice} bonus faces for this blow", ("rolls", "bonus"))
    made = blow(weapon["damage"], weapon["type"], bonus, degree, options)
    base, db = parse(weapon["damage"]), parse(bonus)
    if degree == "critical_max":
        total = made.constant
    else:
        special = degree in ("special", "critical") and options["special_damage"] == "rq3"
        total = base.roll(dice, "damage")
        if special and weapon["type"] != "crush":
            total += base.roll(dice, "damage")
        total += db.maximum() if special and weapon["type"] == "crush" else db.roll(dice, "bonus")
    went = passage(total, degree, parry_degree, parry_ap, armor_ap, options)
    out = {"damage": max(0, total), "through_parry": went.through_parry, "parry_ap_loss": went.parry_ap_loss,
           "armor_absorbed": went.armor_absorbed, "to_location": went.to_location}
    loc_hp = location_hp if location_hp is not None else (
        target["location_hp"].get(location) if isinstance(target.get("location_hp"), dict) else None)
    if loc_hp is not None and target.get("hp") is not None:
        hurt = wound(location, went.to_location, loc_hp, max(loc_hp, 1), target["hp"])
        out.update({"location_hp_after": hurt.location_hp_after, "hp_after": hurt.hp_after,
                    "location_state": hurt.location_state, "dead": hurt.dead})
    else:
        out.update({"location_hp_after": None if loc_hp is None else loc_hp - went.to_location,
                    "hp_after": None if target.get("hp") is None else target["hp"] - went.to_location,
                    "location_state": None, "dead": None})
    out["knockback"] = _knock(went, weapon["type"], degree, target, options)
    return out


def _knock(went: Any, weapon_type: str, degree: str, target: Mapping[str, Any],
           options: Mapping[str, Any]) -> dict[str, Any] | None:
    if target.get("siz") is None:
        return None
    counted = went.through_parry if options["knockback_damage"] == "after_parry_before_armor" else went.to_location
    impaled = weapon_type == "impale" and degree != "success" and went.to_location > 0 \
        and options["special_damage"] == "rq3"
    who = kb.Target(target["siz"], target.get("str"), target.get("dex"), target.get("braced", False))
    return kb.knockback(counted, weapon_type, who, options, went.to_location > 0, impaled).as_dict()


KNOCKBACK_OPTIONS = ("knockback_damage", "special_damage", "braced_extra_from", "critical_ignores_parry_ap",
                     "collision_min_dice")


@lru_cache(maxsize=2048)
def _knockback_chance(expression: Any, weapon_type: str, degree: str, parry_degree: str, parry_ap: int,
                      armor_ap: int, siz: int, strength: int | None, braced: bool, values: tuple) -> Fraction:
    """P(any knockback) over the blow's exact damage distribution (pure, so remembered)."""
    options = dict(zip(KNOCKBACK_OPTIONS, values))
    target = {"siz": siz, "str": strength, "dex": None, "braced": braced}
    chance = Fraction(0)
    for value, p in expression.distribution().items():
        went = passage(value, degree, parry_degree, parry_ap, armor_ap, options)
        found = _knock(went, weapon_type, degree, target, options)
        if found and found["metres"] > 0:
            chance += p
    return chance


def _damage_weapon(weapon: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(weapon, str):
        known = options["weapon_pack"]["weapons"]
        if weapon not in known:
            raise RulesError(f"unknown weapon {weapon!r}; known: {sorted(known)}", ("weapon",))
        return {"damage": known[weapon]["damage"], "type": known[weapon]["type"]}
    parse(weapon["damage"], ("weapon", "damage"))
    return weapon


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
def damage_view(body: dict[str, Any]) -> dict[str, Any]:
    """One landed blow (rules document §5): special and critical damage, parry absorption, armor (ignored by
    criticals), the exact distribution of the points reaching the location, HP and knockback."""
    options = read_options(body["options"])
    weapon = _damage_weapon(body["weapon"], options)
    if body["damage_bonus"] is not None and body["attacker"] is not None:
        raise RulesError("give damage_bonus or attacker, not both", ("attacker",))
    bonus = body["damage_bonus"]
    if bonus is None:
        attacker = body["attacker"]
        bonus = stats.damage_bonus(attacker["str"], attacker["siz"], options) if attacker else "0"
    parse(bonus, ("damage_bonus",))
    body = {**body, "damage_bonus": bonus}
    target, degree = body["target"], body["degree"]
    parry_degree = body["parry"]["degree"] if body["parry"]["degree"] != "none" else "failure"
    layers = armor.layered(target["armor"], target["protection"], options, ("target", "armor"))
    critical = degree in ("critical", "critical_max")
    armor_ap = 0 if critical else layers.ap
    expression = blow(weapon["damage"], weapon["type"], bonus, degree, options)
    spread = passage_distribution(expression, degree, parry_degree, body["parry"]["ap"], layers.ap, options)
    chance = None
    if target["siz"] is not None:
        chance = _knockback_chance(expression, weapon["type"], degree, parry_degree, body["parry"]["ap"], layers.ap,
                                   target["siz"], target["str"], target["braced"],
                                   tuple(options[k] for k in KNOCKBACK_OPTIONS))
    steps = [Step("RQH-SPECIAL-DAMAGE", f"{degree}: roll {expression.text()}", expression.maximum()),
             Step("Page 68", f"armor {layers.ap} AP" + (" ignored by a critical" if critical else ""), armor_ap)]
    dice, roll = dice_source(body), None
    if dice is not None:
        roll = _roll_damage(dice, body, weapon, degree, parry_degree, body["parry"]["ap"], layers.ap,
                            body["location"], {**target, "location_hp": None}, options, target["location_hp"])
    used = ["RQH-SPECIAL-DAMAGE", "RQH-DAMAGE-BONUS", "RQH-WOUNDS", "RQH-KNOCKBACK-DAMAGE", "RQH-LAYERING"]
    if parry_degree == "special":
        used.append("RQH-SPECIAL-PARRY-CRIT")
    if critical:
        used.append("RQH-CRIT-PARRY-AP")
    return {"expression": expression.text(), "armor_ap": armor_ap,
            **probability_pair("probabilities", spread), **chance_pair("knockback_chance", chance),
            "roll": roll, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": used, "trace": _trace(steps)}


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


__all__ = ["blp", "fraction_text"]
