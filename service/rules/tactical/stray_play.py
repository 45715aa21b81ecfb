"""Stray fire inside a Combat Segment ("Misses & Stray Fire").

A missed shot flies on along the line from the shooter through the target. Every figure whose Zone the
line crosses beyond the target, up to the end of the range band the target stood in, is shot at in
turn, nearest first, with the DV shifted by the Progressive size modifier, until one is hit.
"""
from __future__ import annotations

import math

from service.rules.tactical import ranged
from service.rules.tactical.board import Board
from service.rules.tactical.combat_state import Combatant
from service.rules.tactical.stray_fire import size_modifier
from service.rules.tactical.strike import Strike

ZONE_HALF_WIDTH = 2.5  # a figure's Zone is 5 ft across (25 mm at 25 mm scale)


def in_line(shooter: Combatant, target: Combatant, others: list[Combatant], band_end_feet: float
            ) -> list[tuple[float, Combatant]]:
    """Figures beyond the target whose Zone the extended line of fire crosses, within the band, nearest first."""
    dx, dy = target.x - shooter.x, target.y - shooter.y
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    found = []
    for other in others:
        along = (other.x - shooter.x) * ux + (other.y - shooter.y) * uy
        across = abs((other.x - shooter.x) * uy - (other.y - shooter.y) * ux)
        if length < along <= band_end_feet and across <= ZONE_HALF_WIDTH:
            found.append((along, other))
    return sorted(found, key=lambda pair: (pair[0], pair[1].id))


def band_end_feet(reading: ranged.RangeResult) -> float:
    """Where the band the target stood in ends, in feet (yards x 3 for missiles)."""
    limit = getattr(reading.limits, reading.band.replace("-", "_"), None) if reading.band != "extreme" else None
    if limit is None:
        limit = reading.limits.maximum if reading.limits.maximum is not None else math.inf
    return float(limit) * (3 if reading.unit == "yd" else 1)


def stray(board: Board, strike: Strike, reading: ranged.RangeResult, resolve) -> None:
    """After a missed shot: roll against each figure in line until one is hit or the band runs out."""
    shooter, target = board.people[strike.attacker], board.people[strike.defender]
    others = [c for c in board.people.values() if c.id not in (shooter.id, target.id) and c.status != "dead"]
    for along, other in in_line(shooter, target, others, band_end_feet(reading)):
        span = along if reading.unit == "ft" else along / 3
        try:
            own = ranged.range_of(reading.weapon, round(span, 3), shooter.attribute("STR"))
        except Exception:  # past a crossbow's reach: the missile is down
            return
        shift = size_modifier(target.attribute("mSTA"), other.attribute("mSTA"), board.options.progression)
        hit = resolve(board, _retarget(strike, other.id, own, shift))
        if hit:
            return


def _retarget(strike: Strike, defender: str, reading: ranged.RangeResult, shift: int) -> Strike:
    from dataclasses import replace
    return replace(strike, defender=defender, mode="stray", range_dv=reading.dv_modifier, range_band=reading.band,
                   dv_shift=shift)
