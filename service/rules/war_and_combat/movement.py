"""Movement: points per round and per phase by pace, impaired legs, step costs by direction and terrain,
max pace, phases, and unit conversions (*Game Scale*, *Movement*, MOVEMENT RATE BY PACE, *Facing*,
TERRAIN EFFECTS CHART, *Obstacles*, *Wound Effects › Stumble*)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from service.rules.errors import RulesError
from service.rules.trace import Step
from service.rules.war_and_combat import task
from service.rules.war_and_combat.tables import cached

MOVE_PACES = ("creep", "crawl", "walk", "jog", "run", "sprint", "swim")
TERRAINS = ("open", "rough", "treacherous", "slick", "water")
PACE_ORDER = {"creep": 0, "crawl": 0, "walk": 1, "swim": 1, "jog": 2, "run": 3, "sprint": 4}
ROUND_SECONDS = 5
HEX_METRES = 2
FEET_PER_METRE = Fraction(1250, 381)


def hexes_per_round(pace: str, options: Mapping[str, Any]) -> int:
    """Full move in hexes a round (MOVEMENT RATE BY PACE; sprint and creep per options)."""
    if pace == "sprint":
        return options["sprint_hexes"]
    if pace == "creep":
        return options["creep_hexes"]
    for row in cached("pace"):
        if row["pace"] == pace and row["hexes"] is not None:
            return row["hexes"]
    raise RulesError(f"no movement rate for pace {pace!r}", "pace")


def with_legs(points: int, legs_impaired: int) -> int:
    """Movement with impaired legs: one leg halves it (floor), both make it a crawl of 2 (*Stumble*)."""
    if legs_impaired >= 2:
        return min(points, 2)
    if legs_impaired == 1:
        return points // 2
    return points


def terrain_cost(terrain: str, dominant: str, uphill: bool) -> int:
    """Cost of entering a hex of a terrain: open 1, rough/slick/water 2, treacherous as its dominant terrain,
    uphill doubled (TERRAIN EFFECTS CHART)."""
    rows = {r["terrain"]: r for r in cached("terrain")}
    base = rows[dominant if terrain == "treacherous" else terrain]["cost"]
    if base is None:
        raise RulesError("treacherous ground needs a dominant terrain other than treacherous", "dominant")
    return base * (2 if uphill else 1)


def max_pace(terrain: str) -> str | None:
    """The fastest safe pace on a terrain (TERRAIN EFFECTS CHART; open has none)."""
    return next(r["max_pace"] for r in cached("terrain") if r["terrain"] == terrain)


@dataclass
class StepCost:
    """One step's cost, the running total, its phase and whether it needs a roll."""

    cost: int
    total: int
    phase: int | None
    over_max_pace: bool
    roll_needed: bool

    def as_dict(self) -> dict[str, Any]:
        """The step object of the movement answer."""
        return {"cost": self.cost, "total": self.total, "phase": self.phase, "over_max_pace": self.over_max_pace,
                "roll_needed": self.roll_needed}


@dataclass
class Movement:
    """The movement answer."""

    pace: str
    hexes: int
    per_phase: int
    action_penalty: int
    steps: list[StepCost] = field(default_factory=list)
    trace: list[Step] = field(default_factory=list)

    @property
    def metres_per_second(self) -> Fraction:
        """Metres a second over a 5-second round of 2 m hexes (*Game Scale*)."""
        return Fraction(self.hexes * HEX_METRES, ROUND_SECONDS)

    @property
    def feet_per_round(self) -> Fraction:
        """Feet a round, exactly (1 ft = 0.3048 m)."""
        return self.hexes * HEX_METRES * FEET_PER_METRE


def step_cost(step: Mapping[str, Any]) -> int:
    """Cost of one step: a pivot 1; entering a front hex the terrain cost, a flank or rear hex twice it;
    an obstacle +1 (*Facing*, TERRAIN EFFECTS CHART, *Obstacles*)."""
    if step.get("kind", "step") == "pivot":
        return 1 + (1 if step.get("obstacle") else 0)
    cost = terrain_cost(step.get("terrain", "open"), step.get("dominant", "open"), bool(step.get("uphill")))
    if step.get("direction", "front") != "front":
        cost *= 2
    return cost + (1 if step.get("obstacle") else 0)


def plan(pace: str, legs_impaired: int, steps: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> Movement:
    """Movement points, phases and the cost of a path of steps: each phase spends at most half the points
    (floor); a cost not paid this phase carries over (*Movement*, *Terrain Effects*)."""
    trace = []
    points = hexes_per_round(pace, options)
    trace.append(Step("MOVEMENT RATE BY PACE", f"{pace}: {points} hexes a round", points))
    if legs_impaired:
        points = with_legs(points, legs_impaired)
        trace.append(Step("Wound Effects", f"{legs_impaired} impaired leg(s): {points} hexes a round", points))
    per_phase = points // 2
    trace.append(Step("Movement", f"at most half the points in each phase (floor): {per_phase}", per_phase))
    penalty = task.pace_penalty(pace, options)
    out = Movement(pace, points, per_phase, penalty, trace=trace)
    total, phase, left = 0, 1, per_phase
    for i, step in enumerate(steps):
        try:
            cost = step_cost(step)
        except RulesError as error:
            raise RulesError(error.message, ("steps", i, *(error.field or ()))) from None
        total += cost
        phase_of: int | None = None
        if per_phase > 0:
            due = cost
            while due > left:
                due -= left
                phase, left = phase + 1, per_phase
            left -= due
            phase_of = phase
        terrain = step.get("terrain", "open")
        fastest = None if step.get("kind", "step") == "pivot" else max_pace(terrain)
        over = fastest is not None and PACE_ORDER[pace] > PACE_ORDER[fastest]
        out.steps.append(StepCost(cost, total, phase_of, over, over or bool(step.get("obstacle"))))
    if steps:
        trace.append(Step("TERRAIN EFFECTS CHART", f"{len(steps)} step(s) cost {total} points", total))
    return out
