"""Intimidation joined to a blow ("Demoralizing Attacks, Intimidating Foes"; F41).

The blow must land with at least 1 POT through. The Presence AV then gains that POT (a Progressive bonus
when the blow was a Reprisal); the target resists with his DV plus his best Presence SL plus his side's
fighters still standing less those fallen. A contested roll decides; the outcome depends on whether it
succeeded and on which of AV and DV is larger.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from service.rules.errors import OutOfRange
from service.rules.rounding import Progression, progressive
from service.rules.trace import Step

HEADING = "Demoralizing Attacks, Intimidating Foes"
Outcome = Literal["backs-off", "surrenders", "unaffected", "guard-drops"]
Equal = Literal["target", "attacker"]


@dataclass(frozen=True, slots=True)
class Sides:
    """The AV and DV of the Presence contest, and how they were built."""

    av: int
    dv: int
    target_ahead: bool
    trace: tuple[Step, ...]


def sides(presence_av: int, pot_through: int, reprisal: bool, target_dv: int, presence_sl: int, standing: int,
          fallen: int, equal: Equal = "target", scheme: Progression = "triangular") -> Sides:
    """The contest's two values; `target_ahead` is "DV greater than AV" (ties go to `equal`, [DEF])."""
    if pot_through < 1:
        raise OutOfRange("the blow must put at least 1 POT through to intimidate", ("pot_through",))
    bonus = progressive(pot_through, scheme) if reprisal else pot_through
    av = presence_av + bonus
    morale = standing - fallen
    dv = target_dv + presence_sl + morale
    ahead = dv > av or (dv == av and equal == "target")
    steps = (Step(HEADING, f"Presence AV {presence_av} + {'progressive(' if reprisal else ''}{pot_through}"
                           f"{')' if reprisal else ''} POT through", av),
             Step(HEADING, f"DV {target_dv} + Presence SL {presence_sl} + standing {standing} - fallen {fallen}", dv))
    return Sides(av, dv, ahead, steps)


def outcome(succeeded: bool, target_ahead: bool) -> Outcome:
    """What the intimidation does: by success and by which side's value is larger."""
    if succeeded:
        return "backs-off" if target_ahead else "surrenders"
    return "unaffected" if target_ahead else "guard-drops"


def guard_drop(intimidate_sl: int, target_hrt_mod: int) -> int:
    """F41: next CS the target's DV against this attacker falls by Intimidate SL - HRT mod (never below 0)."""
    return max(0, intimidate_sl - target_hrt_mod)
