"""Resolving one Combat Segment for a whole encounter, in the seed's order of play.

Seed: "The Order of Play each CS", "Initiative", "Surprise!!", "Phases of Play: Declaration, Movement
& Resolution", "Optional Rule: Pulse Movement", "Resolving the Battle" and "Getting Hit"; digest
section 17 lists the steps. Same state, same declarations and same seed give the same events.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from service.rules.errors import OutOfRange, RulesError
from service.rules.tactical import initiative, ranged
from service.rules.tactical.body_play import play_body_check
from service.rules.tactical.board import Board, can_initiate, pain_now
from service.rules.tactical.combat_state import Combatant, EncounterState
from service.rules.tactical.declarations import Declaration, read_declarations
from service.rules.tactical.events import (ActionDeclared, ActionLost, InitiativeRolled, SegmentBegan, SegmentEnded,
                                           TaskWorked)
from service.rules.tactical.stray_play import stray
from service.rules.tactical.exchange import Strike, resolve_strike
from service.rules.tactical.geometry import distance
from service.rules.tactical.movement_phase import move_whole_cs, pulse_phase, reach
from service.rules.tactical.opening import launch_surprises
from service.rules.tactical.upkeep import end_of_segment


@dataclass(frozen=True)
class SegmentResult:
    """What one CS produced: the ordered events (JSON-ready) and the state after it."""

    events: tuple[dict[str, Any], ...]
    state: EncounterState


def check_declarations(state: EncounterState, declarations: Any,
                       path: tuple = ("declarations",)) -> list[dict[str, Any]]:
    """Check declarations against the encounter; returns them as given (RulesError names a bad one)."""
    read_declarations(state, declarations, path)
    return [dict(d) for d in declarations]


def resolve_segment(state: EncounterState, declarations: Any, rng: random.Random) -> SegmentResult:
    """Resolve the next CS of `state` with the combatants' `declarations` (digest section 17)."""
    board = Board.start(state, rng)
    board.emit(SegmentBegan(board.segment))
    for declaration in read_declarations(state, declarations):
        board.declared.setdefault(declaration.combatant, []).append(declaration)
        board.d100_faces.setdefault(declaration.combatant, []).extend(declaration.dice.d100)
    launch_surprises(board)
    order, plan = _roster(board)
    for number, ids in enumerate(plan, start=1):
        _declare_and_move(board, ids, number)
        if board.options.pulse_move and number == 1:
            pulse_phase(board, [who for who in order if who in ids])
        for who in ids:
            _resolve(board, who, number)
    trace = end_of_segment(board)
    standing = tuple(c.id for c in board.people.values() if c.standing)
    board.emit(SegmentEnded(board.segment, standing, trace))
    return SegmentResult(tuple(e.as_dict() for e in board.events), board.finish(state))


def _roster(board: Board) -> tuple[list[str], tuple[tuple[str, ...], ...]]:
    """Initiative for everyone still standing (F1, RULINGS 17)."""
    entries = []
    for person in board.people.values():
        if not person.standing:
            continue
        declared = board.declaration(person.id, 1)
        actions = declared.actions if declared and declared.actions is not None else person.actions
        entries.append(initiative.Combatant(person.id, person.mod("AWA"), person.mod("HRT"),
                                            person.attribute("AGL"), person.attribute("HRT"), actions,
                                            pain_now(person), declared.dice.initiative if declared else None))
    if not entries:
        return [], ()
    rolled = initiative.roll_initiative(entries, board.rng, board.options.tie_break, odds=False, explain=False)
    roster = tuple({"id": p.combatant.id, "roll": p.dice.total, "initiative": p.initiative,
                    "actions": p.combatant.actions, "simultaneous": p.simultaneous, "dice": p.dice.as_dict()}
                   for p in rolled.roster)
    board.emit(InitiativeRolled(roster, rolled.passes))
    return [p.combatant.id for p in rolled.roster], rolled.passes


def _declare_and_move(board: Board, ids: tuple[str, ...], number: int) -> None:
    """Declaration & Movement phase of one pass, in roster order ("Phases of Play")."""
    for who in ids:
        declaration = board.declaration(who, number)
        if declaration is None:
            continue
        weapon = None if declaration.action == "body-check" else board.people[who].weapons[declaration.weapon].name
        board.emit(ActionDeclared(who, number, declaration.action, declaration.target, weapon))
        if not board.options.pulse_move:
            move_whole_cs(board, declaration)


def _resolve(board: Board, who: str, number: int) -> None:
    """Resolution phase: carry out one declared action that ends this CS ("Resolving the Battle")."""
    declaration = board.declaration(who, number)
    if declaration is not None and declaration.action == "other":
        _work(board, declaration)
    if declaration is None or declaration.action not in ("attack", "charge", "fire", "body-check"):
        return
    person = board.people[who]
    if not can_initiate(person):
        reason = f"{person.status}" if not person.standing else f"held by surprise ({person.surprise.state})"
        board.emit(ActionLost(who, reason))
        return
    target_id, lost = strike_target(board, declaration)
    if target_id is None:
        board.emit(ActionLost(who, lost))
        return
    if declaration.target != target_id:
        declaration = replace(declaration, target=target_id)
    target = board.people[target_id]
    if declaration.action == "fire":
        _fire(board, declaration)
        return
    if declaration.action == "body-check":
        play_body_check(board, declaration)
        return
    gap = distance(person.x, person.y, target.x, target.y)
    if gap > reach(person, declaration.weapon):
        board.emit(ActionLost(who, f"{target.id} is {gap:.1f} ft away, out of reach"))
        return
    attack = declaration.attack or person.weapons[declaration.weapon].attack
    combo = declaration.combination
    if combo is None:
        resolve_strike(board, Strike(who, target.id, declaration.weapon, attack, "melee",
                                     intimidate=declaration.intimidate))
        return
    if combo.mode == "in-concert":
        resolve_strike(board, Strike(who, target.id, declaration.weapon, attack, "melee", partner=combo.weapon,
                                     combination_sl=combo.sl, in_concert=True, intimidate=declaration.intimidate))
        return
    cap = person.weapons[declaration.weapon].av + person.weapons[combo.weapon].av
    for lead, other in ((declaration.weapon, combo.weapon), (combo.weapon, declaration.weapon)):
        if not (board.people[target.id].status != "dead" and can_initiate(board.people[who])):
            return
        resolve_strike(board, Strike(who, target.id, lead, person.weapons[lead].attack if lead != declaration.weapon
                                     else attack, "melee", partner=other, combination_sl=combo.sl,
                                     combination_cap=cap, intimidate=declaration.intimidate))


def strike_target(board: Board, declaration: Declaration) -> tuple[str | None, str]:
    """Whom a declared attack, charge or shot strikes when it resolves, or (None, why it is lost).

    Referee ruling on a foe who falls before the blow ("Declarations: Character Actions" leaves it open):
    `declared` strikes the named foe; if he has fallen (unconscious, collapsed, dead) since the CS began
    the action is lost, while a foe already down when it began may be struck on purpose (never a dead
    one). `first-standing` strikes the first foe (another side, in the encounter's order) still standing
    at that moment; `random-standing` one of them drawn from the segment's seeded dice.
    """
    if declaration.target_policy == "declared":
        target = board.people[declaration.target or ""]
        if target.status == "dead":
            return None, f"{target.id} is already dead"
        if not target.standing and target.id not in board.down_at_start:
            return None, f"{target.id} fell before the blow"
        return target.id, ""
    foes = [c.id for c in board.people.values() if c.standing and _foes(board.people[declaration.combatant], c)]
    if not foes:
        return None, "no foe left standing"
    if declaration.target_policy == "first-standing":
        return foes[0], ""
    return foes[board.rng.randrange(len(foes))], ""


def _foes(one: Combatant, other: Combatant) -> bool:
    return one.id != other.id and (one.side != other.side or not one.side)


def _work(board: Board, declaration: Declaration) -> None:
    """An `other` action that takes `duration` actions (table 4-1 and "Declarations: Character Actions"):
    each action spent counts one down, across segments; declaring a different task starts afresh."""
    person = board.people[declaration.combatant]
    if not person.standing:
        return
    task = declaration.note or "task"
    left = person.task_left if person.task == task and person.task_left > 0 else declaration.duration
    board.update(person, task=task if left > 1 else "", task_left=left - 1)
    board.emit(TaskWorked(person.id, task, left - 1))


def _fire(board: Board, declaration: Declaration) -> None:
    """A missile or hurled attack: range band and DV from the distance (RULINGS 8, 9)."""
    shooter, target = board.people[declaration.combatant], board.people[declaration.target or ""]
    weapon = shooter.weapons[declaration.weapon]
    feet = distance(shooter.x, shooter.y, target.x, target.y)
    if weapon.ranged is None:
        board.emit(ActionLost(shooter.id, f"{weapon.name} is not a ranged weapon"))
        return
    if feet < ranged.MIN_RANGED_FEET:
        board.emit(ActionLost(shooter.id, "ranged combat needs at least 5 ft between the figures"))
        return
    span = feet if weapon.ranged.startswith("hurled") else feet / 3
    try:
        reading = ranged.range_of(weapon.ranged, round(span, 3), shooter.attribute("STR"))
    except (OutOfRange, RulesError) as error:
        board.emit(ActionLost(shooter.id, error.message))
        return
    shot = Strike(shooter.id, target.id, declaration.weapon, "common", "ranged", range_dv=reading.dv_modifier,
                  range_band=reading.band, days_cocked=declaration.days_cocked)
    if not resolve_strike(board, shot) and board.options.stray_fire:
        stray(board, shot, reading, resolve_strike)
