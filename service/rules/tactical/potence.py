"""Getting Hit: The POT of Blows (table 6-5), Damage Multipliers, Knock-Back and street clothes.

RULINGS 10 and 11 (digest F9-F18, A16-A18, A25, A26, A47). Exact fractions until the one final
rounding of each formula.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from service.rules.errors import Contradiction, OutOfRange, UnknownName
from service.rules.rounding import Progression, progressive, round_half_up
from service.rules.tactical import tables
from service.rules.tactical.wounds import strength_factor
from service.rules.trace import Step, fmt

Grip = Literal["one-handed", "hand-and-a-half", "two-handed", "hurled", "bow", "crossbow", "brawling"]
Edge = Literal["blunt", "edged", "pointed"]
WEIGHT_CLASSES = ("light", "medium-light", "medium", "medium-heavy", "heavy", "very-heavy")
HANDEDNESS = {"one-handed": Fraction(1, 2), "hurled": Fraction(1, 2), "brawling": Fraction(1, 2),
              "hand-and-a-half": Fraction(3, 4), "two-handed": Fraction(1)}
MISSILE = frozenset({"bow", "crossbow"})
POT_RULE = "Getting Hit: The POT of Blows"
DM_RULE = "Optional Body Point Rules: Damage Multipliers"


@dataclass(frozen=True, slots=True)
class Attacker:
    """The striker's numbers for a blow (RULINGS 11); `wounds` he carries weaken his STR (RULINGS 13)."""

    strength: int
    modified_sta: int
    coordination: int | None = None
    charge_mph: Fraction = Fraction(0)
    wounds: int = 0


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as table 6-5 sees it; `dm` overrides the DM table, `fixed_pot` is a crossbow's POT and
    `days_cocked` the full days it was kept cocked before the shot (RULINGS 25)."""

    grip: Grip
    size: int | None = None
    weight_class: int | str | None = None
    edge: Edge = "blunt"
    arrowhead_db: int = 0
    fixed_pot: int | None = None
    dm: Fraction | None = None
    bodkin: bool = False
    days_cocked: int = 0


@dataclass(frozen=True, slots=True)
class Potence:
    """A blow's POT and the wear it deals to armor (its DB, or the DM bonus under Body Points)."""

    pot: int
    wear: int
    steps: tuple[Step, ...]


def weight_index(value: int | str | None, field: tuple[str, ...] = ("weapon", "weight_class")) -> int:
    """Weight class as an index 0..5, from a name or an index (RULINGS 10, A16)."""
    if isinstance(value, str):
        if value not in WEIGHT_CLASSES:
            raise UnknownName(f"weight class must be one of {', '.join(WEIGHT_CLASSES)}", field)
        return WEIGHT_CLASSES.index(value)
    if value is None:
        raise Contradiction("this grip needs the weapon's weight class", field)
    if not 0 <= value <= 5:
        raise OutOfRange("weight class index must be 0..5", field)
    return value


def _cell(table: str, size: int | None, index: int) -> int | float:
    rows = tables.load(table)["rows"]
    for row in rows:
        if size is not None and row["min"] <= size <= row["max"]:
            return row["values"][index]
    top = rows[-1]["max"]
    raise Contradiction(f"this blow needs weapon.size, 0..{top} for the {table} table", ("weapon", "size"))


def damage_bonus(size: int | None, index: int) -> int:
    """DB from table 6-5 by size (0..20) and weight class index (RULINGS 10)."""
    return int(_cell("weapon-db", size, index))


def damage_multiplier(size: int | None, index: int) -> Fraction:
    """DM from the Weapon DM table by size (0..13) and weight class index (RULINGS 10, A17)."""
    return Fraction(str(_cell("weapon-dm", size, index)))


def _strength(attacker: Attacker, slash: bool) -> tuple[Fraction, Step]:
    if slash and attacker.coordination is None:
        raise Contradiction("a slash uses CRD in place of STR: give attacker.coordination",
                         ("attacker", "coordination"))
    raw = attacker.coordination if slash else attacker.strength
    factor = strength_factor(attacker.wounds)
    name = "CRD" if slash else "STR"
    return raw * factor, Step("RULINGS 13" if factor != 1 else POT_RULE,
                              f"{name} {raw} x wound factor {fmt(factor)}", raw * factor)


def _bonus(weapon: Weapon, base: Fraction, body_points: bool, index: int) -> tuple[Fraction, Step]:
    if not body_points:
        db = damage_bonus(weapon.size, index)
        return Fraction(db), Step("Getting Hit: The POT of Blows (table 6-5)", f"DB {db}", db)
    dm = weapon.dm if weapon.dm is not None else damage_multiplier(weapon.size, index)
    source = "weapon.dm" if weapon.dm is not None else "DM table"
    return base * dm, Step(DM_RULE, f"DM {fmt(dm)} ({source}) x base {fmt(base)}", base * dm)


def _charge_ignored(attacker: Attacker, weapon: Weapon) -> list[Step]:
    """A charge's speed adds to melee blows only: for hurled and missile weapons it is noted and left out."""
    if attacker.charge_mph and weapon.grip in MISSILE | {"hurled"}:
        return [Step(POT_RULE, f"charge speed {fmt(attacker.charge_mph)} mph not added: a charge excludes "
                               "hurled and missile weapons", 0)]
    return []


def _speeds(attacker: Attacker, weapon: Weapon, moving_mph: Fraction) -> tuple[Fraction, list[Step]]:
    ignored = _charge_ignored(attacker, weapon)
    charge = Fraction(0) if ignored else attacker.charge_mph
    steps = ignored or ([Step(POT_RULE, f"charge +{fmt(charge)} mph", charge)] if charge else [])
    if moving_mph:
        steps.append(Step(POT_RULE, f"opportunity hit on a moving foe +{fmt(moving_mph)} mph", moving_mph))
    return charge + moving_mph, steps


def _melee(attacker: Attacker, weapon: Weapon, slash: bool, body_points: bool,
           moving_mph: Fraction) -> Potence:
    strength, s_step = _strength(attacker, slash)
    index = weight_index(weapon.weight_class)
    share = HANDEDNESS[weapon.grip]
    base = (attacker.modified_sta + strength) * share
    steps = [s_step, Step(POT_RULE, f"base ({weapon.grip}) = (mSTA {attacker.modified_sta} + "
                                    f"{fmt(strength)}) x {fmt(share)}", base)]
    bonus, b_step = _bonus(weapon, base, body_points, index)
    speeds, v_steps = _speeds(attacker, weapon, moving_mph)
    total = base + bonus + speeds
    steps += [b_step, *v_steps]
    if weapon.grip == "brawling":
        total /= 10
        steps.append(Step("Referee ruling", "brawling: one tenth of the blow is real", total))
    pot = round_half_up(total)
    wear = round_half_up(bonus / 10 if weapon.grip == "brawling" else bonus)
    return Potence(pot, wear, (*steps, Step("RULINGS 2", "POT rounded half up", pot)))


def _bow(attacker: Attacker, weapon: Weapon, body_points: bool) -> Potence:
    strength, s_step = _strength(attacker, False)
    bonus, b_step = _bonus(weapon, strength, body_points, 0)
    total = strength + bonus + weapon.arrowhead_db
    pot = round_half_up(total)
    steps = (s_step, Step("A47", "bows and slings: full STR, bow DB as Light", strength), b_step,
             Step("A47", f"arrowhead DB {weapon.arrowhead_db}", weapon.arrowhead_db),
             Step("RULINGS 2", "POT rounded half up", pot))
    return Potence(pot, round_half_up(bonus + weapon.arrowhead_db), steps)


def kept_cocked(days_cocked: int) -> tuple[int, Step]:
    """"A Word about Crossbows" with RULINGS 25: -1 to the damage (POT) of a shot per full day the crossbow
    was kept cocked; the days are the GM's call, 0 by default."""
    if days_cocked < 0:
        raise OutOfRange("days_cocked counts full days, 0 or more", ("weapon", "days_cocked"))
    return -days_cocked, Step("A Word about Crossbows (RULINGS 25)", f"kept cocked {days_cocked} full days: "
                                                                     f"-{days_cocked} POT", -days_cocked)


def _crossbow(weapon: Weapon) -> Potence:
    if weapon.fixed_pot is None:
        raise Contradiction("a crossbow does a fixed POT: give weapon.fixed_pot", ("weapon", "fixed_pot"))
    wear = 0 if weapon.size is None else damage_bonus(weapon.size, weight_index(weapon.weight_class))
    steps = [Step(POT_RULE, f"crossbow: fixed POT {weapon.fixed_pot}", weapon.fixed_pot)]
    pot = weapon.fixed_pot
    if weapon.days_cocked:
        penalty, step = kept_cocked(weapon.days_cocked)
        pot = max(0, pot + penalty)
        steps += [step, Step(POT_RULE, "POT after the days kept cocked, at least 0", pot)]
    return Potence(pot, wear, (*steps, Step("Referee ruling", "crossbow wear: DB of its size and class when "
                                                              "given, else 0", wear)))


def blow_potence(attacker: Attacker, weapon: Weapon, *, slash: bool = False, body_points: bool = False,
                 moving_mph: Fraction = Fraction(0), heroic_double: bool = False) -> Potence:
    """POT of a landed blow (Getting Hit: The POT of Blows; RULINGS 11; F9-F15)."""
    if weapon.grip in ("crossbow", "bow"):
        found = _crossbow(weapon) if weapon.grip == "crossbow" else _bow(attacker, weapon, body_points)
        found = Potence(found.pot, found.wear, (*_charge_ignored(attacker, weapon), *found.steps))
    else:
        found = _melee(attacker, weapon, slash, body_points, moving_mph)
    if not heroic_double:
        return found
    doubled = found.pot * 2
    return Potence(doubled, found.wear, (*found.steps, Step("RULINGS 6", "Heroic hit doubles POT", doubled)))


@dataclass(frozen=True, slots=True)
class KnockBack:
    """Feet knocked back, the AGL DV to keep one's feet, and the barrier bonus to the POT's effect."""

    feet: int
    keep_feet_dv: int
    barrier_bonus: int
    steps: tuple[Step, ...]


def knock_back(pot: int, modified_sta: int, barrier_feet: Fraction | None = None,
               scheme: Progression = "triangular") -> KnockBack:
    """Getting Hit: Knock-Back (F16, F17, A25): full POT over mSTA, in feet; a barrier adds what is left."""
    feet = max(0, pot - modified_sta)
    dv = progressive(feet, scheme)
    steps = [Step("Getting Hit: Knock-Back", f"POT {pot} - mSTA {modified_sta}, at least 0 (feet)", feet),
             Step("RULINGS 3", f"keep feet: AGL check vs progressive({feet}) ({scheme})", dv)]
    bonus = 0
    if barrier_feet is not None and feet:
        bonus = round_half_up(max(Fraction(0), feet - barrier_feet))
        steps.append(Step("A25", f"barrier at {fmt(barrier_feet)} ft: feet not travelled add to POT", bonus))
    return KnockBack(feet, dv, bonus, tuple(steps))


def street_clothes(pot: int, layers: int, armored: bool, edge: Edge,
                   first_edged_blow: bool) -> tuple[int, Step]:
    """Getting Hit: Knock-Back, street clothes (F18, A26): half the layers off the first edged blow."""
    if armored or edge != "edged" or not first_edged_blow or layers <= 0:
        return pot, Step("A26", "street clothes do not count (armor worn, not edged, or not the first "
                                "edged blow)", pot)
    cut = round_half_up(Fraction(layers, 2))
    return max(0, pot - cut), Step("A26", f"street clothes: {layers} layers, POT -{cut}", max(0, pot - cut))
