"""POST /v1/runequest-house/damage, /armor and /knockback: a landed blow, layered armor and knockback (rules
document §5, §12)."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from service.api.kit import calculator as kit
from service.api.runequest_house.calculators import blp, knock, roll_damage
from service.api.runequest_house.schemas.damage import (
    ArmorRequestSchema,
    ArmorSchema,
    DamageRequestSchema,
    DamageSchema,
    KnockbackAnswerSchema,
    KnockbackRequestSchema,
)
from service.rules import memo
from service.rules.errors import Contradiction, UnknownName
from service.rules.memo import remembered
from service.rules.runequest_house import armor, stats
from service.rules.runequest_house import knockback as kb
from service.rules.runequest_house.damage import blow, passage, passage_distribution
from service.rules.runequest_house.dice_expr import parse
from service.rules.trace import Step

KNOCKBACK_OPTIONS = ("knockback_damage", "special_damage", "braced_extra_from", "critical_ignores_parry_ap",
                     "collision_min_dice")


@memo.bounded
def _spread_pair(expression: Any, degree: str, parry_degree: str, parry_ap: int, armor_ap: int,
                 ignores: bool) -> dict[str, Any]:
    """`probabilities` and `probabilities_exact` of the damage reaching the location (pure, so remembered)."""
    spread = passage_distribution(expression, degree, parry_degree, parry_ap, armor_ap,
                                  {"critical_ignores_parry_ap": ignores})
    return kit.exact("probabilities", spread)


@memo.bounded
def _knockback_chance(expression: Any, weapon_type: str, degree: str, parry_degree: str, parry_ap: int,
                      armor_ap: int, siz: int, strength: int | None, braced: bool, values: tuple) -> Fraction:
    """P(any knockback) over the blow's exact damage distribution (pure, so remembered)."""
    options = dict(zip(KNOCKBACK_OPTIONS, values))
    target = {"siz": siz, "str": strength, "dex": None, "braced": braced}
    chance = Fraction(0)
    for value, p in expression.distribution().items():
        went = passage(value, degree, parry_degree, parry_ap, armor_ap, options)
        found = knock(went, weapon_type, degree, target, options)
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


@kit.calculator(blp, "/damage", "runequestHouseDamage", (DamageRequestSchema, DamageSchema))
def damage_answer(body: dict[str, Any]) -> dict[str, Any]:
    """One landed blow (rules document §5): special and critical damage, parry absorption, armor (ignored by
    criticals), the exact distribution of the points reaching the location, HP and knockback."""
    options = kit.options("runequest-house", body)
    remembered_odds, blow_used = _damage_odds(body, options)
    odds = dict(remembered_odds)  # the remembered answer is shared: never changed in place
    dice, roll = kit.dice(body), None
    if dice is not None:
        weapon, bonus, degree, parry_degree, armor_ap = blow_used
        target = body["target"]
        roll = roll_damage(dice, {**body, "damage_bonus": bonus}, weapon, degree, parry_degree, body["parry"]["ap"],
                           armor_ap, body["location"], {**target, "location_hp": None}, options,
                           target["location_hp"])
    assumptions, steps = odds.pop("assumptions"), odds.pop("trace")
    return {**odds, "roll": roll, **kit.rolled(dice),
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
            **{name: dict(values) for name, values in spread.items()}, **kit.exact("knockback_chance", chance),
            "assumptions": used, "trace": kit.trace(steps)}
    return odds, (weapon, bonus, degree, parry_degree, layers.ap)


@kit.calculator(blp, "/armor", "runequestHouseArmor", (ArmorRequestSchema, ArmorSchema), signed=False)
def armor_view(body: dict[str, Any]) -> dict[str, Any]:
    """Layered AP of one location (*Page 68*): the highest piece plus half (rounded up) of the lower ones,
    plus protective spells."""
    options = kit.options("runequest-house", body)
    found = armor.layered(body["layers"], body["protection"], options)
    detail = f"{found.highest} + {found.layer_bonus} ({options['layering']}) + {body['protection']} protection"
    return {"ap": found.ap, "highest": found.highest, "layer_bonus": found.layer_bonus,
            "trace": [{"rule": "Page 68", "detail": detail, "value": found.ap}]}


@kit.calculator(blp, "/knockback", "runequestHouseKnockback", (KnockbackRequestSchema, KnockbackAnswerSchema),
                signed=False)
def knockback_view(body: dict[str, Any]) -> dict[str, Any]:
    """Knockback distance and the DEX roll to stay up from one damage figure (*Page 49*, *Bracing Against
    Knockback*, *Knockback Into Small Objects, People and Solid Objects*)."""
    options = kit.options("runequest-house", body)
    target = body["target"]
    who = kb.Target(target["siz"], target["str"], target["dex"], target["braced"], target["mounted"])
    found = kb.knockback(body["damage"], body["weapon_type"], who, options, body["penetrated"], body["impaled"],
                         body["obstacle"])
    detail = f"{found.knockback_damage} counted against {found.threshold}: {found.metres} m"
    return {**found.as_dict(), "trace": [{"rule": "Page 49", "detail": detail, "value": found.metres}]}
