"""Body checks, side-swipes and tackles (the Body Check passages under "Opportunity Actions").

Both sides use AGL mod + modified STA + STR mod (F39); a body check adds the attacker's shield Size, a
Progressive bonus per armor layer and his speed. The defender stands with the same sum, or Dodges with a
bonus per point his modified STA falls short of the attacker's. A tackle adds the speed difference to
the faster side. The loser is bounced by the impact speed plus the other side's mSTA excess in feet (F40,
RULINGS 20); a successful Dodge bounces nobody. Footing is an AGL check against the mover's speed plus a
Progressive modifier on the STR and STA difference.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from service.rules.rounding import Progression, progressive
from service.rules.trace import Step

HEADING = "Opportunity Actions: Body Checks, Side-swipes, Tackling and Overbearing"
Kind = Literal["body-check", "side-swipe", "tackle"]
Role = Literal["defender", "attacker"]


@dataclass(frozen=True, slots=True)
class Body:
    """One party to a body check or tackle."""

    agl_mod: int
    modified_sta: int
    str_mod: int
    strength: int
    speed_mph: int = 0
    shield_size: int = 0
    armor_layers: int = 0


def body_av(body: Body, kind: Kind, scheme: Progression = "triangular") -> tuple[int, list[Step]]:
    """F39: AGL mod + mSTA + STR mod, and for a body check or side-swipe + shield Size + prog(layers) + mph."""
    base = body.agl_mod + body.modified_sta + body.str_mod
    steps = [Step(f"{HEADING} (F39)", f"AGL mod {body.agl_mod} + mSTA {body.modified_sta} + STR mod {body.str_mod}",
                  base)]
    if kind == "tackle":
        return base, steps
    armor = progressive(body.armor_layers, scheme)
    total = base + body.shield_size + armor + body.speed_mph
    steps.append(Step(f"{HEADING} (F39)", f"+ shield Size {body.shield_size} + progressive({body.armor_layers} "
                                          f"layers) {armor} + {body.speed_mph} mph", total))
    return total, steps


def dodge_dv(dodge: int, defender: Body, attacker: Body) -> tuple[int, Step]:
    """Standing aside: Dodge plus 1 per point the defender's mSTA is below the attacker's ([INF] per point)."""
    bonus = max(0, attacker.modified_sta - defender.modified_sta)
    return dodge + bonus, Step(HEADING, f"Dodge {dodge} + {bonus} (mSTA short of the attacker's)", dodge + bonus)


def tackle_speeds(attacker: Body, defender: Body) -> tuple[int, int]:
    """Tackling: the speed difference in mph goes to the faster side's AV; (attacker bonus, defender bonus)."""
    gap = attacker.speed_mph - defender.speed_mph
    return max(0, gap), max(0, -gap)


def impact_mph(attacker: Body, target: Body, both_moving: bool) -> int:
    """F40 with RULINGS 20: the speed of the meeting is the attacker's mph, plus the target's when both move."""
    return attacker.speed_mph + (target.speed_mph if both_moving else 0)


def bounce_feet(attacker: Body, target: Body, both_moving: bool, bounced: Role = "defender") -> int:
    """F40 with RULINGS 20, either direction: whoever is bounced (the target whose stand failed, or the
    attacker the target beat by the larger margin) flies the impact speed plus the mSTA the other side has
    over him, as if he had run into a wall. One function for the calculator and the segment resolver."""
    own, other = (target, attacker) if bounced == "defender" else (attacker, target)
    return impact_mph(attacker, target, both_moving) + max(0, other.modified_sta - own.modified_sta)


def footing(attacker: Body, defender: Body, scheme: Progression = "triangular") -> tuple[int, tuple[str, ...], Step]:
    """Keeping one's feet: AGL check vs the mover's speed + prog(STR + mSTA difference); who must check.

    Within a point of each other both check; otherwise only the lesser party ([INF]: STR and modified
    STA are summed per side before the difference is taken).
    """
    a, d = attacker.strength + attacker.modified_sta, defender.strength + defender.modified_sta
    gap = abs(a - d)
    dv = max(attacker.speed_mph, defender.speed_mph) + progressive(gap, scheme)
    who = ("attacker", "defender") if gap <= 1 else (("defender",) if d < a else ("attacker",))
    return dv, who, Step(HEADING, f"AGL check vs speed {max(attacker.speed_mph, defender.speed_mph)} mph + "
                                  f"progressive({gap}) (STR + mSTA {a} vs {d}); checks: {', '.join(who)}", dv)
