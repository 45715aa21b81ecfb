"""Surprise ("Surprise!!"; F5-F8, A30-A32, RULINGS 18).

The aggressor and the target each roll d100 against their own chance (a contested roll, see
`contest`); the margins give one of four outcomes. A mechanical trap has no aggressor roll: the
target's simple roll decides, and a failure overwhelms him by his failure margin alone
(Referee ruling). Margins are signed, chance - roll (positive = succeeded by).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Sequence

from service.rules.errors import Contradiction, RulesError
from service.rules.rounding import round_half_up
from service.rules.tactical.contest import Check, check, describe, pair_distribution, single_distribution
from service.rules.trace import Step, fmt

Outcome = Literal["none", "not-surprised", "stunned", "overwhelmed"]
OUTCOMES: tuple[Outcome, ...] = ("none", "not-surprised", "stunned", "overwhelmed")
HEADING = "Surprise!!"
EXPLAIN = {
    "none": "no Surprise: the fight starts as a normal meeting",
    "not-surprised": "not really surprised: defends normally, acts from the next CS by Initiative",
    "stunned": "stunned 1 CS after the launch CS: may only defend and move defensively, penalty 0",
    "overwhelmed": "overwhelmed: defends and backs away only, with the penalty on defences and awareness",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """An outcome of the Surprise table with its stun length in CS (F5) and its penalty (F6)."""

    outcome: Outcome
    duration_cs: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Recovery:
    """Recovery after being overwhelmed (F8, A32): the HRT check and the waning stun if it fails."""

    hrt_check_dv: int
    stunned_cs_if_failed: int
    penalty_schedule: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SurpriseResult:
    """A rolled Surprise check: the verdict, both checks, exact odds and (given a DV) recovery."""

    verdict: Verdict
    aggressor: Check | None
    target: Check
    probabilities: dict[Outcome, Fraction]
    expected_duration_cs: Fraction
    recovery: Recovery | None
    trace: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Springer:
    """One of those springing the Surprise, as F7 counts them (A31)."""

    chm_mod: int = 0
    hrt_mod: int = 0
    modified_sta: int = 20


def classify(aggressor_margin: int | None, target_margin: int) -> Verdict:
    """The Surprise outcome from the signed margins (F5, F6, A30, RULINGS 18); None means a trap."""
    if aggressor_margin is None:
        return _overwhelmed(-target_margin) if target_margin < 0 else Verdict("none", 0, 0)
    a_ok, t_ok = aggressor_margin >= 0, target_margin >= 0
    if not a_ok:
        return Verdict("none", 0, 0)
    if not t_ok:
        return _overwhelmed(aggressor_margin - target_margin)
    if aggressor_margin > target_margin:
        return Verdict("stunned", 1, 0)
    return Verdict("not-surprised", 0, 0)


def _overwhelmed(total: int) -> Verdict:
    return Verdict("overwhelmed", max(1, round_half_up(Fraction(total, 10))), total)


def odds(aggressor_chance: int | None, target_chance: int) -> tuple[dict[Outcome, Fraction], Fraction]:
    """Exact chance of each outcome and the expected stun length in CS, before any die is rolled."""
    if aggressor_chance is None:
        found = single_distribution(target_chance, lambda t: classify(None, t))
    else:
        found = pair_distribution(aggressor_chance, target_chance, classify)
    probabilities = {o: sum((p for v, p in found.items() if v.outcome == o), Fraction(0)) for o in OUTCOMES}
    expected = sum((p * v.duration_cs for v, p in found.items()), Fraction(0))
    return probabilities, expected


def recovery(dv: int, penalty: int) -> Recovery:
    """F8 with A32: HRT vs DV/2; on failure DV/10 CS (at least 1) of a penalty waning by 1 a CS."""
    if dv < 0:
        raise RulesError("the Surprise check DV cannot be negative", ("target", "dv"))
    length = max(1, round_half_up(Fraction(dv, 10)))
    schedule = tuple(max(0, penalty - k) for k in range(length))
    return Recovery(round_half_up(Fraction(dv, 2)), length, schedule)


def surprise_dv(base_dv: int, springers: Sequence[Springer]) -> tuple[int, Step]:
    """The target's Surprise check DV (F7, A31): base + best CHM mod + best HRT mod + head-count
    + STA of the largest over 20 - STA of the smallest under 20."""
    if not springers:
        raise RulesError("at least one springer is needed", ("dv_from", "springers"))
    big = max(0, max(s.modified_sta for s in springers) - 20)
    small = max(0, 20 - min(s.modified_sta for s in springers))
    chm, hrt = max(s.chm_mod for s in springers), max(s.hrt_mod for s in springers)
    value = max(0, base_dv + chm + hrt + len(springers) + big - small)
    detail = (f"DV {base_dv} + best CHM {chm} + best HRT {hrt} + {len(springers)} springer(s) + {big} "
              f"(largest mSTA over 20) - {small} (smallest under 20) = {value} (never below 0)")
    return value, Step("A31", detail, value)


def surprise(aggressor_chance: int | None, target_chance: int, rng: random.Random | None,
             faces: tuple[int | None, int | None] = (None, None), dv: int | None = None,
             trap: bool = False) -> SurpriseResult:
    """Resolve a Surprise (F5-F8): the aggressor rolls first, then the target; a trap has no aggressor."""
    _check_sides(aggressor_chance, faces[0], trap)
    aggressor = (None if aggressor_chance is None
                 else check(aggressor_chance, rng, faces[0], "rolls.aggressor"))
    target = check(target_chance, rng, faces[1], "rolls.target")
    verdict = classify(None if aggressor is None else aggressor.margin, target.margin)
    probabilities, expected = odds(aggressor_chance, target_chance)
    healed = recovery(dv, verdict.penalty) if dv is not None and verdict.outcome == "overwhelmed" else None
    steps = _trace(aggressor, target, verdict, expected, dv, healed)
    return SurpriseResult(verdict, aggressor, target, probabilities, expected, healed, steps)


def check_dv(given: int | None, derived: int | None) -> int | None:
    """The DV the Surprise check was made against: the caller's, or F7's; both must agree."""
    if given is not None and derived is not None and given != derived:
        raise Contradiction(f"target.dv {given} differs from the DV {derived} computed from dv_from",
                            ("target", "dv"))
    return given if given is not None else derived


def _check_sides(aggressor_chance: int | None, aggressor_face: int | None, trap: bool) -> None:
    if trap and aggressor_chance is not None:
        raise Contradiction("a mechanical trap has no aggressor roll; leave out the aggressor",
                            ("aggressor",))
    if not trap and aggressor_chance is None:
        raise Contradiction("the aggressor's chance is needed (or set trap: true)", ("aggressor",))
    if aggressor_chance is None and aggressor_face is not None:
        raise Contradiction("a mechanical trap has no aggressor roll", ("rolls", "aggressor"))


def _trace(aggressor: Check | None, target: Check, verdict: Verdict, expected: Fraction,
           dv: int | None, healed: Recovery | None) -> tuple[Step, ...]:
    steps = [Step(HEADING, describe("aggressor", aggressor), aggressor.margin) if aggressor else
             Step("Referee ruling", "mechanical trap: no aggressor roll; the target's simple roll decides, "
                                    "a failure overwhelms by the failure margin alone", None),
             Step(HEADING, describe("target", target), target.margin)]
    if aggressor and aggressor.succeeded and target.succeeded and aggressor.margin == target.margin:
        steps.append(Step("RULINGS 18", "equal margins: the target is not surprised (A30)", 0))
    steps.append(Step(HEADING, EXPLAIN[verdict.outcome], verdict.outcome))
    if verdict.outcome == "overwhelmed":
        steps.append(Step(HEADING, f"stun max(1, round_half_up({verdict.penalty}/10)) = "
                                   f"{verdict.duration_cs} CS after the launch CS (F5); "
                                   f"penalty {verdict.penalty} (F6)",
                          verdict.duration_cs))
    steps.append(Step("Referee ruling", f"odds over all dice before rolling (supplied faces ignored); "
                                        f"expected stun {fmt(expected)} CS", expected))
    steps.append(_recovery_step(dv, healed))
    return tuple(steps)


def _recovery_step(dv: int | None, healed: Recovery | None) -> Step:
    if healed is None:
        why = "no target.dv given" if dv is None else "the target was not overwhelmed"
        return Step("A32", f"no recovery check: {why}", None)
    return Step("A32", f"HRT vs round_half_up({dv}/2) = {healed.hrt_check_dv}; if failed, "
                       f"{healed.stunned_cs_if_failed} CS with penalties {list(healed.penalty_schedule)}",
                healed.hrt_check_dv)
