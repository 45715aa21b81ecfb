"""The working copy of one round: mutable combatants, the dice, the event log and the changes every phase
makes (levels lost, effects, who leaves the fight). Events are past-tense facts; narration is elsewhere."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.ars_magica import ladders, state
from service.rules.ars_magica.state import Combatant, State
from service.rules.dice import DiceSource


class Round:
    """Round `number` of a state being resolved."""

    def __init__(self, before: State, declarations: list[dict[str, Any]], dice: DiceSource):
        self.number = before.round + 1
        self.options: Mapping[str, Any] = before.options
        self.people: dict[str, Combatant] = {c["id"]: state.clone(c) for c in before.combatants}
        self._totals: dict[tuple[str, str], Any] = {}
        self._able: dict[str, bool] = {}
        self.order = [c["id"] for c in before.combatants]
        self.declared = {d["combatant"]: d for d in declarations}
        self.dice = dice
        self.events: list[dict[str, Any]] = []

    def emit(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Append an event (`seq` 1-based within the round)."""
        event = {"seq": len(self.events) + 1, "type": kind, "round": self.number, **fields}
        self.events.append(event)
        return event

    def totals(self, ident: str, weapon: str = "weapon") -> Any:
        """`ident`'s MELEE TOTALS (remembered until something about him changes: `changed`)."""
        key = (ident, weapon)
        if key not in self._totals:
            self._totals[key] = state.totals_of(self.people[ident], self.options, weapon)
        return self._totals[key]

    def changed(self, ident: str) -> None:
        """Forget `ident`'s remembered totals (levels, characteristics or gear changed)."""
        self._able.pop(ident, None)
        self._totals.pop((ident, "weapon"), None)
        self._totals.pop((ident, "off_hand"), None)

    def able(self, ident: str) -> bool:
        """Whether `ident` can still act (remembered until `changed`)."""
        if ident not in self._able:
            self._able[ident] = state.able(self.people[ident], self.options)
        return self._able[ident]

    def action(self, ident: str) -> str:
        """What `ident` declared this round ("none" when nothing)."""
        return self.declared.get(ident, {}).get("action", "none")

    def effect(self, ident: str, kind: str) -> int:
        """The total of `ident`'s active effects of `kind` this round."""
        return state.effect_total(self.people[ident], kind, self.number)

    def add_effect(self, ident: str, kind: str, value: int, rounds: int | None) -> None:
        """An effect from the next round on, for `rounds` rounds (None: the rest of the combat)."""
        start = self.number + 1 if rounds is not None else self.number
        until = None if rounds is None else self.number + rounds
        self.people[ident]["effects"].append({"kind": kind, "value": value, "from": start, "until": until})

    def lose(self, ident: str, body: int = 0, fatigue: int = 0, cause: str = "damage") -> None:
        """Levels lost (*3. Melee*; fatigue, *6. Fatigue*), with `levels_lost` and `out_of_fight` events."""
        if body <= 0 and fatigue <= 0:
            return
        person, was = self.people[ident], self.able(ident)
        self.changed(ident)
        person["body_levels_lost"] = min(100, person["body_levels_lost"] + max(body, 0))
        person["fatigue_levels_lost"] = min(100, person["fatigue_levels_lost"] + max(fatigue, 0))
        self.changed(ident)
        body_ladder = ladders.body_ladder(self.options, person["size"])
        self.emit("levels_lost", combatant=ident, body_levels=max(body, 0), fatigue_levels=max(fatigue, 0),
                  cause=cause, body_level=ladders.level_name(body_ladder, person["body_levels_lost"]),
                  fatigue_level=ladders.level_name(self.options["fatigue_levels"], person["fatigue_levels_lost"]))
        self._maybe_out(ident, was)

    def set_level(self, ident: str, ladder: str, name: str, cause: str) -> None:
        """Put `ident` at least at the named level (unconscious, incapacitated, dead)."""
        person, was = self.people[ident], self.able(ident)
        rungs = ladders.body_ladder(self.options, person["size"]) if ladder == "body" else self.options["fatigue_levels"]
        names = [row["name"] for row in rungs]
        target = names.index(name) if name in names else ladders.first_out(rungs)
        key = "body_levels_lost" if ladder == "body" else "fatigue_levels_lost"
        if person[key] < target:
            self.lose(ident, body=target - person[key] if ladder == "body" else 0,
                      fatigue=target - person[key] if ladder == "fatigue" else 0, cause=cause)
        else:  # `lose` already reports him out of the fight; report it once
            self._maybe_out(ident, was)

    def _maybe_out(self, ident: str, was: bool) -> None:
        if was and not self.able(ident):
            self.emit("out_of_fight", combatant=ident, status=state.status(self.people[ident], self.options))

    def engage(self, a: str, b: str) -> None:
        """`a` and `b` are now engaged in melee."""
        for x, y in ((a, b), (b, a)):
            if y not in self.people[x]["engaged_with"]:
                self.people[x]["engaged_with"] = sorted({*self.people[x]["engaged_with"], y})

    def combatants(self) -> tuple[Combatant, ...]:
        """The combatants in their original order."""
        return tuple(self.people[i] for i in self.order)
