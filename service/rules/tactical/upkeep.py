"""The end of a Combat Segment: pain wanes, Surprise counts down and recovery is checked.

Seed: "Getting Hit: Stunned by Pain" (the penalty halves at the end of each CS, RULINGS 14, A29) and
"Surprise!!" (after the stun, an HRT check vs half the failed DV; failing it, a penalty waning by one a
CS for DV/10 CS, F8, A32). Per-CS counters of skill uses simply end with the CS's board.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from service.rules.rounding import halve_times, round_half_up
from service.rules.tactical.blows import check
from service.rules.tactical.board import Board
from service.rules.tactical.combat_state import Combatant, Surprise
from service.rules.trace import Step


def end_of_segment(board: Board) -> tuple[Step, ...]:
    """Apply the end-of-CS upkeep to every combatant; returns what it did as trace steps."""
    steps: list[Step] = []
    for who in list(board.people):
        person = _pain(board.people[who], steps)
        person = _surprise(board, person, steps)
        board.people[who] = person
    return tuple(steps)


def _pain(person: Combatant, steps: list[Step]) -> Combatant:
    if not person.pain_initial:
        return person
    age = person.pain_age + 1
    left = halve_times(person.pain_initial, age)
    steps.append(Step("Getting Hit: Stunned by Pain", f"{person.id}: stun penalty {person.pain_initial} "
                                                       f"halved {age} time(s)", left))
    if left == 0:
        return replace(person, pain_initial=0, pain_age=0)
    return replace(person, pain_age=age)


def _surprise(board: Board, person: Combatant, steps: list[Step]) -> Combatant:
    held = person.surprise
    if held.state == "none" or held.cs_left <= 0:
        return person
    left = held.cs_left - 1
    if held.state == "shaken":
        penalty = max(0, held.penalty - 1)
        state = Surprise("shaken", left, penalty, held.failed_dv) if left else Surprise()
        steps.append(Step("Surprise!!", f"{person.id}: shaken, penalty now {penalty}, {left} CS left", left))
        return replace(person, surprise=state)
    if left > 0:
        steps.append(Step("Surprise!!", f"{person.id}: {held.state}, {left} CS left", left))
        return replace(person, surprise=replace(held, cs_left=left))
    if held.state != "overwhelmed" or not held.failed_dv or not person.standing:
        steps.append(Step("Surprise!!", f"{person.id} recovers from surprise", 0))
        return replace(person, surprise=Surprise())
    dv = round_half_up(Fraction(held.failed_dv, 2))
    if check(board, person, "surprise-recovery", person.attribute("HRT"), dv):
        steps.append(Step("F8", f"{person.id} passes HRT vs {dv}: full recovery", dv))
        return replace(person, surprise=Surprise())
    length = max(1, round_half_up(Fraction(held.failed_dv, 10)))
    steps.append(Step("F8", f"{person.id} fails HRT vs {dv}: acts again, penalty {held.penalty} waning "
                            f"over {length} CS (A32)", length))
    return replace(person, surprise=Surprise("shaken", length, held.penalty, held.failed_dv))
