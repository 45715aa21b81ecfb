"""Damage of a landed blow: impact dice from the impact cap, absorption, penetration, severity against
the size thresholds, the wound's nature and effect (*Damage › Strike Results Procedure*, IMPACT CAP,
*Impact Absorption*, *Penetration*, DAMAGE THRESHOLDS, *Wound Severity*, *Wound Effects*, COMBAT OPTIONS)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from service.rules import memo
from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.trace import Step
from service.rules.war_and_combat import task
from service.rules.war_and_combat.exact import convolve, dice_counts
from service.rules.war_and_combat.tables import cached

SEVERITIES = ("light", "serious", "critical", "mortal")
RESULT_KEYS = ("none", "light_blunt", "light_penetrating", "serious_blunt", "serious_penetrating",
               "critical_blunt", "critical_penetrating", "mortal_blunt", "mortal_penetrating")
ATTACK_TYPES = ("strike", "disarm", "grapple", "subdual", "tackle", "throw")
DAMAGE_TYPES = ("cut", "pierce", "blunt")
COLUMNS = ("superficial", "light", "serious", "critical")
PENALTY = {"none": 0, "light": -1, "serious": -3, "critical": -7, "mortal": None}


@dataclass(frozen=True)
class ImpactDice:
    """A weapon's impact dice: `count` d`sides` + `offset` (a flat point is 0d6 + 1, nothing is 0d6 + 0)."""

    count: int
    sides: int
    offset: int

    @property
    def text(self) -> str:
        """The contract's form: "0", "1", "1d3", "1d6", "2d6-1" ... (IMPACT CAP)."""
        if self.count == 0:
            return str(self.offset)
        return f"{self.count}d{self.sides}" + (f"{self.offset:+d}" if self.offset else "")


def impact_dice(cap: int, options: Mapping[str, Any]) -> ImpactDice:
    """Impact dice of an impact cap: a flat point for -7..-3, 1d3 for -2..2, then k = floor((cap + 2) / 5)
    d6 minus (k - 1) (IMPACT CAP; past 47 per `impact_beyond_table`, below -7 per `impact_below_table`)."""
    if cap < -7:
        return ImpactDice(0, 6, 1 if options["impact_below_table"] == "one_point" else 0)
    if cap <= -3:
        return ImpactDice(0, 6, 1)
    if cap <= 2:
        return ImpactDice(1, 3, 0)
    k = (cap + 2) // 5
    if k > 9 and options["impact_beyond_table"] == "cap":
        k = 9
    return ImpactDice(k, 6, -(k - 1))


def thresholds(size: int, options: Mapping[str, Any]) -> tuple[int, int, int]:
    """Impaired, Disabled and Destroyed thresholds of a size: 0/0/1 below 1, 0/1/2 at 1, then ceil(size/2),
    size, 2 x size (DAMAGE THRESHOLDS; past 36 per `size_beyond_table`)."""
    if size < 1:
        return 0, 0, 1
    if size == 1:
        return 0, 1, 2
    if size > 36 and options["size_beyond_table"] == "cap":
        size = 36
    return math.ceil(size / 2), size, 2 * size


def severity(effective: int, limits: tuple[int, int, int]) -> str:
    """Wound severity of an effective impact: none at 0 or less, then light up to Impaired, serious up to
    Disabled, critical up to Destroyed, mortal past it (*Wound Severity*: "exceed" is strict)."""
    impaired, disabled, destroyed = limits
    if effective <= 0:
        return "none"
    if effective <= impaired:
        return "light"
    if effective <= disabled:
        return "serious"
    if effective <= destroyed:
        return "critical"
    return "mortal"


def effect_of(general: str, grade: str) -> str | None:
    """The game effect of a wound at a general location (*Wound Effects* table; none for a light wound to
    head, chest or belly)."""
    if grade == "none":
        return None
    return cached("wound_effects")[general][grade]


def column(effective: int, limits: tuple[int, int, int]) -> str:
    """COMBAT OPTIONS column of a non-strike attack: superficial up to Impaired, light up to Disabled,
    serious up to Destroyed, critical past it (option `combat_option_column`)."""
    impaired, disabled, destroyed = limits
    if effective <= impaired:
        return "superficial"
    if effective <= disabled:
        return "light"
    if effective <= destroyed:
        return "serious"
    return "critical"


def combat_option(attack_type: str, col: str) -> dict[str, Any]:
    """The secondary effect of a disarm, grapple, subdual, tackle or throw in a column: the check, its TL
    and the attribute it uses (COMBAT OPTIONS, *Secondary Effects*; subdual's attribute is STR [DEF])."""
    row = next(r for r in cached("combat_options") if r["attack"] == attack_type)
    text = row[col]
    name, _, number = text.partition("-")
    return {"column": col, "effect": name.lower(), "tl": int(number) if number else None,
            "check_attribute": row["attribute"]}


@dataclass(frozen=True)
class Blow:
    """Everything a landed blow needs besides its dice."""

    dice: ImpactDice
    extra: int
    keeps_offset: bool
    absorption: int
    penetration_limit: int | None
    limits: tuple[int, int, int]
    damage_type: str
    general: str

    @property
    def critical(self) -> bool:
        """A critical blow ignores absorption and always penetrates (*Critical Hits*)."""
        return self.penetration_limit is None

    @property
    def expression(self) -> str:
        """The whole impact roll: extra d6 merged into kd6, appended to 1d3 or a flat point."""
        d, n = self.dice, self.extra
        if n == 0:
            return d.text
        if d.count and d.sides == 6:
            offset = d.offset if self.keeps_offset else 0
            return f"{d.count + n}d6" + (f"{offset:+d}" if offset else "")
        if d.count == 0:
            return f"{d.offset}+{n}d6" if d.offset else f"{n}d6"
        return f"{d.text}+{n}d6"

    def offset(self) -> int:
        """The constant added to the dice (dropped on a critical unless `critical_keeps_offset`)."""
        if self.extra and self.dice.count and self.dice.sides == 6 and not self.keeps_offset:
            return 0
        return self.dice.offset

    def effective(self, impact: int) -> int:
        """Effective impact: impact less absorption, or all of it on a critical (*Strike Results Procedure*)."""
        return impact if self.critical else impact - self.absorption

    def penetrates(self, effective: int) -> bool:
        """Whether the blow penetrates: always on a critical, else past PT - PV (*Penetration*)."""
        return self.critical or (effective > 0 and effective > self.penetration_limit)  # type: ignore[operator]


def result_key(grade: str, penetrating: bool) -> str:
    """The probability key of a blow's result (`none`, `light_blunt`, `serious_penetrating`, ...)."""
    return "none" if grade == "none" else f"{grade}_{'penetrating' if penetrating else 'blunt'}"


@memo.bounded
def impact_counts(blow: Blow) -> dict[int, int]:
    """Counts of every impact total of a blow (weapon dice + extra d6 + offset) (*Damage › Impact*)."""
    counts = convolve(dice_counts(blow.dice.count, blow.dice.sides), dice_counts(blow.extra, 6))
    offset = blow.offset()
    return {total + offset: n for total, n in counts.items()}


@memo.bounded
def distribution(blow: Blow) -> dict[str, Fraction]:
    """Exact distribution of a blow's result over its impact dice (*Strike Results Procedure*)."""
    counts = impact_counts(blow)
    whole = sum(counts.values())
    out = {key: 0 for key in RESULT_KEYS}
    for impact, n in counts.items():
        effective = blow.effective(impact)
        out[result_key(severity(effective, blow.limits), blow.penetrates(effective))] += n
    return {key: Fraction(v, whole) for key, v in out.items()}


def column_distribution(blow: Blow) -> dict[str, Fraction]:
    """Exact distribution of the COMBAT OPTIONS column of a non-strike attack over its impact dice."""
    counts = impact_counts(blow)
    whole = sum(counts.values())
    out = {name: 0 for name in COLUMNS}
    for impact, n in counts.items():
        out[column(blow.effective(impact), blow.limits)] += n
    return {key: Fraction(v, whole) for key, v in out.items()}


@dataclass
class Landed:
    """A rolled blow: impact, effective impact, penetration, severity, nature and effect."""

    impact: int
    effective: int
    penetrating: bool
    severity: str
    wound_type: str | None
    effects: list[str]
    action_penalty: int | None

    def as_dict(self) -> dict[str, Any]:
        """The `roll` object of the damage answer."""
        return {"impact": self.impact, "effective_impact": self.effective, "penetrating": self.penetrating,
                "severity": self.severity, "wound_type": self.wound_type, "effects": self.effects,
                "action_penalty": self.action_penalty}


def roll_impact(blow: Blow, dice: DiceSource, combatant: str | None = None) -> int:
    """Roll a blow's impact: the weapon's dice (role `impact`) then the critical's extra d6 (role `critical`)."""
    total = blow.offset()
    if blow.dice.count:
        total += dice.roll("impact", blow.dice.count, blow.dice.sides, combatant=combatant).total
    if blow.extra:
        total += dice.roll("critical", blow.extra, 6, combatant=combatant).total
    return total


def land(blow: Blow, impact: int, wound: bool = True) -> Landed:
    """A blow's result from its impact (*Strike Results Procedure* steps 3-4, *Wound Severity*, *Wound
    Effects*); `wound` false for a non-strike attack, which wounds nobody."""
    effective = blow.effective(impact)
    penetrating = blow.penetrates(effective)
    grade = severity(effective, blow.limits) if wound else "none"
    if grade == "none":
        return Landed(impact, effective, penetrating if wound else False, "none", None, [], 0)
    nature = blow.damage_type if penetrating else "blunt"
    effect = effect_of(blow.general, grade)
    return Landed(impact, effective, penetrating, grade, nature, [effect] if effect else [], PENALTY[grade])


def make_blow(cap: int, margin: int, general: str, size: int, innate: int, armor: Mapping[str, int],
              weapon: Mapping[str, Any], options: Mapping[str, Any], attack_type: str = "strike",
              steps: list[Step] | None = None) -> Blow:
    """Build a landed blow from the impact cap, the attack's margin and the struck location's armor
    (*Strike Results Procedure* step 1, *Critical Hits*, *Impact Absorption*, *Penetration*; tackles ignore
    armor and skip absorption, *Other Attack Options*)."""
    if general not in task.GENERAL:
        raise RulesError(f"unknown location {general!r}", "location")
    dice = impact_dice(cap, options)
    critical = margin >= 5
    extra = margin // 5 if critical else 0
    ignores_armor = attack_type == "tackle"
    absorption = 0 if ignores_armor else innate + armor.get("absorption", 0)
    limit = None if critical else ((0 if ignores_armor else armor.get("penetration_threshold", 0))
                                   - weapon.get("penetration_value", 0))
    limits = thresholds(size, options)
    if steps is not None:
        steps.append(Step("IMPACT CAP", f"impact cap {cap} -> {dice.text}", dice.text))
        if critical:
            steps.append(Step("Critical Hits", f"margin {margin} >= 5: {extra} extra d6, no absorption, "
                              "penetrating", extra))
        else:
            steps.append(Step("Impact Absorption", f"absorption {absorption} (armor + innate); penetration "
                              f"past PT - PV = {limit}", absorption))
        steps.append(Step("DAMAGE THRESHOLDS", f"size {size}: impaired {limits[0]}, disabled {limits[1]}, "
                          f"destroyed {limits[2]}", list(limits)))
    return Blow(dice, extra, options["critical_keeps_offset"], 0 if critical else absorption, limit, limits,
                weapon.get("damage_type", "blunt"), general)
