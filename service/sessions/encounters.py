"""Encounter use cases: a ruleset's engine checks every change before the repository stores it.

Seed "The Order of Play each CS": declarations are gathered for the next Combat Segment, then the
segment is resolved as a whole. Bad input raises RulesError (with the field path as seen from the
request body) before anything is written, so a refused request never changes the stored encounter.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from service.rules import registry
from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, NotFound, OutOfRange, RulesError, UnknownName
from service.sessions.records import MAX_EDITS, Encounter, Segment
from service.sessions.repository import blocked_by

REPLAYABLE = {"add_combatant", "replace_combatant", "remove_combatant", "declare"}
Combatant = dict[str, Any]
Loader = Callable[[str, str, Any, tuple], Any]  # (ruleset, kind, data, path) -> data in the ruleset's shape


def as_sent(ruleset: str, kind: str, data: Any, path: tuple) -> Any:
    """The default loader: payloads are left to the ruleset's engine."""
    return data


def engine_of(ruleset: str, field: tuple = ("ruleset",)) -> Any:
    """The encounter engine of `ruleset` (UnknownName when there is no such ruleset or it has none)."""
    try:
        engine = registry.get(ruleset).engine
    except NotFound:
        engine = None
    if engine is None:
        raise UnknownName(f"ruleset {ruleset!r} cannot run encounters", field)
    return engine


def fresh_seed() -> int:
    """A seed for a segment the caller did not seed (echoed back so it can be replayed)."""
    return secrets.randbits(63)


class Encounters:
    """Create, change, resolve and undo encounters held by `repository` (Redis or the in-memory twin)."""

    def __init__(self, repository: Any, max_combatants: int = 200, load: Loader = as_sent):
        self.repository = repository
        self.max_combatants = max_combatants
        self.load = load  # the HTTP layer's first check of a payload in its ruleset's shape

    def create(self, ruleset: str, options: dict, combatants: list[Combatant],
               setup: dict | None = None) -> tuple[Encounter, str]:
        """A new encounter from its options, combatants and the rest of its first state (`setup`: e.g.
        zones); returns it and its token."""
        engine = engine_of(ruleset)
        self._limit(len(combatants), ("combatants",))
        for key in ("combatants", "options", "round", "segment"):
            if key in (setup or {}):
                raise Contradiction(f"send `{key}` outside `state`", ("state", key))
        combatants = self.load(ruleset, "combatant", combatants, ("combatants",))
        options = self.load(ruleset, "options", options, ("options",))
        setup = self.load(ruleset, "setup", setup or {}, ("state",))
        first = {**setup, "combatants": combatants, "options": options}
        try:
            state = engine.write_state(engine.read_state(first))
        except RulesError as error:
            if error.field and error.field[0] not in ("combatants", "options"):
                error.field = ("state", *error.field)
            raise
        return self.repository.create(ruleset, state)

    def get(self, encounter_id: str, token: str) -> Encounter:
        """The encounter as stored."""
        return self.repository.get(encounter_id, token)

    def combatant(self, encounter_id: str, token: str, combatant_id: str) -> Combatant:
        """One combatant of the encounter (404 when there is none with this id)."""
        return _find(self.get(encounter_id, token).state, combatant_id)[1]

    def add_combatant(self, encounter_id: str, token: str, combatant: Combatant,
                      expected: int | None = None) -> tuple[Encounter, Combatant]:
        """Add one combatant; the whole encounter is checked again."""
        new = self._edit(encounter_id, token, {"op": "add_combatant", "combatant": combatant}, expected)
        return new, new.state["combatants"][-1]

    def replace_combatant(self, encounter_id: str, token: str, combatant_id: str, combatant: Combatant,
                          expected: int | None = None) -> tuple[Encounter, Combatant]:
        """Replace one combatant (its `id` may be left out; a different one is refused)."""
        if combatant.setdefault("id", combatant_id) != combatant_id:
            raise Contradiction("the body's id differs from the id in the path", ("id",))
        new = self._edit(encounter_id, token, {"op": "replace_combatant", "id": combatant_id,
                                               "combatant": combatant}, expected)
        return new, _find(new.state, combatant_id)[1]

    def remove_combatant(self, encounter_id: str, token: str, combatant_id: str,
                         expected: int | None = None) -> Encounter:
        """Remove one combatant (an encounter keeps at least one)."""
        return self._edit(encounter_id, token, {"op": "remove_combatant", "id": combatant_id}, expected)

    def declare(self, encounter_id: str, token: str, declarations: list[dict],
                expected: int | None = None) -> Encounter:
        """Store the declarations for the next segment, checked against the encounter."""
        return self._edit(encounter_id, token, {"op": "declare", "declarations": declarations}, expected)

    def undo(self, encounter_id: str, token: str, expected: int | None = None) -> Encounter:
        """Undo the last resolved step only: the encounter goes back to just before it, then every edit
        made since (combatants added, replaced or removed, declarations set) is applied again, checked as
        when it was first made. An edit that no longer applies blocks the undo (409 naming it)."""
        return self.repository.undo(encounter_id, token, expected, replay=self._replay)

    def resolve(self, encounter_id: str, token: str, seed: int | None = None,
                declarations: list[dict] | None = None, expected: int | None = None,
                rolls: list[dict] | None = None) -> tuple[Encounter, list[dict], Segment]:
        """Resolve the next step (a segment or a round) with the pending declarations (or `declarations`
        instead), dice from `rolls` first, then `seed`."""
        seed = fresh_seed() if seed is None else seed
        done: list[Segment] = []
        def compute(current: Encounter) -> Segment:
            sent = None if declarations is None else self.load(current.ruleset, "declaration", declarations,
                                                                ("declarations",))
            done.append(resolve_once(current.ruleset, current.state,
                                     current.declarations if sent is None else sent, seed, (), rolls))
            return done[-1]
        new, events = self.repository.resolve(encounter_id, token, compute, expected)
        return new, events, done[-1]

    def _edit(self, encounter_id: str, token: str, edit: dict[str, Any], expected: int | None) -> Encounter:
        """Store one edit; the repository keeps its description for an undo to replay."""
        return self.repository.update(encounter_id, token, lambda current: self._apply(current, edit), expected,
                                      edit=edit)

    def _apply(self, current: Encounter, edit: dict[str, Any]) -> tuple[dict, list]:
        """(state, declarations) after `edit` on `current`; RulesError when it does not apply."""
        op = edit["op"]
        if op == "declare":
            engine = engine_of(current.ruleset)
            loaded = self.load(current.ruleset, "declaration", edit["declarations"], ("declarations",))
            return current.state, engine.check_declarations(engine.read_state(current.state), loaded)
        combatants = list(current.state["combatants"])
        if op == "add_combatant":
            self._limit(len(combatants) + 1, ("combatants",))
            combatants.append(self.load(current.ruleset, "combatant", edit["combatant"], ()))
        elif op == "replace_combatant":
            index, _ = _find(current.state, edit["id"])
            combatants[index] = self.load(current.ruleset, "combatant", edit["combatant"], ())
        else:
            _find(current.state, edit["id"])
            combatants = [c for c in combatants if c.get("id") != edit["id"]]
        engine = engine_of(current.ruleset)
        try:
            state = engine.read_state({**current.state, "combatants": combatants})
        except RulesError as error:
            raise _from_combatant(error) if op != "remove_combatant" else error
        return engine.write_state(state), current.declarations

    def _replay(self, before: Encounter, edits: Sequence[dict[str, Any]]) -> tuple[dict, list]:
        """`edits` applied again, in order, onto the encounter as it was before the undone step."""
        current = before
        for edit in edits:
            if edit.get("op") not in REPLAYABLE:
                raise blocked_by(edit, f"more than {MAX_EDITS} edits were made after it")
            try:
                state, declarations = self._apply(current, edit)
            except RulesError as error:
                raise blocked_by(edit, str(error)) from error
            current = replace(current, state=state, declarations=declarations)
        return current.state, current.declarations

    def _limit(self, count: int, field: tuple) -> None:
        if count > self.max_combatants:
            raise OutOfRange(f"an encounter holds at most {self.max_combatants} combatants", field)


def resolve_once(ruleset: str, state_json: dict, declarations: list[dict], seed: int | None,
                 path: tuple = (), rolls: list[dict] | None = None) -> Segment:
    """One step (segment or round) of `state_json` with `declarations`, dice from `rolls` then `seed`
    (nothing stored). The segment's seed is the one that reproduces it: `seed`, or a fresh one when `seed`
    is None and some die was still needed, or None when every die came from `rolls`."""
    engine = engine_of(ruleset)
    state = engine.read_state(state_json, path)
    checked = engine.check_declarations(state, declarations, ("declarations",))
    dice = DiceSource.for_round(seed, rolls)
    result = engine.resolve(state, checked, dice)
    new_state = engine.write_state(result.state)
    step = engine.step
    number = max(int(new_state.get(step, 0)), int(state_json.get(step, 0)) + 1)
    return Segment(number, dice.seed, list(result.events), new_state, result.summary)


def _find(state: dict, combatant_id: str) -> tuple[int, Combatant]:
    for index, combatant in enumerate(state["combatants"]):
        if combatant.get("id") == combatant_id:
            return index, combatant
    raise NotFound(f"no combatant {combatant_id!r} in this encounter", ("combatant_id",))


def _from_combatant(error: RulesError) -> RulesError:
    """A changed combatant's errors name fields of the request body (the combatant), not of the state."""
    field = tuple(error.field or ())
    if len(field) >= 2 and field[0] == "combatants" and isinstance(field[1], int):
        error.field = field[2:] or None
    return error
