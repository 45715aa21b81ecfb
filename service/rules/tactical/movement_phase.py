"""Movement in a Combat Segment: the whole CS at once, or ten Pulses with the half-rate first Pulse.

Seed: "Movement", "Optional Rule: Pulse Movement", "Opportunity Actions" and the Charge paragraph of
"Getting Hit: The POT of Blows". Distances are exact feet per pulse (mph x 22/15, A35); a CS's
movement is at most ten pulses at full rate.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from service.rules.tactical.board import Board, can_initiate
from service.rules.tactical.combat_state import Combatant
from service.rules.tactical.declarations import Declaration
from service.rules.tactical.events import Moved
from service.rules.tactical.exchange import Strike, resolve_strike
from service.rules.tactical.geometry import passes_within, step_toward
from service.rules.tactical.pulse import feet_exact

PULSES = 10
FULL_PULSES_FOR_CHARGE = 5
BODY_REACH = 5.0  # a body check meets the foe in his 5-ft Zone, whatever weapon is in hand


def reach(combatant: Combatant, weapon: int) -> float:
    """Melee reach in feet between figure centres: a 5-ft zone, or the weapon's Size read in feet (A44)."""
    return float(max(5, combatant.weapons[weapon].size))


def goal(board: Board, declaration: Declaration) -> tuple[float, float, float] | None:
    """Where a declaration takes its maker: (x, y, stop-short feet), or None when he stays put."""
    if declaration.to is not None:
        return declaration.to[0], declaration.to[1], 0.0
    if declaration.action in ("attack", "charge", "body-check") and declaration.target:
        target = board.people[declaration.target]
        near = BODY_REACH if declaration.action == "body-check" else reach(board.people[declaration.combatant],
                                                                            declaration.weapon)
        return target.x, target.y, near * 0.9
    return None


def rate_of(declaration: Declaration) -> Fraction:
    """The quarter rate a declaration moves at (a Charge is always full rate)."""
    return Fraction(1) if declaration.action == "charge" else decimal_fraction(declaration.rate)


@lru_cache(maxsize=1024)
def decimal_fraction(value: float) -> Fraction:
    """A float as the exact fraction of its decimal text (0.1 -> 1/10), kept: speeds and rates repeat."""
    return Fraction(str(value))


@lru_cache(maxsize=256)
def _cs_feet(mph: float) -> Fraction:
    """Feet a whole CS of ten full-rate pulses covers at `mph` (A35)."""
    return feet_exact(decimal_fraction(mph)) * PULSES


def move_whole_cs(board: Board, declaration: Declaration) -> None:
    """Without Pulse Move: the mover covers up to rate x ten pulses, within his CS maximum ("Movement")."""
    mover = board.people[declaration.combatant]
    target = goal(board, declaration)
    rate = rate_of(declaration)
    if target is None or rate == 0 or not mover.standing:
        return
    full = _cs_feet(mover.speed_mph)
    moved = board.moved_feet[mover.id]
    if rate == 1 and not moved:
        allowed = float(full)  # the usual first move at full rate: min(full x 1, full - 0)
    else:
        allowed = float(min(full * rate, full - decimal_fraction(moved)))
    x, y, covered = step_toward(mover.x, mover.y, target[0], target[1], allowed, target[2])
    if covered <= 0:
        return
    board.moved_feet[mover.id] += covered
    board.speed_now[mover.id] = float(mover.speed_mph * rate)
    if declaration.action == "charge" and rate == 1:
        board.charge_ready.add(mover.id)
    board.update(mover, x=round(x, 3), y=round(y, 3))
    board.emit(Moved(mover.id, 0, float(rate), round(covered, 3), {"x": round(x, 3), "y": round(y, 3)}))


def pulse_phase(board: Board, order: list[str]) -> None:
    """With Pulse Move: ten pulses, movers stepping in Initiative order (RULINGS 16, A35, A36).

    A mover who reaches his goal keeps his run of full-rate pulses (Referee ruling: arriving is where
    the Charge ends); one who stands still restarts the half-rate ramp and loses it.
    """
    moving = {who: board.people[who].full_pulses > 0 for who in order}
    streak = {who: board.people[who].full_pulses for who in order}
    arrived: set[str] = set()
    for pulse in range(1, PULSES + 1):
        for who in order:
            declaration = board.declaration(who, 1)
            if declaration is None or who in arrived:
                continue
            path, rate = _pulse_step(board, declaration, pulse, moving[who])
            if path is None:
                if rate is None and moving[who]:
                    arrived.add(who)
                else:
                    moving[who], streak[who] = False, 0
                continue
            moving[who] = True
            streak[who] = streak[who] + 1 if rate == 1 else 0
            _opportunities(board, who, path, order)
    for who in order:
        declaration = board.declaration(who, 1)
        if declaration and declaration.action == "charge" and streak[who] >= FULL_PULSES_FOR_CHARGE:
            board.charge_ready.add(who)
        still = who not in arrived and moving[who]
        board.update(board.people[who], full_pulses=streak[who] if still else 0)


def _pulse_step(board: Board, declaration: Declaration, pulse: int, moving_before: bool
                ) -> tuple[tuple[float, float, float, float] | None, Fraction | None]:
    """One pulse of one mover: ((x0, y0, x1, y1), rate) when he moved; (None, None) when he is at his
    goal; (None, 0) when he has nowhere to go or may not move."""
    mover = board.people[declaration.combatant]
    target = goal(board, declaration)
    wanted = rate_of(declaration)
    if target is None or wanted == 0 or not mover.standing:
        return None, Fraction(0)
    rate = wanted if moving_before else min(wanted, Fraction(1, 2))
    feet = float(feet_exact(Fraction(str(mover.speed_mph)) * rate))
    x, y, covered = step_toward(mover.x, mover.y, target[0], target[1], feet, target[2])
    if covered <= 0:
        return None, None
    board.moved_feet[mover.id] += covered
    board.speed_now[mover.id] = float(mover.speed_mph * rate)
    board.update(mover, x=round(x, 3), y=round(y, 3))
    board.emit(Moved(mover.id, pulse, float(rate), round(covered, 3), {"x": round(x, 3), "y": round(y, 3)}))
    return (mover.x, mover.y, round(x, 3), round(y, 3)), rate


def _opportunities(board: Board, mover_id: str, path: tuple[float, float, float, float], order: list[str]) -> None:
    """A waiting figure whose reach the mover's path crosses may strike at once ("Opportunity Actions")."""
    mover = board.people[mover_id]
    for who in order:
        declaration = board.declaration(who, 1)
        waiting = board.people[who]
        if (who == mover_id or declaration is None or not declaration.opportunity or not can_initiate(waiting)
                or not mover.standing or (who, mover_id) in board.opportunities or not _foes(waiting, mover)):
            continue
        weapon = declaration.weapon
        if waiting.weapons[weapon].ranged is None and passes_within(*path, waiting.x, waiting.y,
                                                                    reach(waiting, weapon)):
            board.opportunities.add((who, mover_id))
            resolve_strike(board, Strike(who, mover_id, weapon, "common", "opportunity"))


def _foes(a: Combatant, b: Combatant) -> bool:
    return not a.side or not b.side or a.side != b.side
