"""Melee modes and spacing ("Modes of Combat": close and common melee; F44, A44).

Against a foe whose weapon Size is under half his height, the fight is close melee with bases touching;
otherwise common melee, with the attacker kept back (Size - height/2) feet of scale, 5 mm a foot at
25 mm scale. In common melee a foe whose weapon is 2+ Sizes larger than the attacker's keeps him off his
body; in close melee the attacker's weapon Size does not matter.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.rules.trace import Step

HEADING = "Modes of Combat"
MM_PER_FOOT = {"25mm": 5, "10mm": 2, "5mm": 1}


@dataclass(frozen=True, slots=True)
class Spacing:
    """Melee mode, spacing in feet and in mm at the table's scale, and whether the body is out of reach."""

    mode: str
    feet: Fraction
    mm: Fraction
    body_blocked: bool
    trace: tuple[Step, ...]


def spacing(foe_weapon_size: int, foe_height: Fraction, attacker_weapon_size: int, scale: str = "25mm") -> Spacing:
    """F44 with A44 (Size and height in the same unit): mode, spacing and the 2-Size reach rule."""
    half = Fraction(foe_height) / 2
    close = foe_weapon_size < half
    feet = Fraction(0) if close else foe_weapon_size - half
    mm = feet * MM_PER_FOOT[scale]
    blocked = not close and foe_weapon_size >= attacker_weapon_size + 2  # in close melee his weapon is no bar
    steps = [Step(HEADING, f"foe's weapon Size {foe_weapon_size} {'<' if close else '>='} height/2 {float(half):g}: "
                           f"{'close' if close else 'common'} melee", "close" if close else "common"),
             Step(f"{HEADING} (F44, A44)", f"(Size - height/2) x {MM_PER_FOOT[scale]} mm at {scale}", mm)]
    if blocked:
        steps.append(Step(HEADING, "foe's weapon 2+ Sizes larger: get past it (Dodge/Acrobat/AGL vs its AV, a bind "
                                   "or a hand hit) before striking his body", True))
    return Spacing("close" if close else "common", feet, mm, blocked, tuple(steps))
