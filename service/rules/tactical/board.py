"""The scratch pad of one Combat Segment: who stands where, uses of each skill, dice still to spend.

Seed: "Optional Rule: Pulse Movement" (each further use of a weapon skill in a CS halves it) and
"A Word about Defenses". The resolver writes here while it works and turns it back into an immutable
`EncounterState` when the CS ends; nothing outside the resolver sees it.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any

from service.rules import dice
from service.rules.rounding import halve_times
from service.rules.tactical.combat_state import Combatant, EncounterState, Options
from service.rules.tactical.declarations import Declaration
from service.rules.tactical.events import Event

SURPRISE_BLOCKS_ACTION = ("not-surprised", "stunned", "overwhelmed")


@dataclass
class Board:
    """Mutable working state of one CS (private to the resolver)."""

    people: dict[str, Combatant]
    options: Options
    rng: random.Random
    segment: int
    events: list[Event] = field(default_factory=list)
    uses: Counter = field(default_factory=Counter)
    dodges: Counter = field(default_factory=Counter)
    parried: Counter = field(default_factory=Counter)  # (who, weapon): defences made with it this CS
    recovered: set[tuple[str, int]] = field(default_factory=set)  # weapons back to full after a Reprisal
    moved_feet: Counter = field(default_factory=Counter)
    speed_now: dict[str, float] = field(default_factory=dict)
    charge_ready: set[str] = field(default_factory=set)
    opportunities: set[tuple[str, str]] = field(default_factory=set)
    declared: dict[str, list[Declaration]] = field(default_factory=dict)
    d100_faces: dict[str, list[int]] = field(default_factory=dict)
    down_at_start: frozenset[str] = frozenset()

    @classmethod
    def start(cls, state: EncounterState, rng: random.Random) -> "Board":
        """A fresh board for the CS after `state`."""
        down = frozenset(c.id for c in state.combatants if not c.standing)
        return cls({c.id: c for c in state.combatants}, state.options, rng, state.segment + 1,
                   down_at_start=down)

    def finish(self, state: EncounterState) -> EncounterState:
        """The encounter after this CS, combatants in their original order."""
        return replace(state, combatants=tuple(self.people[c.id] for c in state.combatants),
                       segment=self.segment)

    def emit(self, event: Event) -> None:
        """Record an event in the order it happened."""
        self.events.append(event)

    def update(self, combatant: Combatant, **changes: Any) -> Combatant:
        """Replace a combatant with a changed copy and return it."""
        changed = changed_copy(combatant, changes)
        self.people[combatant.id] = changed
        return changed

    def d100(self, who: str) -> dice.Roll:
        """The next d100 for `who`: a face he supplied at the table, else one rolled (RULINGS 1)."""
        queue = self.d100_faces.get(who)
        if queue:
            return dice.d100(face=queue.pop(0), field=f"dice.{who}.d100")
        return dice.d100(self.rng)

    def declaration(self, who: str, pass_number: int) -> Declaration | None:
        """What `who` declared for action `pass_number` (the last one repeats when fewer were given)."""
        mine = self.declared.get(who) or []
        if not mine:
            return None
        return mine[min(pass_number, len(mine)) - 1]


_COMBATANT_FIELDS = frozenset(f.name for f in fields(Combatant))


def changed_copy(combatant: Combatant, changes: dict[str, Any]) -> Combatant:
    """What `dataclasses.replace` gives, built by copying the field values: a Combatant has no
    `__post_init__` and its frozen `__init__` (27 fields set one by one) is the costly part of a CS."""
    unknown = changes.keys() - _COMBATANT_FIELDS
    if unknown or type(combatant) is not Combatant:
        return replace(combatant, **changes)
    changed = object.__new__(Combatant)
    changed.__dict__.update(combatant.__dict__)
    changed.__dict__.update(changes)
    return changed


def pain_now(combatant: Combatant) -> int:
    """The stun-by-pain penalty this CS: round_half_up(P0 / 2^age) (RULINGS 14, A29)."""
    return halve_times(combatant.pain_initial, combatant.pain_age) if combatant.pain_initial else 0


def surprise_penalty(combatant: Combatant) -> int:
    """The Surprise penalty on defences while overwhelmed or shaken (F6, A32)."""
    if combatant.surprise.state in ("overwhelmed", "shaken") and combatant.surprise.cs_left > 0:
        return combatant.surprise.penalty
    return 0


def can_initiate(combatant: Combatant) -> bool:
    """Standing and not held by Surprise ("Surprise!!": only defence and defensive moves)."""
    held = combatant.surprise.state in SURPRISE_BLOCKS_ACTION and combatant.surprise.cs_left > 0
    return combatant.standing and not held
