"""One step of an encounter state, nothing stored: the stateless round resolvers, the encounter store and
the audit verifier (`python -m service verify`) all resolve through `resolve_once`.

This module draws no dice of its own: the caller passes the seed, the supplied `rolls` or a generator.
"""
from __future__ import annotations

import random
from typing import Any

from service.rules import registry
from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, NotFound, UnknownName
from service.rules.interface import LAST_STEP
from service.sessions.records import Segment


def engine_of(ruleset: str, field: tuple = ("ruleset",)) -> Any:
    """The encounter engine of `ruleset` (UnknownName when there is no such ruleset or it has none)."""
    try:
        engine = registry.get(ruleset).engine
    except NotFound:
        engine = None
    if engine is None:
        raise UnknownName(f"ruleset {ruleset!r} cannot run encounters", field)
    return engine


def resolve_once(ruleset: str, state_json: dict, declarations: list[dict], seed: int | None,
                 path: tuple = (), rolls: list[dict] | None = None, rng: random.Random | None = None,
                 draws: list | None = None) -> Segment:
    """One step (segment or round) of `state_json` with `declarations`, dice from `rolls` then `seed`
    (nothing stored). The segment's seed is the one that reproduces it: `seed`, or a fresh one when `seed`
    is None and some die was still needed, or None when every die came from `rolls`. With `rng` (an audited
    encounter step, issue 25) the dice not in `rolls` come from it and every die is appended to `draws`."""
    engine = engine_of(ruleset)
    state = engine.read_state(state_json, path)
    if int(state_json.get(engine.step) or 0) >= LAST_STEP:  # the answer's counter would leave its bounds
        raise Contradiction(f"the state is at its last {engine.step} ({LAST_STEP}); none can follow",
                            (*path, engine.step))
    checked = engine.check_declarations(state, declarations, ("declarations",))
    dice = DiceSource.for_round(seed, rolls) if rng is None else DiceSource.drawing(rng, draws, seed, rolls)
    result = engine.resolve(state, checked, dice)
    new_state = engine.write_state(result.state)
    step = engine.step
    number = max(int(new_state.get(step, 0)), int(state_json.get(step, 0)) + 1)
    return Segment(number, dice.seed, list(result.events), new_state, result.summary)
