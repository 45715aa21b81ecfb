"""The RoundEngine of `runequest-house`: encounter states, declarations and one round at a time."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from service.rules.dice import DiceSource
from service.rules.interface import StepResult
from service.rules.options import read_options
from service.rules.runequest_house import declarations as declaring
from service.rules.runequest_house import model
from service.rules.runequest_house import round as melee_round
from service.rules.runequest_house.options import OPTIONS
from service.rules.runequest_house.round import clone

RULESET_ID = "runequest-house"


def read_ruleset_options(raw: Any, path: tuple) -> dict[str, Any]:
    """Every option, the caller's where given (checked)."""
    return read_options(OPTIONS, raw, path)


class Engine:
    """Rounds of §8: Statement of Intent, Move, Melee in SR order, Post-Melee Move."""

    step = "round"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> model.State:
        """A §3 state from JSON, every value checked."""
        return model.read_state(data, read_ruleset_options, path)

    def write_state(self, state: model.State) -> dict[str, Any]:
        """The canonical JSON of a state (options: only those that differ from the defaults)."""
        options = {k: v for k, v in state.options.items() if not (v is OPTIONS[k].default or v == OPTIONS[k].default)}
        return {"ruleset": RULESET_ID, "round": state.round, "options": copy.deepcopy(options),
                "combatants": [clone(c) for c in state.combatants]}

    def check_declarations(self, state: model.State, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations checked against the state (422 naming the declaration's field)."""
        return declaring.check(state, declarations, path)

    def resolve(self, state: model.State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """One round (rules document §8)."""
        return melee_round.resolve(state, declarations, dice)


ENGINE = Engine()
