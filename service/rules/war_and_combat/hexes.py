"""Axial hex geometry of the 2 m battle map: distance, directions, facing sides (*Game Scale*, *Facing*)."""
from __future__ import annotations

import math
from functools import lru_cache

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # facing 0..5


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hexes between two hexes (axial coordinates) (*Game Scale*)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _xy(q: float, r: float) -> tuple[float, float]:
    return q + r / 2, r * math.sqrt(3) / 2


def direction_to(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The hex side (0..5) of `a` that faces `b` most nearly (*Facing*)."""
    return _direction_of(b[0] - a[0], b[1] - a[1])


@lru_cache(maxsize=4096)
def _direction_of(dq: int, dr: int) -> int:
    """`direction_to` for the offset between the hexes (it depends on nothing else, so it is kept)."""
    x, y = _xy(dq, dr)
    best, score = 0, -math.inf
    for i, (side_q, side_r) in enumerate(DIRECTIONS):
        ux, uy = _xy(side_q, side_r)
        dot = x * ux + y * uy
        if dot > score + 1e-9:
            best, score = i, dot
    return best


def side_of(facing: int, a: tuple[int, int], b: tuple[int, int]) -> str:
    """Where `b` stands for a fighter at `a` facing `facing`: front (three hexes), flank (two) or rear (one)
    (*Facing*)."""
    turn = (direction_to(a, b) - facing) % 6
    return "front" if turn in (0, 1, 5) else "rear" if turn == 3 else "flank"


def step(a: tuple[int, int], direction: int) -> tuple[int, int]:
    """The neighbouring hex on side `direction`."""
    dq, dr = DIRECTIONS[direction]
    return a[0] + dq, a[1] + dr
