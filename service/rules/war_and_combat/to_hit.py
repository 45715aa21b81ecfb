"""Chance to hit: a melee attack against Defense, or a shot against a range target level, with armor
defence bonuses (glances), criticals, extra impact dice and the location struck (*Flurry Procedure ›
Resolution of Attacks*, *Damage › Critical Hits*, *Ranged Combat*, HIT LOCATIONS)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from service.rules.dice import DiceSource
from service.rules.errors import OutOfRange, RulesError
from service.rules.trace import Step
from service.rules.war_and_combat import task
from service.rules.war_and_combat.exact import THREE_D6
from service.rules.war_and_combat.tables import cached

BANDS = ("point_blank", "short", "medium", "long", "extreme")
BAND_LIMIT = {"point_blank": Fraction(1, 10), "short": Fraction(1), "medium": Fraction(2), "long": Fraction(3),
              "extreme": Fraction(5)}
TARGET_STATES = ("unaware_unmoving", "unaware_moving", "unaware_erratic", "aware_evading")
OUTCOMES = ("miss", "glance", "hit", "critical")


@dataclass(frozen=True)
class Question:
    """One attack or shot: target level, everything added to 3d6, armor defence bonus by general location,
    and a called location (missiles only)."""

    mode: str
    tl: int
    roll_bonus: int
    defence_bonus: Mapping[str, int] = field(default_factory=dict)
    called: str | None = None


@dataclass
class Odds:
    """Exact outcome odds of a Question; `extra_dice` is P(lands with k extra dice)."""

    need: int
    probabilities: dict[str, Fraction]
    extra_dice: dict[int, Fraction]
    locations: dict[str, Fraction]
    # (3d6 total, general location, weight over 216*216, outcome, extra dice) of every landing branch
    branches: list[tuple[int, str, int, str, int]]

    @property
    def chance(self) -> Fraction:
        """P(the blow lands): hit + critical."""
        return self.probabilities["hit"] + self.probabilities["critical"]


@dataclass
class Rolled:
    """A rolled attack: total, margin, outcome, extra dice and the location (general and specific)."""

    total: int
    margin: int
    outcome: str
    extra_dice: int
    location_roll: int | None
    general: str | None
    location: str | None

    def as_dict(self) -> dict[str, Any]:
        """The `roll` object of the to-hit answer."""
        return {"total": self.total, "margin": self.margin, "outcome": self.outcome, "extra_dice": self.extra_dice,
                "location_roll": self.location_roll, "location": self.location}


def missile_band(distance_m: Fraction, base_range_m: Fraction) -> str:
    """The first range band whose limit the distance does not exceed (MISSILE TARGETING BY RANGE)."""
    for band in BANDS:
        if distance_m <= base_range_m * BAND_LIMIT[band]:
            return band
    raise OutOfRange(f"{float(distance_m)} m is beyond extreme range (5 x {float(base_range_m)} m)",
                     ("missile", "distance_m"))


def missile_tl(target_state: str, band: str, into_melee: bool, target: Mapping[str, int] | None,
               options: Mapping[str, Any], steps: list[Step]) -> int:
    """Target level of a shot: the target-state base plus the range modifier, +5 into a melee; a point-blank
    shot at an aware target is rolled against melee Defense (MOVING TARGET MODIFIERS TO RANGED ATTACKS,
    *Firing Into a Mêlée*, *Ranged Combat*)."""
    range_mod = next(r["range_modifier"] for r in cached("missile_range") if r["band"] == band)
    row = next(r for r in cached("missile_target") if r["target_state"] == target_state)
    if row["adds_target_defence"] and target is None:
        raise RulesError("an aware, evading target needs `target` (fighter_rank, agl_mod)", ("missile", "target"))
    if target_state == "aware_evading" and band == "point_blank" and options["point_blank_aware_as_melee"]:
        tl = task.base_defence(target["fighter_rank"], target.get("agl_mod", 0))  # type: ignore[index]
        steps.append(Step("Ranged Combat", "point blank at an aware target: a confrontation against melee Defense",
                          tl))
    else:
        tl = row["base"] + range_mod
        if row["adds_target_defence"]:
            fr, agl = target["fighter_rank"], target.get("agl_mod", 0)  # type: ignore[index]
            term = fr + agl if options["evading_defence"] == "modifier" else task.base_defence(fr, agl)
            tl += term
            steps.append(Step("MOVING TARGET MODIFIERS TO RANGED ATTACKS",
                              f"aware, evading: {row['base']} + target's defence term {term} + range {range_mod}",
                              tl))
        else:
            steps.append(Step("MOVING TARGET MODIFIERS TO RANGED ATTACKS",
                              f"{target_state}: {row['base']} + range modifier {range_mod} ({band})", tl))
    if into_melee:
        tl += 5
        steps.append(Step("Firing Into a Mêlée", "target obstructed by moving bodies: +5", tl))
    return tl


def called_shot_penalty(band: str, sub_location: bool) -> int:
    """Penalty of a called shot: point blank 0 (sub-location -3), short -2 (-5); beyond short the location
    is random (*Missile Range Modifiers*)."""
    if band == "point_blank":
        return -3 if sub_location else 0
    if band == "short":
        return -5 if sub_location else -2
    raise RulesError("beyond short range hit locations are random: no called shot", ("called_shot",))


def _margin_base(tl: int, bonus: int, options: Mapping[str, Any]) -> int:
    return tl + (bonus if options["critical_margin_includes_armor_bonus"] else 0)


def odds(question: Question, options: Mapping[str, Any]) -> Odds:
    """Exact odds of miss, glance, hit and critical over the attack roll and the location roll, the extra
    dice of every landing blow and the location distribution (*Resolution of Attacks*, *Critical Hits*)."""
    tie = options["tie_succeeds"]
    locations = ({question.called: 216} if question.called else task.location_counts())
    whole = 216 * 216
    counts = {name: 0 for name in OUTCOMES}
    extra: dict[int, int] = {0: 0}
    branches = []
    for total3, count in THREE_D6.items():
        total = total3 + question.roll_bonus
        if not task.succeeds(total, question.tl, tie):
            counts["miss"] += count * 216
            continue
        for general, lcount in locations.items():
            weight = count * lcount
            bonus = question.defence_bonus.get(general, 0)
            if not task.succeeds(total, question.tl + bonus, tie):
                counts["glance"] += weight
                continue
            margin = total - _margin_base(question.tl, bonus, options)
            k = margin // 5 if margin >= 5 else 0
            outcome = "critical" if margin >= 5 else "hit"
            counts[outcome] += weight
            extra[k] = extra.get(k, 0) + weight
            branches.append((total3, general, weight, outcome, k))
    top = max(extra)
    return Odds(task.need(question.tl, question.roll_bonus, tie),
                {k: Fraction(v, whole) for k, v in counts.items()},
                {k: Fraction(extra.get(k, 0), whole) for k in range(top + 1)},
                {name: Fraction(locations.get(name, 0), 216) for name in task.GENERAL}, branches)


def side_of(options: Mapping[str, Any], dice: DiceSource, combatant: str | None = None) -> int:
    """Which limb (1 = left, 2 = right) an arm or leg hit strikes: a d2 under `random`, the left under
    `opposite` (a right-handed attacker) and `front` (*Resolution of Attacks*, side of limb)."""
    if options["limb_side"] == "random":
        return dice.roll("side", 1, 2, combatant=combatant).total
    return 1


def roll(question: Question, options: Mapping[str, Any], dice: DiceSource, combatant: str | None = None,
         steps: list[Step] | None = None) -> Rolled:
    """Roll one attack: 3d6 + bonus; on beating the TL the location (unless called) and the armor's defence
    bonus decide glance, hit or critical (*Resolution of Attacks*, *Critical Hits*)."""
    tie = options["tie_succeeds"]
    attack = dice.roll("attack", 3, 6, combatant=combatant)
    total = attack.total + question.roll_bonus
    if steps is not None:
        steps.append(Step("Resolution of Attacks", f"3d6 {list(attack.dice)} + {question.roll_bonus} = {total} "
                          f"against TL {question.tl}", total))
    if not task.succeeds(total, question.tl, tie):
        return Rolled(total, total - question.tl, "miss", 0, None, None, None)
    if question.called:
        general, location_roll = question.called, None
    else:
        location_roll = dice.roll("location", 3, 6, combatant=combatant).total
        general = task.general_location(location_roll)
    side = side_of(options, dice, combatant) if general in ("arm", "leg") else None
    location = task.specific_of(general, side)
    bonus = question.defence_bonus.get(general, 0)
    margin = total - _margin_base(question.tl, bonus, options)
    if not task.succeeds(total, question.tl + bonus, tie):
        outcome = "glance"
    else:
        outcome = "critical" if margin >= 5 else "hit"
    k = margin // 5 if outcome == "critical" else 0
    if steps is not None:
        steps.append(Step("HIT LOCATIONS", f"location roll {location_roll} -> {location}; armor defence bonus "
                          f"{bonus}: {outcome}, margin {margin}", location))
    return Rolled(total, margin, outcome, k, location_roll, general, location)
