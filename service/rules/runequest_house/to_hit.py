"""Attack and defence percentages, and the degree outcome of an attack against a dodge or a parry
(rules document §4; seed *1) Statement of Intent*, *Altering Statement of Intent*, *2) Move Phase*,
*Combat Options › Standard Parry*, *Combat Options › Dodge*, *Page 52*, *Page 54*, *Page 63*)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from service.rules.errors import Contradiction, RulesError
from service.rules.runequest_house import percentile
from service.rules.runequest_house.options import fraction
from service.rules.runequest_house.percentile import Bands
from service.rules.trace import Step

NONE_KEYS = ("fumble", "miss", "hit", "special", "critical")
DODGE_KEYS = ("fumble", "miss", "hit", "special", "critical", "critical_max")
PARRY_KEYS = ("fumble", "miss", "parried", "parried_special", "parried_critical", "hit", "special", "critical")
LANDED = ("hit", "special", "critical", "critical_max")
LARGE_SHIELDS = ("hoplite_shield", "large_shield")
SHIELDS = ("buckler", "small_shield", "medium_shield", "hoplite_shield", "large_shield")
ATTACK_DEGREE = {"success": "hit", "special": "special", "critical": "critical"}
ORDER = ("miss", "hit", "special", "critical", "critical_max")
DODGE_SHIFT = {"fumble": 1, "failure": 0, "success": -1, "special": -2, "critical": -3}


@dataclass(frozen=True, slots=True)
class Check:
    """One modified percentage: the effective value, its bands and the steps that made it."""

    effective: int
    bands: Bands
    trace: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Defence:
    """The defence roll's percentage; `critical_only` when only its critical band counts."""

    type: str
    check: Check | None
    critical_only: bool

    def counting_bands(self) -> Bands | None:
        if self.check is None:
            return None
        return percentile.critical_only(self.check.bands) if self.critical_only else self.check.bands


def _check(base: int, additive: list[tuple[int, str]], multipliers: list[tuple[Fraction, str]],
           options: Mapping[str, Any], fumble_multiplier: int = 1, rule: str = "attack") -> Check:
    value = percentile.effective(base, [a for a, _ in additive], [m for m, _ in multipliers],
                                 options["modifier_order"])
    steps = [Step(rule, f"base {base}%", base)]
    steps += [Step(why, f"{amount:+d}%", amount) for amount, why in additive]
    steps += [Step(why, f"x {m.numerator}/{m.denominator}", m) for m, why in multipliers]
    steps.append(Step("RQH-MODIFIER-ORDER", f"effective {value}% ({options['modifier_order']}, half up)", value))
    return Check(value, percentile.bands(value, options, fumble_multiplier), tuple(steps))


def attack_check(attack: int, modifier: int, weapon: Mapping[str, Any], situation: Mapping[str, Any],
                 options: Mapping[str, Any]) -> Check:
    """The attack % with every situational modifier of §4(a): same weapon twice -10, high ground +10,
    terrain +10/+20, prone -20/+20 [DEF], moving targets for missiles (doubled at point blank) [DEF],
    x3/4 two-handed hacking mounted, x1/2 closed with a long weapon [DEF], x1/2 projected from adjacent."""
    additive: list[tuple[int, str]] = []
    if modifier:
        additive.append((modifier, "attack_modifier"))
    if situation["same_weapon_twice"]:
        additive.append((-10, "1) Statement of Intent"))
    if situation["high_ground"] or situation["mounted"]:
        additive.append((10, "Page 54"))
    if situation["terrain_bonus"]:
        additive.append((situation["terrain_bonus"], "2) Move Phase"))
    if situation["prone_attacker"]:
        additive.append((-options["prone_attack_penalty"], "RQH-PRONE"))
    if situation["prone_target"]:
        additive.append((options["attack_prone_bonus"], "RQH-PRONE"))
    missile = weapon["kind"] != "melee"
    if missile and situation["target_movement"] != "none":
        penalty = options["moved_target_penalty" if situation["target_movement"] == "moved" else "fast_target_penalty"]
        if situation["point_blank"] and not situation["giant_exposed"]:
            penalty *= 2
        additive.append((-penalty, "RQH-MOVING-TARGET"))
    multipliers: list[tuple[Fraction, str]] = []
    if situation["mounted"] and weapon["hands"] == 2 and weapon["hacking"]:
        multipliers.append((Fraction(3, 4), "Page 52"))
    if situation["closed_vs_long"] and (weapon.get("length_m") or 0) >= 2:
        multipliers.append((fraction(options["closed_long_weapon_factor"]), "RQH-CLOSED-LONG"))
    if situation["shooter_adjacent"] and weapon["kind"] == "projected":
        multipliers.append((Fraction(1, 2), "Page 63"))
    return _check(attack, additive, multipliers, options, 2 if weapon["flexible"] else 1)


def defence_check(defence: Mapping[str, Any], weapon: Mapping[str, Any], situation: Mapping[str, Any],
                  options: Mapping[str, Any], field: tuple = ("defence",)) -> Defence:
    """The dodge or parry % of §4(a): aborts -20, double dodge -10 per opponent after the first, same-SR
    attacks [DEF], two attackers on one weapon -20, high ground +10 (parry), flexible weapons x3/4 against
    shields larger than a buckler, and the missile fractions of *Page 63*."""
    kind = defence["type"]
    if kind == "none":
        return Defence("none", None, False)
    if defence.get("skill") is None:
        raise Contradiction(f"a {kind} needs its skill", (*field, "skill"))
    if kind == "dodge" and defence["braced"]:
        raise RulesError("a braced figure cannot dodge (Bracing Against Knockback)", (*field, "braced"))
    additive: list[tuple[int, str]] = []
    if defence["modifier"]:
        additive.append((defence["modifier"], "defence.modifier"))
    if defence["defensive_abort"]:
        additive.append((-20, "Altering Statement of Intent"))
    multipliers: list[tuple[Fraction, str]] = []
    missile, projected = weapon["kind"] != "melee", weapon["kind"] == "projected"
    critical_only = False
    if kind == "dodge":
        if situation["giant_exposed"]:
            return Defence("dodge", None, False)
        if defence["double_dodge"] and defence["opponent_number"] > 1:
            additive.append((-10 * (defence["opponent_number"] - 1), "1) Statement of Intent"))
        if defence["same_sr_attacks"]:
            additive.append((-options["same_sr_dodge_penalty"] * defence["same_sr_attacks"], "RQH-SAME-SR-DODGE"))
        if missile and situation["point_blank"] and not situation["shooter_adjacent"]:
            multipliers.append((Fraction(1, 5) if projected else Fraction(1, 2), "Page 63"))
    else:
        item = defence["item"]
        if defence["high_ground"]:
            additive.append((10, "Page 54"))
        if defence["two_attackers_same_weapon"]:
            additive.append((-20, "1) Statement of Intent"))
        if weapon["flexible"] and item in SHIELDS and item != "buckler":
            multipliers.append((Fraction(3, 4), "Page 63"))
        if projected:
            critical_only = _missile_parry(item, situation["point_blank"], options, multipliers)
    check = _check(defence["skill"], additive, [] if critical_only else multipliers, options, rule=kind)
    return Defence(kind, check, critical_only)


def _missile_parry(item: str, point_blank: bool, options: Mapping[str, Any],
                   multipliers: list[tuple[Fraction, str]]) -> bool:
    """Parrying a projected missile (*Page 63*); True when only a critical of the unreduced % counts."""
    if item == "weapon":
        if point_blank:
            return True
        multipliers.append((Fraction(1, 5), "Page 63"))
        return False
    if item in LARGE_SHIELDS:
        if point_blank:
            multipliers.append((Fraction(1, 5), "Page 63"))
        return False
    rule = options["small_shield_missile_parry"]["point_blank" if point_blank else "normal"]
    if rule == "critical_only":
        return True
    multipliers.append((fraction(rule), "RQH-SMALL-SHIELD-MISSILES"))
    return False


def outcome(attack_degree: str, defence_type: str, defence_degree: str | None) -> str:
    """The result of one attack roll against the defence roll (*Combat Options › Dodge*, *Standard Parry*):
    a dodge lowers the attack's degree by 1/2/3 steps for a success/special/critical and a fumbled dodge
    raises it by one (a special becomes a critical [INF], a critical does maximum damage); a parry of any
    success meets a successful attack."""
    if attack_degree == "fumble":
        return "fumble"
    if defence_type == "dodge":
        start = 0 if attack_degree == "failure" else ORDER.index(ATTACK_DEGREE[attack_degree])
        shift = DODGE_SHIFT[defence_degree or "failure"]
        if start == 0 and shift <= 0:
            return "miss"
        return ORDER[max(0, min(start + shift, len(ORDER) - 1))]
    if attack_degree == "failure":
        return "miss"
    landed = ATTACK_DEGREE[attack_degree]
    if defence_type == "parry" and defence_degree in ("success", "special", "critical"):
        return {"success": "parried", "special": "parried_special", "critical": "parried_critical"}[defence_degree]
    return landed


def outcome_probabilities(attack: Bands, defence: Defence) -> dict[str, Fraction]:
    """Exact odds of every outcome: the attack's and the defence's degree odds multiplied (fractions of 100
    x 100), summed by `outcome`."""
    return dict(_outcome_probabilities(attack, defence.type, defence.counting_bands()))


@lru_cache(maxsize=4096)
def _outcome_probabilities(attack: Bands, kind: str, counting: Bands | None) -> tuple[tuple[str, Fraction], ...]:
    keys = {"none": NONE_KEYS, "dodge": DODGE_KEYS, "parry": PARRY_KEYS}[kind]
    out = {key: Fraction(0) for key in keys}
    defence = Defence(kind, None, False)
    defence_odds = {"failure": Fraction(1)} if counting is None else counting.probabilities()
    for a_degree, pa in attack.probabilities().items():
        if not pa:
            continue
        for d_degree, pd in defence_odds.items():
            if pd:
                out[outcome(a_degree, defence.type, None if counting is None else d_degree)] += pa * pd
    return tuple(out.items())


def defence_chance(defence: Defence) -> Fraction | None:
    """P(the defence roll succeeds with a degree that counts)."""
    if defence.type == "none":
        return None
    counting = defence.counting_bands()
    return Fraction(0) if counting is None else percentile.chance(counting)


def landed_chance(probabilities: Mapping[str, Fraction]) -> Fraction:
    """P(the blow lands on the body): hit, special, critical or critical_max."""
    return sum((probabilities.get(key, Fraction(0)) for key in LANDED), Fraction(0))


def location_table(weapon: Mapping[str, Any], situation: Mapping[str, Any]) -> str:
    """`missile` for thrown and projected weapons; `high_ground` (1d10+10 on the melee table) for one-handed
    melee weapons from high ground, or two-handed ones by choice (*Page 54*); else `melee`."""
    if weapon["kind"] != "melee":
        return "missile"
    if (situation["high_ground"] or situation["mounted"]) and (weapon["hands"] == 1 or situation["high_ground_location"]):
        return "high_ground"
    return "melee"


def location_probabilities(table: str, options: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exact chance of each location on the chosen table."""
    rows = options["missile_locations" if table == "missile" else "melee_locations"]
    key = tuple((row["min"], row["max"], row["location"]) for row in rows)
    return dict(_location_probabilities(table, key))


@lru_cache(maxsize=256)
def _location_probabilities(table: str, key: tuple) -> tuple[tuple[str, Fraction], ...]:
    from service.rules.runequest_house.pack import LOCATIONS
    rows = [{"min": low, "max": high, "location": loc} for low, high, loc in key]
    faces = range(11, 21) if table == "high_ground" else range(1, 21)
    share = Fraction(1, len(faces))
    out = {loc: Fraction(0) for loc in LOCATIONS}
    for face in faces:
        out[location_of(rows, face)] += share
    return tuple(out.items())


def location_of(rows: list[Mapping[str, Any]], face: int) -> str:
    """The location of one d20 (or 1d10+10) face."""
    for row in rows:
        if row["min"] <= face <= row["max"]:
            return row["location"]
    raise RulesError(f"no location for {face}", ("options",))
