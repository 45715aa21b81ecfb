"""One landed blow from POT to wounds and pain: the "Getting Hit" sections in order (digest §17 step 4).

POT (RULINGS 11) -> knock-back from the full POT -> barrier and street clothes -> armor by attack type
(RULINGS 12) -> wounds (RULINGS 13) -> stun by pain (RULINGS 14).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from service.rules.errors import Contradiction
from service.rules.rounding import Progression
from service.rules.tactical.armor import Attack, Layer, strike
from service.rules.tactical.potence import Attacker, Weapon, blow_potence, knock_back, street_clothes
from service.rules.tactical.wounds import Stun, Wounding, stun_by_pain, wound
from service.rules.trace import Step

RangeBand = Literal["point-blank", "short", "medium", "long", "extreme"]
RANGE_BANDS = ("point-blank", "short", "medium", "long", "extreme")
MELEE_GRIPS = frozenset({"one-handed", "hand-and-a-half", "two-handed"})


@dataclass(frozen=True, slots=True)
class Target:
    """The one struck: size, condition, pain resistance, armor (outermost first) and state (RULINGS 12-14)."""

    modified_sta: int
    condition: int
    pain_resistance: int
    armor: tuple[Layer, ...] = ()
    clothing_layers: int = 0
    wounds: int = 0
    moving_mph: Fraction = Fraction(0)
    barrier_feet: Fraction | None = None
    range_band: RangeBand = "short"


@dataclass(frozen=True, slots=True)
class BlowOptions:
    """GM switches for a blow (RULINGS 19): armor wear, Body Points, Heroic doubling, street clothes."""

    armor_wear: bool = True
    body_points: bool = False
    heroic_double: bool = False
    first_edged_blow: bool = True
    progression: Progression = "triangular"
    extra_pot: int = 0  # a blow struck in concert with this one ("Attack, Defense & Mixed Combinations", F38)


@dataclass(frozen=True, slots=True)
class BlowResult:
    """Everything one landed blow did: POT, knock-back, armor before/after, wounds, stun, and the trace."""

    pot: int
    knockback_feet: int
    keep_feet_dv: int
    pot_through_armor: int
    armor_before: tuple[Layer, ...]
    armor_after: tuple[Layer, ...]
    wounding: Wounding
    stun: Stun | None
    trace: tuple[Step, ...]


def check_attack(weapon: Weapon, attack: Attack) -> None:
    """Slash and Thrust/Lunge are melee attacks by edge and by point; bodkins fly from bows (Referee); only a
    crossbow is kept cocked (RULINGS 25)."""
    if attack != "common" and weapon.grip not in MELEE_GRIPS:
        raise Contradiction(f"a {attack} is a melee attack with a wielded weapon", ("attack",))
    if attack == "slash" and weapon.edge != "edged":
        raise Contradiction("a slash needs an edged weapon", ("weapon", "edge"))
    if attack == "thrust" and weapon.edge != "pointed":
        raise Contradiction("a thrust needs a pointed weapon", ("weapon", "edge"))
    if weapon.bodkin and weapon.grip not in ("bow", "crossbow"):
        raise Contradiction("bodkin arrows and heavy bolts are shot from bows and crossbows",
                            ("weapon", "bodkin"))
    if weapon.days_cocked and weapon.grip != "crossbow":
        raise Contradiction("only a crossbow is kept cocked (RULINGS 25)", ("weapon", "days_cocked"))


def _effect_pot(pot: int, target: Target, weapon: Weapon, options: BlowOptions,
                barrier_bonus: int) -> tuple[int, list[Step]]:
    steps = []
    if barrier_bonus:
        pot += barrier_bonus
        steps.append(Step("A25", "POT for effects, with the barrier bonus", pot))
    armored = bool(target.armor)
    pot, clothes = street_clothes(pot, target.clothing_layers, armored, weapon.edge, options.first_edged_blow)
    return pot, [*steps, clothes]


def resolve_blow(attacker: Attacker, weapon: Weapon, target: Target, attack: Attack = "common",
                 options: BlowOptions = BlowOptions()) -> BlowResult:
    """Resolve one landed blow (Getting Hit: POT, Knock-Back, Virtue of Armor, Wounds, Pain, Levels).

    No dice are involved, so the answer depends on the arguments alone (all immutable values) and the
    latest few thousand are remembered: a fight repeats the same blows against the same armor often."""
    return _resolve_blow(attacker, weapon, target, attack, options)


@lru_cache(maxsize=4096)
def _resolve_blow(attacker: Attacker, weapon: Weapon, target: Target, attack: Attack,
                  options: BlowOptions) -> BlowResult:
    check_attack(weapon, attack)
    moving = target.moving_mph if weapon.grip not in ("bow", "crossbow") else Fraction(0)
    potence = blow_potence(attacker, weapon, slash=attack == "slash", body_points=options.body_points,
                           moving_mph=moving, heroic_double=options.heroic_double)
    full = potence.pot + options.extra_pot
    concert = (Step("Attack, Defense & Mixed Combinations (F38)", f"in concert: + {options.extra_pot} POT of the "
                                                                 "other blow, before armor", full),
               ) if options.extra_pot else ()
    kb = knock_back(full, target.modified_sta, target.barrier_feet, options.progression)
    pot, effect_steps = _effect_pot(full, target, weapon, options, kb.barrier_bonus)
    band = target.range_band if weapon.bodkin else None
    struck = strike(target.armor, pot, potence.wear, attack, options.armor_wear, band)
    sharp = weapon.edge in ("edged", "pointed") or attack != "common" or weapon.bodkin
    wounding = wound(struck.pot_through, target.modified_sta, target.condition, target.wounds,
                     exempt=sharp and struck.breached)
    stun, stun_step = stun_by_pain(struck.pot_through, target.pain_resistance, options.progression)
    trace = (*potence.steps, *concert, *kb.steps, *effect_steps, *struck.steps, *wounding.steps, stun_step)
    return BlowResult(full, kb.feet, kb.keep_feet_dv, struck.pot_through, tuple(target.armor),
                      struck.layers, wounding, stun, trace)
