"""Ranged fire: range bands, the range DV modifier and the target's DV ("Firing/Hurling Ranged Attacks",
"Resolving Ranged Attacks"; RULINGS 8, 9; digest F26-F32, A9-A13, A42).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from service.rules.errors import Contradiction, UnknownName
from service.rules.rounding import exact, round_half_up
from service.rules.tactical import tables
from service.rules.tactical.thrown import ThrownObject
from service.rules.trace import Step, fmt

RANGE_RULE = "Firing/Hurling Ranged Attacks"
BANDS = ("point-blank", "short", "medium", "long", "extreme")
WEAPON_NAMES = ("bow", "short-bow", "sling", "light-crossbow", "heavy-crossbow", "hurled-hilted", "hurled-hafted")
PER_UNIT = {"short": Fraction(1, 5), "medium": Fraction(1, 3), "long": Fraction(1), "extreme": Fraction(2)}
Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A ranged weapon's column of the base range table, its STR shift per point and any maximum (RULINGS 9)."""

    name: str
    unit: str
    base: tuple[int, int, int]
    str_shift: int
    maximum: int | None
    hurled: bool


@cache
def weapons() -> dict[str, Weapon]:
    """Every ranged weapon Referee knows, built from `range_bands.json` (RULINGS 9)."""
    data = tables.load("range-bands")
    return {name: _weapon(name, spec, data["columns"][spec["column"]]) for name, spec in data["weapons"].items()}


def _weapon(name: str, spec: dict[str, Any], column: dict[str, Any]) -> Weapon:
    base = (column["short"], column["medium"], column["long"])
    return Weapon(name, column["unit"], base, spec["str_shift"], spec["maximum"], column["group"] == "hurled")


def weapon(name: str, at: Path = ("weapon",)) -> Weapon:
    """Look a ranged weapon up by name (RULINGS 9); an unknown name is refused."""
    try:
        return weapons()[name]
    except KeyError:
        raise UnknownName(f"unknown ranged weapon {name!r}; known: {', '.join(weapons())}", at) from None


@dataclass(frozen=True, slots=True)
class Limits:
    """The outer edge of each band in the weapon's unit; `maximum` is a crossbow's reach (else None)."""

    point_blank: int
    short: int
    medium: int
    long: int
    maximum: int | None


def limits(arm: Weapon, strength: int = 13, elevation: Any = 0, factor: Fraction = Fraction(1)
           ) -> tuple[Limits, list[Step]]:
    """F26-F31, A10, A40, A42: base plus the STR shift, times an object's factor, minus elevation; PB = S/4.

    Each limit is rounded half up once, at the end of its formula (A40, RULINGS 2), PB from the exact short."""
    shift = arm.str_shift * (strength - 13)
    rise = max(Fraction(0), exact(elevation))
    edges = [max(Fraction(0), (base + shift) * factor - rise) for base in arm.base]
    steps = [Step(RANGE_RULE, f"{arm.name}: base short/medium/long {'/'.join(map(str, arm.base))} {arm.unit}", None)]
    if shift:
        steps.append(Step(RANGE_RULE, f"STR {strength}: {shift:+d} {arm.unit} on short, medium and long", shift))
    if factor != 1:
        steps.append(Step("A40", f"thrown object: short, medium and long x {fmt(factor)}", factor))
    if rise:
        steps.append(Step("A42", f"target {fmt(rise)} {arm.unit} above the shooter shrinks every limit", rise))
    pb = round_half_up(edges[0] / 4)
    steps.append(Step("A10", f"point-blank = round_half_up(short {fmt(edges[0])} / 4)", pb))
    short, medium, long = (round_half_up(edge) for edge in edges)
    if any(edge.denominator != 1 for edge in edges):
        steps.append(Step("A40", f"short/medium/long rounded half up: {short}/{medium}/{long} {arm.unit}", long))
    return Limits(pb, short, medium, long, arm.maximum), steps


def band(distance: Fraction, edges: Limits) -> str:
    """The band a distance falls in: point-blank, short, medium, long or extreme (RULINGS 9)."""
    for name, edge in zip(BANDS, (edges.point_blank, edges.short, edges.medium, edges.long)):
        if distance <= edge:
            return name
    return "extreme"


def band_shares(distance: Fraction, edges: Limits) -> list[tuple[str, int]]:
    """F30, A9: each band's share of the range DV, rounded half up on its own; only bands reached count."""
    spans = {"short": (edges.point_blank, edges.short), "medium": (edges.short, edges.medium),
             "long": (edges.medium, edges.long), "extreme": (edges.long, None)}
    shares = []
    for name, (start, end) in spans.items():
        covered = (distance if end is None else min(distance, end)) - start
        if covered > 0:
            shares.append((name, round_half_up(covered * PER_UNIT[name])))
    return shares


@dataclass(frozen=True, slots=True)
class RangeResult:
    """The range reading of one shot: band, limits, the DV modifier and its per-band shares."""

    weapon: str
    unit: str
    band: str
    limits: Limits
    dv_modifier: int
    shares: tuple[tuple[str, int], ...]
    steps: tuple[Step, ...]
    object_factor: Fraction | None = None
    too_close: bool = False


MIN_RANGED_FEET = 5


def range_of(name: str, distance: Any, strength: int = 13, elevation: Any = 0,
             thrown: ThrownObject | None = None, at: Path = ()) -> RangeResult:
    """RULINGS 9: the band and range DV modifier of a shot at `distance` (weapon's own unit).

    `thrown` describes a non-weapon object hurled on a hurled weapon's column (A40).
    """
    arm = weapon(name, (*at, "weapon"))
    factor = _factor(arm, thrown, at)
    span = exact(distance)
    if arm.maximum is not None and span > arm.maximum:
        raise Contradiction(f"a {name} reaches at most {arm.maximum} {arm.unit}", (*at, "distance"))
    edges, steps = limits(arm, 13 if arm.maximum is not None else strength, elevation, factor)
    if arm.maximum is not None:
        steps.append(Step("A12", f"crossbow: bow column at STR 13, STR ignored, maximum {arm.maximum} yd",
                          arm.maximum))
    shares = band_shares(span, edges)
    total = sum(share for _, share in shares)
    where = band(span, edges)
    detail = " + ".join(f"{b} {s}" for b, s in shares) or "point-blank: none"
    steps.append(Step("A9", f"{fmt(span)} {arm.unit} is {where}; range DV {detail}", total))
    feet = span * 3 if arm.unit == "yd" else span
    too_close = feet < MIN_RANGED_FEET
    if too_close:
        steps.append(Step("Firing/Hurling Ranged Attacks", f"{fmt(feet)} ft apart: ranged combat needs at least "
                          f"{MIN_RANGED_FEET} ft between the figures (flagged here; a Combat Segment refuses the shot)",
                          MIN_RANGED_FEET))
    return RangeResult(name, arm.unit, where, edges, total, tuple(shares), tuple(steps),
                       None if thrown is None else factor, too_close)


def _factor(arm: Weapon, thrown: ThrownObject | None, at: Path) -> Fraction:
    if thrown is None:
        return Fraction(1)
    if not arm.hurled:
        raise Contradiction("only a hurled weapon's ranges apply to a thrown object", (*at, "object"))
    return thrown.factor((*at, "object"))


@dataclass(frozen=True, slots=True)
class Target:
    """What a ranged target offers (RULINGS 8): awareness, Dodge DV, AGL mod, speed, shield cover."""

    aware: bool = True
    dodge_dv: int = 0
    agl_mod: int = 0
    moving_mph: Fraction = Fraction(0)
    shield_bonus: int = 0
    in_motion: bool = False

    @property
    def moving(self) -> bool:
        """Moving point to point, or busy with something that keeps it in motion."""
        return self.moving_mph > 0 or self.in_motion

    @property
    def own_defence(self) -> int | None:
        """The target's own defence (Dodge DV, or AGL mod when unaware and moving); None when it has none."""
        if self.aware:
            return self.dodge_dv
        return self.agl_mod if self.moving else None


def ranged_dv(target: Target, range_dv: int, defence: int | None = None) -> tuple[int, list[Step]]:
    """RULINGS 8, F32, A13: the DV a ranged target offers; `defence` replaces its own (e.g. after reuse)."""
    own = target.own_defence if defence is None else defence
    if own is None:
        value = max(1, range_dv)
        return value, [Step("A13", f"unaware and stationary: max(1, range DV {range_dv})", value)]
    what = "Dodge DV" if target.aware else "AGL mod (unaware, in motion)"
    total = own + target.shield_bonus + range_dv + target.moving_mph
    value = round_half_up(total)
    detail = (f"{what} {own} + shield {target.shield_bonus} + range {range_dv} + "
              f"speed {fmt(target.moving_mph)} mph")
    return value, [Step("Resolving Ranged Attacks", detail, value)]
