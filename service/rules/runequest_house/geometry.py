"""1 m hexes in axial coordinates (rules document §7; seed *2) Move Phase*)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def distance(a: Mapping[str, int] | None, b: Mapping[str, int] | None) -> int | None:
    """Hexes between two positions (None when either figure has no position: everyone is in reach)."""
    if a is None or b is None:
        return None
    dq, dr = a["q"] - b["q"], a["r"] - b["r"]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def step_toward(start: Mapping[str, int], goal: Mapping[str, int], taken: set[tuple[int, int]]) -> dict[str, int] | None:
    """The free neighbouring hex closest to `goal` (None when no neighbour gets closer)."""
    best, best_d = None, distance(start, goal)
    for dq, dr in NEIGHBOURS:
        hexagon = {"q": start["q"] + dq, "r": start["r"] + dr}
        if (hexagon["q"], hexagon["r"]) in taken:
            continue
        d = distance(hexagon, goal)
        if d is not None and best_d is not None and d < best_d:
            best, best_d = hexagon, d
    return best


def reach(weapon: Mapping[str, Any]) -> int:
    """Hexes a melee weapon reaches: 1 under 2 m, 2 from 2 m, 3 from 3 m (*2) Move Phase*, engagement)."""
    length = weapon.get("length_m") or 0
    return 3 if length >= 3 else 2 if length >= 2 else 1
