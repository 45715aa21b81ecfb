"""Injury tables: the 4d6 location roll and the 1d6 effect roll (seed *Injury Table*, *Effects Table.*;
the tables themselves are missing, so both are [DEF] options, smoting.md section 5 step 10)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, Mapping

from service.rules.smoting import tables


def deciding_face(faces: tuple[int, ...]) -> tuple[int, int]:
    """The face shown most often (ties to the highest face) and the shift it allows: 1 for a triple,
    2 for a quadruple (seed *Injury Table*; 4,4,4,6 -> face 4, shift 1)."""
    counts = Counter(faces)
    most = max(counts.values())
    face = max(f for f, c in counts.items() if c == most)
    return face, {3: 1, 4: 2}.get(most, 0)


@cache
def face_odds() -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """P(each face decides the location) and P(each shift), by enumerating all 1296 rolls of 4d6."""
    faces: Counter[int] = Counter()
    shifts: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=4):
        face, shift = deciding_face(roll)
        faces[face] += 1
        shifts[shift] += 1
    return ({f: Fraction(faces[f], 1296) for f in range(1, 7)},
            {s: Fraction(shifts[s], 1296) for s in range(3)})


def location_odds(face_map: Mapping[str, str]) -> dict[str, Fraction]:
    """P(each location of the map) (seed *Injury Table*)."""
    out: dict[str, Fraction] = {}
    for face, p in face_odds()[0].items():
        out[face_map[str(face)]] = out.get(face_map[str(face)], Fraction(0)) + p
    return out


def effect(location: str, roll: int, killing_blow: bool, rows: Mapping[str, Mapping[str, str]]) -> tuple[int, str]:
    """The effect row (1d6, +1 on a killing blow) and effect for a location (seed *Effects Table.*)."""
    row = min(roll + int(killing_blow), 7)
    return row, rows[str(row)][tables.load("injury-locations")["kinds"][location]]


def effect_data(name: str) -> dict[str, Any]:
    """What an effect does to ranks, action dice and saves (seed *Injury Table*, effect list)."""
    return tables.load("injury-effects")["effects"][name]
