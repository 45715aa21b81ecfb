"""Combinations ("Attack, Defense & Mixed Combinations"): two blows or defences worked as one (F38).

In concert, one roll at the lead AV plus the Combination SL, never above the two AVs added together, and
the POT of both blows added before armor. Separate but simultaneous, each blow rolls on its own with the
same bonus and cap. A defensive combination against one attack follows the same cap. In an
attack/defence combination the side with the higher Initiative resolves first against the other's
defensive half; the other's attack half follows at its own Initiative, and Reprisals come last.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from service.rules.errors import Contradiction, OutOfRange
from service.rules.trace import Step

HEADING = "Attack, Defense & Mixed Combinations"
Kind = Literal["in-concert", "separate", "defensive"]


@dataclass(frozen=True, slots=True)
class Combined:
    """The AV (or DV) each roll of the combination uses, the cap, and the summed POT in concert."""

    values: tuple[int, ...]
    cap: int
    capped: bool
    pot: int | None
    trace: tuple[Step, ...]


def combination_value(value: int, other: int, combination_sl: int) -> tuple[int, int]:
    """F38: one part's value plus the Combination SL, capped at the two values added; (value, cap)."""
    cap = value + other
    return min(value + combination_sl, cap), cap


def combine(kind: Kind, values: Sequence[int], combination_sl: int, pots: Sequence[int] | None = None) -> Combined:
    """F38 for a combination of two parts: the value each roll uses and, in concert, the POT of both blows."""
    if len(values) != 2:
        raise OutOfRange("a combination joins exactly two attacks or defences", ("values",))
    lead, other = values
    first, cap = combination_value(lead, other, combination_sl)
    steps = [Step(f"{HEADING} (F38)", f"lead {lead} + Combination SL {combination_sl}, at most {lead} + {other} "
                                      f"= {cap}", first)]
    if kind == "separate":
        second, _ = combination_value(other, lead, combination_sl)
        steps.append(Step(f"{HEADING} (F38)", f"second part {other} + SL {combination_sl}, same cap {cap}", second))
        rolled: tuple[int, ...] = (first, second)
    else:
        rolled = (first,)
    pot = None
    if pots is not None:
        if kind != "in-concert":
            raise Contradiction("POT is added only for blows in concert", ("pots",))
        pot = sum(pots)
        steps.append(Step(HEADING, f"in concert the POT of both blows is added before armor: "
                                   f"{' + '.join(map(str, pots))}", pot))
    capped = lead + combination_sl > cap or (kind == "separate" and other + combination_sl > cap)
    return Combined(rolled, cap, capped, pot, tuple(steps))


def attack_defence_order(initiative: int, foe_initiative: int) -> tuple[str, ...]:
    """The order an attack/defence combination resolves in (same heading): higher Initiative first."""
    first, second = ("combiner", "foe") if initiative >= foe_initiative else ("foe", "combiner")
    return (f"{first}'s attack half against {second}'s defensive half",
            f"{second}'s attack half at its own Initiative", "Reprisals")
