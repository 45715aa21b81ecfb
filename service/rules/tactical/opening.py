"""Springing a Surprise at the start of a Combat Segment (seed "Surprise!!", F5-F8, RULINGS 18).

A declaration may carry `surprise` {chance, target_chance, target_dv?, roll?, target_roll?}: the
aggressor's Stealth (or ruse) chance against the target's Perception/AWA chance. The launch is the
aggressor's action this CS (Referee ruling: checked before Initiative, the attack it opens then resolves
in its turn). A surprised target may not start actions in the launch CS; stunned targets lose the next
CS too; overwhelmed ones lose F5 more CS and defend at the F6 penalty.
"""
from __future__ import annotations

from service.rules.tactical import surprise
from service.rules.tactical.board import Board
from service.rules.tactical.combat_state import Surprise
from service.rules.tactical.events import SurpriseSprung

# CS a target stays held, counting the launch CS itself.
HELD = {"none": 0, "not-surprised": 1, "stunned": 2}


def launch_surprises(board: Board) -> None:
    """Resolve every Surprise declared this CS and set each target's Surprise state."""
    for who, declarations in board.declared.items():
        for declaration in declarations[:1]:
            spec = declaration.surprise
            if spec is None or declaration.target is None:
                continue
            result = surprise.surprise(spec["chance"], spec["target_chance"], board.rng,
                                       (spec.get("roll"), spec.get("target_roll")), spec.get("target_dv"))
            verdict = result.verdict
            held = HELD.get(verdict.outcome, verdict.duration_cs + 1)
            target = board.people[declaration.target]
            state = Surprise(verdict.outcome if held else "none", held, verdict.penalty,
                             int(spec.get("target_dv") or 0))
            board.update(target, surprise=state)
            rolls = tuple(c.roll for c in (result.aggressor, result.target) if c is not None)
            board.emit(SurpriseSprung(who, target.id, verdict.outcome, verdict.duration_cs, verdict.penalty,
                                      rolls, result.trace))
