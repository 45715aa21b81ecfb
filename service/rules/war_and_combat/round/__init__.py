"""One whole war-and-combat round for any number of combatants (rules document §8; *Combat Sequence*):
upkeep and initiative, the movement phase, a flurry for each engagement group, the adjustment phase.
Every die comes from the round's DiceSource, by role and combatant. The steps live in `moves`, `flurries`,
`attacks` and `blows`; `state` holds the round's working state."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from service.rules.dice import DiceSource
from service.rules.interface import StepResult
from service.rules.war_and_combat.round.blows import NON_STRIKE
from service.rules.war_and_combat.round.flurries import flurry
from service.rules.war_and_combat.round.moves import engagement_groups, initiative, move_phase, upkeep
from service.rules.war_and_combat.round.state import Events, Round, roll_expression, status_of
from service.rules.war_and_combat.state import State

__all__ = ["NON_STRIKE", "Events", "Round", "resolve", "roll_expression", "status_of"]


def resolve(state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
    """The whole round (*Combat Sequence*): events in order, the new state, and the order, initiative and
    flurries as the trace."""
    work = Round(state, declarations, dice)
    upkeep(work)
    order, rolled = initiative(work)
    for ident in order:
        move_phase(work, ident, first=True)
    groups = engagement_groups(work, order)
    rank = {ident: i for i, ident in enumerate(order)}
    for group in sorted(groups, key=lambda g: min(rank[m] for m in g)):
        flurry(work, group, rank)
    for ident in reversed(order):
        move_phase(work, ident, first=False)
    for ident in work.ids:
        c = work.people[ident]
        if ident in work.stunned_at_start and c["stunned_rounds"] > 0:
            c["stunned_rounds"] -= 1
        c["actions_lost"] = 0
        c["surprised"] = False
    work.events.add("round_ended", round=state.round + 1)
    new = replace(state, round=state.round + 1, combatants=tuple(work.people[i] for i in work.ids))
    return StepResult(work.events.items, new, {"order": order, "initiative": rolled, "flurries": work.flurries})
