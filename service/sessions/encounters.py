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

from service.rules.committed import CommittedRandom, SeededRecording
from service.rules.errors import Contradiction, NotFound, OutOfRange, RulesError
from service.sessions import audit, commitments
from service.sessions.records import MAX_EDITS, Encounter, Segment
from service.sessions.repository import blocked_by
from service.sessions.steps import engine_of, resolve_once

REPLAYABLE = {"add_combatant", "replace_combatant", "remove_combatant", "declare"}
Combatant = dict[str, Any]
Loader = Callable[[str, str, Any, tuple], Any]  # (ruleset, kind, data, path) -> data in the ruleset's shape


def as_sent(ruleset: str, kind: str, data: Any, path: tuple) -> Any:
    """The default loader: payloads are left to the ruleset's engine."""
    return data


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
               setup: dict | None = None, client_seed: str | None = None) -> tuple[Encounter, str]:
        """A new encounter from its options, combatants and the rest of its first state (`setup`: e.g.
        zones), with committed dice under `client_seed` (a random one when None); returns it and its token."""
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
        return self.repository.create(ruleset, state, commitments.fresh_dice(client_seed))

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
                rolls: list[dict] | None = None, meter: Any = None) -> tuple[Encounter, list[dict], Segment]:
        """Resolve the next step (a segment or a round) with the pending declarations (or `declarations`
        instead), dice from `rolls` first, then the encounter's committed dice (issue 25) or, when the caller
        sends one, `seed` (audited too, but the caller chose those dice). The step takes the next nonce.
        `meter` (service.sessions.meter) is the client's byte meter, read and set with the step's own round trips."""
        done: list[Segment] = []
        def compute(current: Encounter) -> Segment:
            sent = None if declarations is None else self.load(current.ruleset, "declaration", declarations,
                                                                ("declarations",))
            used = current.declarations if sent is None else sent
            draws: list = []
            dice = current.dice
            rng = (CommittedRandom(bytes.fromhex(dice["server_seed"]), dice["client_seed"], current.id,
                                   dice["nonce"], draws) if seed is None else SeededRecording(seed, draws))
            step = resolve_once(current.ruleset, current.state, used, seed, (), rolls, rng, draws)
            entry = audit.resolution(dice, seed, current.state, used, rolls, draws)
            done.append(replace(step, audit=entry))
            return done[-1]
        new, events = (self.repository.resolve(encounter_id, token, compute, expected) if meter is None else
                       self.repository.resolve(encounter_id, token, compute, expected, meter=meter))
        return new, events, done[-1]

    def set_client_seed(self, encounter_id: str, token: str, client_seed: str,
                        expected: int | None = None) -> Encounter:
        """Replace the client seed, only before the first step of the current commitment (409 after)."""
        return self.repository.update_dice(encounter_id, token,
                                           lambda current: audit.with_client_seed(current.dice, client_seed),
                                           expected)

    def reveal(self, encounter_id: str, token: str, expected: int | None = None
               ) -> tuple[Encounter, dict[str, str]]:
        """Publish the current server seed and start a new commitment (issue 25, item 4)."""
        shown: list[dict[str, str]] = []
        def change(current: Encounter) -> dict:
            dice, revealed = commitments.rotated(current.dice)
            shown.append(revealed)
            return dice
        new = self.repository.update_dice(encounter_id, token, change, expected)
        return new, shown[-1]

    def audit(self, encounter_id: str, token: str) -> dict[str, Any]:
        """The audit document: commitments (revealed seeds), every resolution and undo."""
        current, entries = self.repository.audit(encounter_id, token)
        return audit.document(current.id, current.ruleset, current.dice, entries)

    def end(self, encounter_id: str, token: str, expected: int | None = None) -> dict[str, Any]:
        """Delete the encounter; answers its final audit with every seed revealed (issue 25, item 4)."""
        current, entries = self.repository.delete(encounter_id, token, expected)
        return audit.document(current.id, current.ruleset, current.dice, entries, reveal_current=True)

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
