"""A runequest-house blow that landed (rules document §5): the rolled damage through parry and armor to the
location and HP, knockback, and the exact distribution of the points that reach the location."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.api.runequest_house.check_answers import trace
from service.api.runequest_house.common import chance_pair, dice_source, probability_pair, read_options
from service.rules.errors import Contradiction, UnknownName
from service.rules.memo import remembered
from service.rules.runequest_house import armor, stats
from service.rules.runequest_house import knockback as kb
from service.rules.runequest_house.damage import blow, passage, passage_distribution, wound
from service.rules.runequest_house.dice_expr import parse
from service.rules.trace import Step


def _dice_needed(weapon: Mapping[str, Any], bonus: str, degree: str, options: Mapping[str, Any]) -> tuple[int, int]:
    base, db = parse(weapon["damage"]), parse(bonus)
    if degree == "critical_max":
        return 0, 0
    special = degree in ("special", "critical") and options["special_damage"] == "rq3"
    weapon_dice = sum(c for _, c, _ in base.dice) * (2 if special and weapon["type"] != "crush" else 1)
    bonus_dice = 0 if special and weapon["type"] == "crush" else sum(c for _, c, _ in db.dice)
    return weapon_dice, bonus_dice


def roll_damage(dice: Any, body: Mapping[str, Any], weapon: Mapping[str, Any], degree: str, parry_degree: str,
                 parry_ap: int, armor_ap: int, location: str, target: Mapping[str, Any],
                 options: Mapping[str, Any], location_hp: int | None = None) -> dict[str, Any]:
    """A rolled blow: damage dice (faces from `rolls` first), parry and armor, the location's and total HP,
    knockback."""
    bonus = body["damage_bonus"]
    weapon_dice, bonus_dice = _dice_needed(weapon, bonus, degree, options)
    rolls = body.get("rolls") or {}
    if len(rolls.get("damage") or []) > weapon_dice:
        raise Contradiction(f"at most {weapon_dice} damage faces for this blow", ("rolls", "damage"))
    if len(rolls.get("bonus") or []) > bonus_dice:
        raise Contradiction(f"at most {bonus_dice} bonus faces for this blow", ("rolls", "bonus"))
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
def _spread_pair(expression: Any, degree: str, parry_degree: str, parry_ap: int, armor_ap: int,
                 ignores: bool) -> dict[str, Any]:
    """`probabilities` and `probabilities_exact` of the damage reaching the location (pure, so remembered)."""
    spread = passage_distribution(expression, degree, parry_degree, parry_ap, armor_ap,
                                  {"critical_ignores_parry_ap": ignores})
    return probability_pair("probabilities", spread)


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
            raise UnknownName(f"unknown weapon {weapon!r}; known: {sorted(known)}", ("weapon",))
        return {"damage": known[weapon]["damage"], "type": known[weapon]["type"]}
    parse(weapon["damage"], ("weapon", "damage"))
    return weapon


def damage_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The answer of /damage: the blow's distribution, knockback chance and roll."""
    options = read_options(body["options"])
    remembered_odds, blow_used = _damage_odds(body, options)
    odds = dict(remembered_odds)  # the remembered answer is shared: never changed in place
    dice, roll = dice_source(body), None
    if dice is not None:
        weapon, bonus, degree, parry_degree, armor_ap = blow_used
        target = body["target"]
        roll = roll_damage(dice, {**body, "damage_bonus": bonus}, weapon, degree, parry_degree, body["parry"]["ap"],
                           armor_ap, body["location"], {**target, "location_hp": None}, options,
                           target["location_hp"])
    assumptions, steps = odds.pop("assumptions"), odds.pop("trace")
    return {**odds, "roll": roll, "dice": dice.dice() if dice else [], "seed": dice.seed if dice else None,
            "assumptions": list(assumptions), "trace": steps}


@remembered
def _damage_odds(body: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[dict[str, Any], tuple]:
    """What /damage answers whatever the dice (remembered: a VTT asks the same blow again and again), and
    what the roll needs: the weapon, the damage bonus, the degrees and the armor's AP."""
    weapon = _damage_weapon(body["weapon"], options)
    if body["damage_bonus"] is not None and body["attacker"] is not None:
        raise Contradiction("give damage_bonus or attacker, not both", ("attacker",))
    bonus = body["damage_bonus"]
    if bonus is None:
        attacker = body["attacker"]
        bonus = stats.damage_bonus(attacker["str"], attacker["siz"], options) if attacker else "0"
    parse(bonus, ("damage_bonus",))
    target, degree = body["target"], body["degree"]
    parry_degree = body["parry"]["degree"] if body["parry"]["degree"] != "none" else "failure"
    layers = armor.layered(target["armor"], target["protection"], options, ("target", "armor"))
    critical = degree in ("critical", "critical_max")
    armor_ap = 0 if critical else layers.ap
    expression = blow(weapon["damage"], weapon["type"], bonus, degree, options)
    spread = _spread_pair(expression, degree, parry_degree, body["parry"]["ap"], layers.ap,
                          options["critical_ignores_parry_ap"])
    chance = None
    if target["siz"] is not None:
        chance = _knockback_chance(expression, weapon["type"], degree, parry_degree, body["parry"]["ap"], layers.ap,
                                   target["siz"], target["str"], target["braced"],
                                   tuple(options[k] for k in KNOCKBACK_OPTIONS))
    steps = [Step("RQH-SPECIAL-DAMAGE", f"{degree}: roll {expression.text()}", expression.maximum()),
             Step("Page 68", f"armor {layers.ap} AP" + (" ignored by a critical" if critical else ""), armor_ap)]
    used = ["RQH-SPECIAL-DAMAGE", "RQH-DAMAGE-BONUS", "RQH-WOUNDS", "RQH-KNOCKBACK-DAMAGE", "RQH-LAYERING"]
    if parry_degree == "special":
        used.append("RQH-SPECIAL-PARRY-CRIT")
    if critical:
        used.append("RQH-CRIT-PARRY-AP")
    odds = {"expression": expression.text(), "armor_ap": armor_ap,
            **{name: dict(values) for name, values in spread.items()}, **chance_pair("knockback_chance", chance),
            "assumptions": used, "trace": trace(steps)}
    return odds, (weapon, bonus, degree, parry_degree, layers.ap)
