"""One melee round (rules document §8; seed *1) Statement of Intent* to *4) Post Melee Move Phase*):
Statement of Intent in INT order, the Move phase in DEX order, every attack, missile and spell in strike-rank
order, the Post-Melee Move. Every die comes from the round's DiceSource, by role and combatant.
The steps live in order, moves, attacks, defences, blows and grapples; `state` holds the round's working state."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from service.rules.dice import DiceSource
from service.rules.interface import StepResult
from service.rules.runequest_house import geometry
from service.rules.runequest_house.model import State
from service.rules.runequest_house.round.attacks import melee_phase
from service.rules.runequest_house.round.blows import PARRY_DEGREE
from service.rules.runequest_house.round.moves import mark_engaged, move_phase
from service.rules.runequest_house.round.order import intent_order, movement_order, strike_order
from service.rules.runequest_house.round.state import Round, clone

__all__ = ["PARRY_DEGREE", "Round", "clone", "resolve"]


def resolve(state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
    """One round: intent, move, melee in SR order, post-melee move; events in order and the new state."""
    work = Round(state, declarations, dice)
    for ident, decl in work.declared.items():
        work.people[ident]["braced"] = decl["braced"]
    for ident in work.people:
        if ident not in work.declared:
            work.people[ident]["braced"] = False
    intent = intent_order(work)
    for ident in intent:
        decl = work.declared[ident]
        work.emit("intent_declared", combatant=ident,
                  actions=[{k: a[k] for k in ("type", "target", "weapon", "mode")} for a in decl["actions"]],
                  braced=decl["braced"], abort=decl["abort"])
    movement = movement_order(work)
    move_phase(work, movement, "move")
    entries = strike_order(work)
    melee_phase(work, entries)
    move_phase(work, movement, "post_melee")
    for entry in entries:
        if entry["action"] == "attack" and entry["target"] and geometry.distance(
                work.people[entry["combatant"]]["position"], work.people[entry["target"]]["position"]) is None:
            mark_engaged(work, work.people[entry["combatant"]], work.people[entry["target"]])
    number = state.round + 1
    work.emit("round_ended", round=number)
    new_state = replace(state, round=number, combatants=tuple(work.people[c["id"]] for c in state.combatants))
    strike = [{"combatant": e["combatant"], "action": e["action"], "sr": e["sr"], "target": e["target"]}
              for e in entries]
    return StepResult(work.events, new_state,
                      {"intent_order": intent, "movement_order": movement, "strike_order": strike})
