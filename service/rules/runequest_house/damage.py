"""Damage of a landed blow: special and critical damage, parry absorption, armor, hit points and wounds
(rules document §5; seed *4) Post Melee Move Phase* closing paragraph, *Combat Options › Standard Parry*)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.rules import memo
from service.rules.runequest_house.dice_expr import Expression, parse
from service.rules.runequest_house.pack import LIMBS

VITALS = ("head", "chest", "abdomen")


def blow(weapon_damage: str, weapon_type: str, bonus: str, degree: str, options: Mapping[str, Any]) -> Expression:
    """What is rolled for a blow of `degree` [CORE special damage]: a special or critical impale or slash
    rolls the weapon's damage twice and the bonus once; a special crush takes the bonus at its maximum;
    `critical_max` (against a fumbled dodge) is the maximum of the critical's damage."""
    weapon = parse(weapon_damage, ("weapon", "damage"))
    db = parse(bonus, ("damage_bonus",))
    special = degree in ("special", "critical", "critical_max") and options["special_damage"] == "rq3"
    if not special:
        made = weapon.plus(db)
    elif weapon_type == "crush":
        made = weapon.plus(Expression((), db.maximum()))
    else:
        made = weapon.twice().plus(db)
    if degree == "critical_max":
        return Expression((), made.maximum())
    return made


@dataclass(frozen=True, slots=True)
class Passage:
    """Where one damage figure goes: through a parry, into armor, into the location."""

    damage: int
    through_parry: int
    parry_ap_loss: int
    armor_absorbed: int
    to_location: int


def passage(damage: int, attack_degree: str, parry_degree: str, parry_ap: int, armor_ap: int,
            options: Mapping[str, Any]) -> Passage:
    """*Standard Parry*: a successful parry's item absorbs up to its AP and loses 1 AP when the damage
    exceeds it (a special parry only against criticals [INF]); a critical parry stops everything. Then the
    location's armor, ignored by a critical (*4) Post Melee Move Phase*)."""
    damage = max(0, damage)
    critical = attack_degree in ("critical", "critical_max")
    through, loss = damage, 0
    if parry_degree == "critical":
        through = 0
    elif parry_degree in ("success", "special"):
        ignores = critical and options["critical_ignores_parry_ap"]
        through = damage if ignores else max(0, damage - parry_ap)
        if damage > parry_ap and (parry_degree == "success" or critical):
            loss = 1
    armor = 0 if critical else armor_ap
    absorbed = min(armor, through)
    return Passage(damage, through, loss, absorbed, through - absorbed)


def passage_distribution(expression: Expression, attack_degree: str, parry_degree: str, parry_ap: int,
                         armor_ap: int, options: Mapping[str, Any]) -> dict[int, Fraction]:
    """Exact distribution of the damage reaching the location's HP."""
    return dict(_spread(expression, attack_degree, parry_degree, parry_ap, armor_ap,
                        options["critical_ignores_parry_ap"]))


@memo.bounded
def _spread(expression: Expression, attack_degree: str, parry_degree: str, parry_ap: int, armor_ap: int,
            ignores: bool) -> tuple[tuple[int, Fraction], ...]:
    options = {"critical_ignores_parry_ap": ignores}
    out: dict[int, Fraction] = {}
    for value, p in expression.distribution().items():
        reach = passage(value, attack_degree, parry_degree, parry_ap, armor_ap, options).to_location
        out[reach] = out.get(reach, Fraction(0)) + p
    return tuple(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class Wound:
    """A location and the total after one blow."""

    location_hp_after: int
    hp_after: int
    location_state: str
    dead: bool


def wound(location: str, to_location: int, location_hp: int, location_max: int, hp: int) -> Wound:
    """Wound consequences [DEF `rq3_like`]: a limb at 0 or less is useless, a blow of twice its HP severs
    it and only twice its HP counts against the total; head at 0 unconscious, chest or abdomen at 0
    incapacitated, a blow of twice their HP dying; total HP at 0 or less: dead."""
    after = location_hp - to_location
    severe = to_location >= 2 * location_max
    counted = min(to_location, 2 * location_max) if location in LIMBS else to_location
    hp_after = hp - counted
    if location in LIMBS:
        state = "severed" if severe else ("useless" if after <= 0 else "ok")
    elif severe:
        state = "dying"
    elif after <= 0:
        state = "unconscious" if location == "head" else "incapacitated"
    else:
        state = "ok"
    return Wound(after, hp_after, state, hp_after <= 0)
