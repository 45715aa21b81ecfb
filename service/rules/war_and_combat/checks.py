"""3d6 task and resistance checks: plain tasks, Fumble?/Fumble-N, Stumble?/Stumble-N, Restrict, Shock,
balance and pass-through, with their miss-by results (*Wound Effects › Fumble?/Stumble?*, *Secondary
Effects*, TERRAIN EFFECTS CHART, *Zones of Danger* pass through)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.war_and_combat import task
from service.rules.war_and_combat.exact import THREE_D6

KINDS = ("task", "fumble", "stumble", "restrict", "shock", "balance", "pass_through")
OUTCOMES = {"fumble": ("success", "slip", "drop", "fly"),
            "stumble": ("success", "slip", "knees", "hands_and_knees", "flat")}


def outcomes_of(kind: str) -> tuple[str, ...]:
    """The exclusive outcomes a check kind answers with (*Secondary Effects* miss-by tables)."""
    return OUTCOMES.get(kind, ("success", "failure"))


def default_tl(kind: str, options: Mapping[str, Any], danger_hexes: int | None) -> int | None:
    """A check's TL when the caller sends none: 10 for Fumble?/Stumble?, option `balance_tl` for balance,
    the pass-through TL for a pass-through (None: the caller must send one)."""
    if kind in ("fumble", "stumble"):
        return 10
    if kind == "balance":
        return options["balance_tl"]
    if kind == "pass_through":
        return options["pass_through_base_tl"] + options["pass_through_per_hex"] * (danger_hexes or 1)
    return None


def outcome(kind: str, total: int, tl: int, tie_succeeds: bool) -> str:
    """One check's outcome: success, or the kind's miss-by band (Fumble: 0 slip, 1-3 drop, 4+ fly; Stumble:
    0 slip, 1-3 knees, 4-6 hands and knees, 7+ flat) (*Secondary Effects*)."""
    if task.succeeds(total, tl, tie_succeeds):
        return "success"
    miss_by = tl - total
    if kind == "fumble":
        return "slip" if miss_by <= 0 else "drop" if miss_by <= 3 else "fly"
    if kind == "stumble":
        return ("slip" if miss_by <= 0 else "knees" if miss_by <= 3 else "hands_and_knees" if miss_by <= 6
                else "flat")
    return "failure"


def probabilities(kind: str, tl: int, bonus: int, tie_succeeds: bool) -> dict[str, Fraction]:
    """Exact odds of every outcome of a check over 3d6 (*Secondary Effects*)."""
    counts = {name: 0 for name in outcomes_of(kind)}
    for total3, count in THREE_D6.items():
        counts[outcome(kind, total3 + bonus, tl, tie_succeeds)] += count
    return {name: Fraction(n, 216) for name, n in counts.items()}


@dataclass
class CheckRoll:
    """A rolled check."""

    total: int
    margin: int
    outcome: str

    def as_dict(self) -> dict[str, Any]:
        """The `roll` object of the check answer."""
        return {"total": self.total, "margin": self.margin, "outcome": self.outcome}


def roll(kind: str, tl: int, bonus: int, tie_succeeds: bool, dice: DiceSource, combatant: str | None = None,
         role: str = "check") -> CheckRoll:
    """Roll one check: 3d6 + bonus against TL (*Resolution of Attacks*: skills all work alike)."""
    if kind not in KINDS:
        raise RulesError(f"unknown check kind {kind!r}", "kind")
    total = dice.roll(role, 3, 6, combatant=combatant).total + bonus
    return CheckRoll(total, total - tl, outcome(kind, total, tl, tie_succeeds))
