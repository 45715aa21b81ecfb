"""Knockback from one blow (rules document §5.6; seed *Page 49*, *Bracing Against Knockback*,
*Knockback Into Small Objects, People and Solid Objects*)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.rules.errors import Contradiction, RulesError
from service.rules.runequest_house import percentile


@dataclass(frozen=True, slots=True)
class Target:
    """Who is pushed: SIZ, optional STR and DEX, braced, and a mount (`ride_success`, `mount_siz`)."""

    siz: int
    str: int | None = None
    dex: int | None = None
    braced: bool = False
    mounted: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Knockback:
    """How far the target goes, the DEX multiple to stay up, and any collision."""

    knockback_damage: int
    threshold: int
    metres: int
    dex_multiplier: int | None
    dex_chance: Fraction | None
    automatic_fall: bool
    unhorsed: bool | None
    collision: dict[str, Any] | None

    def as_dict(self) -> dict[str, Any]:
        chance = self.dex_chance
        return {"knockback_damage": self.knockback_damage, "threshold": self.threshold, "metres": self.metres,
                "dex_multiplier": self.dex_multiplier,
                "dex_chance": None if chance is None else float(chance),
                "dex_chance_exact": None if chance is None else f"{chance.numerator}/{chance.denominator}",
                "automatic_fall": self.automatic_fall, "unhorsed": self.unhorsed, "collision": self.collision}


def counted_damage(damage: int, weapon_type: str, penetrated: bool, impaled: bool) -> int:
    """*Page 49*: blows that do not get through armor (every crushing blow, slash or impale stopped by
    armor) count double; an impale that impales and does damage counts nothing."""
    if impaled:
        return 0
    return damage * 2 if weapon_type == "crush" or not penetrated else damage


def metres(counted: int, target: Target, options: Mapping[str, Any], field: tuple = ("target",)) -> tuple[int, int]:
    """(threshold, metres): 1 m at SIZ (braced: above STR + SIZ), +1 m per full 10 points beyond;
    a Ride success adds the mount's SIZ."""
    if target.braced:
        if target.str is None:
            raise Contradiction("a braced target needs its STR (knockback needs more than STR + SIZ)", (*field, "str"))
        threshold = target.str + target.siz
        if counted <= threshold:
            return threshold, 0
        base = threshold if options["braced_extra_from"] == "str_plus_siz" else target.siz
        return threshold, 1 + max(0, counted - base) // 10
    threshold = target.siz
    if target.mounted and target.mounted.get("ride_success"):
        threshold += target.mounted.get("mount_siz", 0)
    if counted < threshold:
        return threshold, 0
    return threshold, 1 + (counted - threshold) // 10


def knockback(damage: int, weapon_type: str, target: Target, options: Mapping[str, Any], penetrated: bool = True,
              impaled: bool = False, obstacle: str = "none") -> Knockback:
    """Knockback distance, the DEX x (6 - metres) roll to stay standing (0 or less: automatic fall [DEF]),
    unhorsing, and the collision dice: max(`collision_min_dice`, metres/2) d6, doubled on a solid object."""
    counted = counted_damage(damage, weapon_type, penetrated, impaled)
    threshold, distance = metres(counted, target, options)
    if distance == 0:
        unhorsed = False if target.mounted else None
        return Knockback(counted, threshold, 0, None, None, False, unhorsed, None)
    multiplier = 6 - distance
    automatic = multiplier <= 0
    chance = None
    if target.dex is not None:
        chance = Fraction(0) if automatic else percentile.chance(
            percentile.bands(target.dex * multiplier, options))
    unhorsed = None
    if target.mounted:
        if distance > 1 or (automatic and not target.mounted.get("ride_success")):
            unhorsed = True
        elif target.mounted.get("ride_success"):
            unhorsed = False
    collision = None
    if obstacle != "none":
        count = max(options["collision_min_dice"], distance // 2)
        collision = {"dice": f"{count}d6" if count else "0", "doubled": obstacle == "solid"}
    return Knockback(counted, threshold, distance, multiplier, chance, automatic, unhorsed, collision)
