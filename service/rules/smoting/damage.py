"""Damage of a landed blow: the damage pool, block, soak and the bands of defeat, trauma, killing blow
and massive damage (seed *Damage*, *Defences* (Block), *Soak Rolls*, *Damage/Defeat*, *Real Ranks vs Bonus
Ranks*, *Mental Effects*, *OoA and KIA*; smoting.md section 5)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

PHYSICAL_BANDS = ("no_damage", "defeat", "trauma", "killing_blow", "massive")
MENTAL_BANDS = ("no_damage", "defeat", "panicked", "crushed")


@dataclass(frozen=True)
class Block:
    """A block: a fresh roll of `dice` or a live pool of `pool` successes, plus the shield's factor."""

    dice: int | None = None
    pool: int | None = None
    factor: int = 0


def base_pool(damage_dice: int, strength: int, extra_successes: int, bonus_dice: int, armor_resist: int) -> int:
    """Damage dice before a block: weapon + STR + 2 per extra success + bonus - Armor Resist (seed *Damage*)."""
    return damage_dice + strength + 2 * extra_successes + bonus_dice - armor_resist


def dice_rolled(base: int, block: Block | None, block_successes: int = 0) -> int:
    """Damage dice actually rolled (seed *Damage*, *Defences* (Block); RULINGS 22): the dice after Armor
    Resist less the block's successes and the shield's factor, never below 0. Successes beyond the pool
    are the defender's specials, not negative dice."""
    removed = 0 if block is None else block.factor + block_successes
    return max(base - removed, 0)


def bands(at_most: Callable[[int], Fraction], threshold: int, domain: str, options: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exclusive bands of the final damage D against T (seed *Damage/Defeat*, *Mental Effects*):
    0; 1..T defeat; above T trauma (panicked); above 2T killing blow (crushed); above 3T massive."""
    zero, one, two, three = at_most(0), at_most(threshold), at_most(2 * threshold), at_most(3 * threshold)
    if domain == "mental":
        return {"no_damage": zero, "defeat": one - zero, "panicked": two - one, "crushed": 1 - two}
    massive = 1 - three if options["massive_kia"] else Fraction(0)
    return {"no_damage": zero, "defeat": one - zero, "trauma": two - one, "killing_blow": 1 - two - massive,
            "massive": massive}


def band_of(damage: int, threshold: int, domain: str, options: Mapping[str, Any]) -> str:
    """The band one final damage falls in (seed *Damage/Defeat*)."""
    if damage <= 0:
        return "no_damage"
    if damage <= threshold:
        return "defeat"
    if domain == "mental":
        return "panicked" if damage <= 2 * threshold else "crushed"
    if damage <= 2 * threshold:
        return "trauma"
    return "massive" if damage > 3 * threshold and options["massive_kia"] else "killing_blow"


def damage_table(at_most: Callable[[int], Fraction], pool: int) -> dict[str, Fraction]:
    """P(final damage = k) for k = 0 .. 2 x pool, and `more`."""
    out = {str(k): at_most(k) - at_most(k - 1) for k in range(2 * max(pool, 0) + 1)}
    out["more"] = 1 - at_most(2 * max(pool, 0))
    return out


def soak_pool(attributes: Mapping[str, int], names: list[str]) -> int:
    """Soak dice: the sum of the listed attribute levels, negatives included, never below 0
    (seed *Soak Rolls*, Georeg: STR 1 + AGL 2 + BOD 0 = 3 dice)."""
    return max(sum(attributes.get(name, 0) for name in names), 0)
