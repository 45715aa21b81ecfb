"""The tactical calculators (seed 000), one module per operation family, each on its own blueprint (its tag in
the contract): to-hit and range, damage and armor wear, movement, contests, the batch, the maneuvers and the
aftermath. What several families share is here (a family never imports another, but the batch runs them
all): a Task Resolution chance and its exact twin."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.api.kit.fields import fraction_text
from service.rules.tactical.task_resolution import chance as trt_chance


def chance_of(av: int, dv: int, task_resolution: dict[str, Any]) -> int:
    """The Task Resolution Table's percent chance for AV against DV, as the caller chose the table (RULINGS 4)."""
    return trt_chance(av, dv, task_resolution["method"], task_resolution.get("table"))


def percent_exact(chance: int) -> str:
    """A percent chance as the exact fraction of 1 beside it ("59/100")."""
    return fraction_text(Fraction(chance, 100))


def chance(name: str, av: int | None, dv: int | None, task_resolution: dict[str, Any]) -> dict[str, Any]:
    """`name` (the percent chance of AV against DV) and `name_exact`; both null when AV or DV is unknown."""
    if av is None or dv is None:
        return {name: None, f"{name}_exact": None}
    value = chance_of(av, dv, task_resolution)
    return {name: value, f"{name}_exact": percent_exact(value)}
