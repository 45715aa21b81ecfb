"""Positions on the tactical display: distances, Fields of Approach and steps toward a point.

Seed: "Fields of Approach" (eight fields around a figure, Front being the way it faces) and "Engaging
the Enemy". Positions are feet on a plane; facing is in degrees clockwise from +y ("north").
"""
from __future__ import annotations

import math

FIELDS = ("front", "right-front-flank", "right-side", "right-rear-flank", "rear",
          "left-rear-flank", "left-side", "left-front-flank")


def distance(ax: float, ay: float, bx: float, by: float) -> float:
    """Straight-line distance in feet between two figure centres."""
    return math.hypot(bx - ax, by - ay)


def bearing(ax: float, ay: float, bx: float, by: float) -> float:
    """Degrees clockwise from +y of the direction from a to b (0 when they coincide)."""
    if ax == bx and ay == by:
        return 0.0
    return math.degrees(math.atan2(bx - ax, by - ay)) % 360


def field_of_approach(defender_x: float, defender_y: float, facing: int, attacker_x: float,
                      attacker_y: float) -> str:
    """The Field of Approach an attacker stands in, seen from a defender facing `facing` degrees.

    Each field spans 45 degrees centred on its direction; a figure on the same spot counts as Front.
    """
    if defender_x == attacker_x and defender_y == attacker_y:
        return "front"
    relative = (bearing(defender_x, defender_y, attacker_x, attacker_y) - facing) % 360
    return FIELDS[int(((relative + 22.5) % 360) // 45)]


def step_toward(x: float, y: float, tx: float, ty: float, feet: float, stop_short: float = 0.0
                ) -> tuple[float, float, float]:
    """Move from (x, y) toward (tx, ty) by at most `feet`, stopping `stop_short` feet before it.

    Returns the new position and the feet actually covered.
    """
    gap = distance(x, y, tx, ty) - stop_short
    if gap <= 0 or feet <= 0:
        return x, y, 0.0
    covered = min(feet, gap)
    whole = distance(x, y, tx, ty)
    return x + (tx - x) * covered / whole, y + (ty - y) * covered / whole, covered


def passes_within(x0: float, y0: float, x1: float, y1: float, px: float, py: float, reach: float) -> bool:
    """True when a move from (x0, y0) to (x1, y1) comes within `reach` feet of point (px, py).

    Seed "Opportunity Actions": a foe passing within reach of a waiting figure gives it a chance.
    """
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
    return distance(x0 + t * dx, y0 + t * dy, px, py) <= reach


def push_away(x: float, y: float, from_x: float, from_y: float, feet: float) -> tuple[float, float]:
    """Where a figure at (x, y) ends after being knocked `feet` straight away from (from_x, from_y)."""
    if feet <= 0:
        return x, y
    angle = math.radians(bearing(from_x, from_y, x, y))
    return x + feet * math.sin(angle), y + feet * math.cos(angle)
