"""Intimidation inside a Combat Segment ("Demoralizing Attacks, Intimidating Foes"; F41).

When a declared attack carries an `intimidate` and its blow puts POT through, attacker and target roll a
contest: the attacker's Presence AV plus that POT against the target's DV plus his best Presence SL (the
declaration's `target_dv` already holds it) and his side's fighters standing less those fallen. Success
makes him back off or surrender (his HRT check against the POT failed); a failure with the larger AV
lowers his guard against this attacker by Intimidate SL - HRT mod for the next CS.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from service.rules.tactical import intimidation
from service.rules.tactical.board import Board
from service.rules.tactical.combat_state import Combatant
from service.rules.tactical.contest import winner
from service.rules.tactical.events import CheckRolled, StatusChanged
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.trace import Step

if TYPE_CHECKING:
    from service.rules.tactical.declarations import Intimidate


def demoralize(board: Board, attacker_id: str, defender_id: str, spec: "Intimidate", pot_through: int) -> None:
    """Resolve the Presence half of a blow that landed (F41), writing events and the lowered guard."""
    defender = board.people[defender_id]
    if not defender.standing:
        return
    fellows = [c for c in board.people.values() if c.id != defender.id and c.side == defender.side and defender.side]
    standing = sum(1 for c in fellows if c.standing)
    sides = intimidation.sides(spec.presence_av, pot_through, False, spec.target_dv, 0, standing,
                               len(fellows) - standing)
    method = board.options.task_resolution
    a_chance, t_chance = trt_chance(sides.av, sides.dv, method), trt_chance(sides.dv, sides.av, method)
    a_roll, t_roll = board.d100(attacker_id), board.d100(defender_id)
    won = winner(a_chance - a_roll.total, t_chance - t_roll.total) == "a"
    board.emit(CheckRolled(attacker_id, "intimidate", sides.av, sides.dv, a_chance, won, (a_roll,)))
    board.emit(CheckRolled(defender_id, "resist-intimidation", sides.dv, sides.av, t_chance, not won, (t_roll,)))
    found = intimidation.outcome(won, sides.target_ahead)
    if found == "backs-off":
        board.emit(StatusChanged(defender_id, defender.status, f"intimidated by {attacker_id}: backs away to break off"))
    elif found == "surrenders":
        hrt = trt_chance(defender.attribute("HRT"), pot_through, method)
        roll = board.d100(defender_id)
        board.emit(CheckRolled(defender_id, "surrender", defender.attribute("HRT"), pot_through, hrt,
                               roll.total <= hrt, (roll,)))
        if roll.total > hrt:
            board.emit(StatusChanged(defender_id, defender.status, f"breaks and surrenders to {attacker_id}"))
    elif found == "guard-drops":
        drop = intimidation.guard_drop(spec.sl, defender.mod("HRT"))
        if drop:
            _lower(board, defender, attacker_id, drop)


def _lower(board: Board, defender: Combatant, attacker_id: str, drop: int) -> None:
    kept = dict(defender.guard_down) if defender.guard_down_segment == board.segment + 1 else {}
    kept[attacker_id] = max(drop, kept.get(attacker_id, 0))
    board.update(defender, guard_down=tuple(sorted(kept.items())), guard_down_segment=board.segment + 1)
    board.emit(StatusChanged(defender.id, defender.status, f"doubts himself: DV -{drop} against {attacker_id} "
                                                           "next CS"))


def lowered_guard(board: Board, defender: Combatant, attacker_id: str, dv: int) -> tuple[int, list[Step]]:
    """F41: the DV a defender offers this CS to an attacker who intimidated him last CS."""
    if defender.guard_down_segment != board.segment:
        return dv, []
    drop = dict(defender.guard_down).get(attacker_id, 0)
    if not drop:
        return dv, []
    lowered = max(0, dv - drop)
    return lowered, [Step(f"{intimidation.HEADING} (F41)", f"guard lowered against {attacker_id}: -{drop}", lowered)]
