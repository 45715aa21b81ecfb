"""One whole runequest-house attack (rules document §4-§6): the attack and defence, the location, damage,
parry absorption and armor, as an exact distribution of the points reaching a location's HP."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from service.api.kit import calculator as kit
from service.api.runequest_house.calculators import blp, roll_attack, roll_damage, to_hit_odds
from service.api.runequest_house.schemas.attack import AttackRequestSchema, AttackSchema
from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.runequest_house import armor, to_hit
from service.rules.runequest_house.damage import blow, passage_distribution
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.pack import LOCATIONS


def _attack_weapon(weapon: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(weapon)
    if weapon.get("name") is not None:
        known = options["weapon_pack"]["weapons"]
        if weapon["name"] not in known:
            raise UnknownName(f"unknown weapon {weapon['name']!r}; known: {sorted(known)}", ("weapon", "name"))
        for key in ("damage", "type"):
            if out.get(key) is None:
                out[key] = known[weapon["name"]][key]
    for key in ("damage", "type"):
        if out.get(key) is None:
            raise Contradiction(f"the weapon's {key} (or a weapon-pack name) is required", ("weapon", key))
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


def _distributions(body: Mapping[str, Any], table: str, attack: Any, guard: Any, weapon: Mapping[str, Any],
                   parry_ap: int, options: Mapping[str, Any]) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """The exact odds of each outcome and of the points reaching the location, over every attack and defence
    degree and every location."""
    armor_ap = _armor_at(body["target"], options)
    places = to_hit.location_probabilities(table, options)
    outcome_odds = {"fumble": Fraction(0), "miss": Fraction(0), "no_damage": Fraction(0), "damage": Fraction(0)}
    damage_odds: dict[int, Fraction] = {}
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
    return outcome_odds, damage_odds


def _rolled(dice: Any, body: Mapping[str, Any], table: str, attack: Any, guard: Any, weapon: Mapping[str, Any],
            parry_ap: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The rolled attack and, when it reaches a location, the rolled damage."""
    target = body["target"]
    roll = roll_attack(dice, attack, guard, table, options)
    if roll["location"] is not None:
        degree = roll["attack_degree"]
        degree = {"hit": "success"}.get(roll["outcome"], roll["outcome"]) if roll["outcome"] in to_hit.LANDED else degree
        parry_degree = {"parried": "success", "parried_special": "special"}.get(roll["outcome"], "failure")
        armor_ap = armor.layered(target["armor"].get(roll["location"], []), target["protection"], options).ap
        roll.update(roll_damage(dice, body, weapon, degree, parry_degree, parry_ap, armor_ap, roll["location"],
                                target, options))
    return roll


@kit.calculator(blp, "/attack", "runequestHouseAttack", (AttackRequestSchema, AttackSchema))
def attack_answer(body: dict[str, Any]) -> dict[str, Any]:
    """One whole attack (rules document §4-§6): roll, defence, location, damage, parry absorption and armor,
    as an exact distribution of the points reaching a location's HP."""
    answer, attack, guard, options = to_hit_odds(body)
    weapon = _attack_weapon(body["weapon"], options)
    defence = body["defence"]
    if guard.type == "parry" and defence["ap"] is None:
        raise Contradiction("a parry needs the parrying item's AP", ("defence", "ap"))
    parse(body["damage_bonus"], ("damage_bonus",))
    parry_ap = defence["ap"] or 0
    outcome_odds, damage_odds = _distributions(body, answer["location_table"], attack, guard, weapon, parry_ap,
                                               options)
    dice, roll = kit.dice(body), None
    if dice is not None:
        roll = _rolled(dice, body, answer["location_table"], attack, guard, weapon, parry_ap, options)
    return {**{k: answer[k] for k in ("chance", "chance_exact", "assumptions", "trace")},
            **kit.exact("probabilities", outcome_odds),
            **kit.exact("damage_probabilities", dict(sorted(damage_odds.items()))),
            "roll": roll, **kit.rolled(dice)}
