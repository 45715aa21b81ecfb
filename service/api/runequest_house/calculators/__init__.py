"""The runequest-house calculators (rules document §12), one module per operation family: check, to-hit, attack
and damage (with armor and knockback) on the `runequest-house-calculators` blueprint, the figures (combatant,
intent, contest, grapple, movement) on their own. What several families share is here (a family never imports
another: each registers its operations when imported, in the order of the package's MODULES): the attack and
defence rolls and odds (to-hit, attack) and the damage roll (damage, attack)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules import memo
from service.rules.errors import Contradiction
from service.rules.runequest_house import knockback as kb
from service.rules.runequest_house import to_hit as hit_rules  # not `to_hit`: that is the family module
from service.rules.runequest_house.damage import blow, passage, wound
from service.rules.runequest_house.dice_expr import parse

blp = Blueprint("runequest-house-calculators", __name__,
                description="runequest-house (seed 004): percentile checks, attacks against dodge and parry, "
                            "damage, armor layering and knockback.")


CHECK_ASSUMPTIONS = ["RQH-PERCENTILE", "RQH-ROUNDING", "RQH-DEGREES", "RQH-MODIFIER-ORDER"]



def _odds_of_attack(body: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[Any, Any, list[str]]:
    weapon, situation, defence = body["weapon"], body["situation"], body["defence"]
    attack = hit_rules.attack_check(body["attack"], body["attack_modifier"], weapon, situation, options)
    guard = hit_rules.defence_check(defence, weapon, situation, options)
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
    if guard.type == "parry" and weapon["kind"] == "projected" and defence["item"] in hit_rules.SHIELDS \
            and defence["item"] not in hit_rules.LARGE_SHIELDS:
        used.append("RQH-SMALL-SHIELD-MISSILES")
    used.append("RQH-LOCATIONS")
    return attack, guard, used


def roll_attack(dice: Any, attack: Any, guard: Any, table: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The attack die, the defence die when there is a defence, and the location die when the blow lands or
    is parried."""
    face = dice.roll("attack", 1, 100).total
    degree = attack.bands.degree(face)
    d_face, d_degree = None, None
    if guard.type != "none":
        d_face = dice.roll("defence", 1, 100).total
        counting = guard.counting_bands()
        d_degree = counting.degree(d_face) if counting else "failure"
    result = hit_rules.outcome(degree, guard.type, d_degree)
    location = None
    if result in (*hit_rules.LANDED, "parried", "parried_special"):
        rows = options["missile_locations" if table == "missile" else "melee_locations"]
        if table == "high_ground":
            location = hit_rules.location_of(rows, dice.roll("location", 1, 10, 10).total)
        else:
            location = hit_rules.location_of(rows, dice.roll("location", 1, 20).total)
    return {"attack": face, "attack_degree": degree, "defence": d_face, "defence_degree": d_degree,
            "outcome": result, "location": location}


def to_hit_odds(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    """The to-hit odds, the attack and defence checks and the options read (remembered when no option is
    sent)."""
    if not body["options"]:  # a pure answer under the default options: remembered
        key = (body["attack"], body["attack_modifier"], *(tuple(sorted(body[part].items()))
                                                          for part in ("weapon", "situation", "defence")))
        try:
            return _default_to_hit(key, body)
        except TypeError:  # an unhashable value: work it out
            pass
    return _work_to_hit(body)


def _default_to_hit(key: tuple, body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    slot = (_TO_HIT_MEMO, key)
    found = memo.STORE.get(slot)
    if found is memo.MISSING:
        answer, attack, guard, options = _work_to_hit(body)
        memo.STORE.put(slot, (answer, attack, guard))  # not the options: the defaults, the same every time
        return answer, attack, guard, options
    return (*found, kit.options("runequest-house", body))


_TO_HIT_MEMO = memo.new_tag()  # the default-options to-hit odds, in the rules' memo store (bounded by bytes)


def _work_to_hit(body: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any, Mapping[str, Any]]:
    options = kit.options("runequest-house", body)
    attack, guard, used = _odds_of_attack(body, options)
    odds = hit_rules.outcome_probabilities(attack.bands, guard)
    landed = hit_rules.landed_chance(odds)
    table = hit_rules.location_table(body["weapon"], body["situation"])
    places = hit_rules.location_probabilities(table, options)
    answer = {
        "attack_effective": attack.effective, "attack_bands": attack.bands.as_dict(),
        "defence_effective": guard.check.effective if guard.check else None,
        "defence_bands": guard.check.bands.as_dict() if guard.check else None,
        "defence_critical_only": guard.critical_only, **kit.exact("defence_chance", hit_rules.defence_chance(guard)),
        **kit.exact("chance", landed), **kit.exact("probabilities", odds), "location_table": table,
        **kit.exact("location_probabilities", places), "assumptions": used,
        "trace": kit.trace((*attack.trace, *(guard.check.trace if guard.check else ())))}
    return answer, attack, guard, options


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
    out["knockback"] = knock(went, weapon["type"], degree, target, options)
    return out


def knock(went: Any, weapon_type: str, degree: str, target: Mapping[str, Any],
           options: Mapping[str, Any]) -> dict[str, Any] | None:
    if target.get("siz") is None:
        return None
    counted = went.through_parry if options["knockback_damage"] == "after_parry_before_armor" else went.to_location
    impaled = weapon_type == "impale" and degree != "success" and went.to_location > 0 \
        and options["special_damage"] == "rq3"
    who = kb.Target(target["siz"], target.get("str"), target.get("dex"), target.get("braced", False))
    return kb.knockback(counted, weapon_type, who, options, went.to_location > 0, impaled).as_dict()
