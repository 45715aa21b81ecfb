"""The working state of one war-and-combat round (rules document §8): each fighter's copy the round may
change, the declarations, the round's DiceSource, its numbered events, and what a fighter can do right now
(*Wound Effects*, *Zones of Danger*, *Running Out of Actions*)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from service.rules.dice import DiceSource
from service.rules.war_and_combat import hexes, wounds
from service.rules.war_and_combat.state import State

TERM = re.compile(r"([+-]?)(\d*)d(\d+)|([+-]?)(\d+)")


class Events:
    """The round's events, numbered from 1."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, event_type: str, /, **fields: Any) -> None:
        """Append one event."""
        self.items.append({"seq": len(self.items) + 1, "type": event_type, **fields})


def roll_expression(expr: str, role: str, dice: DiceSource, combatant: str | None) -> int:
    """Roll a plain dice expression such as "1d6" or "2d6-1" (options `stun_rounds`, `shock_failure_rounds`)."""
    total, pos = 0, 0
    for match in TERM.finditer(expr):
        sign = -1 if (match.group(1) or match.group(4)) == "-" else 1
        if match.group(3):
            count = int(match.group(2) or 1)
            total += sign * dice.roll(role, count, int(match.group(3)), combatant=combatant).total
        else:
            total += sign * int(match.group(5))
        pos = match.end()
    return max(total, 0) if pos else 0


class Round:
    """The working copy of one round."""

    def __init__(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource):
        self.state, self.options, self.dice = state, state.options, dice
        self.people = state.copy_combatants()
        self.ids = [c["id"] for c in state.combatants]
        self.decl = {d["combatant"]: d for d in declarations}
        self.events = Events()
        self.stunned_at_start = {i for i, c in self.people.items() if c["stunned_rounds"] > 0}
        self.stunned = set(self.stunned_at_start)
        self.flurry_actions: dict[str, int] = {}
        self.engaged: set[str] = set()
        self.moved_points: dict[str, int] = {}
        self.path_done: dict[str, int] = {}
        self.flurries: list[dict[str, Any]] = []
        self.primary: dict[str, str] = {}  # whom each engaged fighter is engaged with first
        self._conditions: dict[str, tuple[int, bool, wounds.Condition]] = {}
        # surprise (first round only, option `surprise_rule`): no actions in the first flurry, no defence
        self.surprised = {i for i, c in self.people.items() if c["surprised"]} \
            if state.round == 0 and state.options["surprise_rule"] == "no_first_flurry" else set()

    # --- what a fighter can do -------------------------------------------------------------------
    def cond(self, ident: str) -> wounds.Condition:
        """The fighter's wounds summed up (worked out again only when a wound or a knockout changed them)."""
        c = self.people[ident]
        cached = self._conditions.get(ident)
        if cached is not None and cached[0] == len(c["wounds"]) and cached[1] == c["unconscious"]:
            return cached[2]
        made = wounds.known_condition(c["wounds"], c["unconscious"], self.options)
        self._conditions[ident] = (len(c["wounds"]), c["unconscious"], made)
        return made

    def out(self, ident: str) -> bool:
        """Out of the fight (rules document §8)."""
        return self.cond(ident).defeated

    def can_act(self, ident: str) -> bool:
        """Takes actions this round: not out, not stunned."""
        return not self.out(ident) and ident not in self.stunned

    def can_attack(self, ident: str) -> bool:
        """Can swing a weapon: acts, holds one, and has an arm for it."""
        return self.can_act(ident) and not self.people[ident]["disarmed"] and bool(self.cond(ident).usable_arms)

    def hostile(self, a: str, b: str) -> bool:
        """Different sides (one side never attacks itself)."""
        return a != b and self.people[a]["side"] != self.people[b]["side"]

    def pos(self, ident: str) -> tuple[int, int]:
        """Axial position."""
        p = self.people[ident]["position"]
        return p["q"], p["r"]

    def weapon(self, ident: str) -> dict[str, Any]:
        """The declared weapon (index 0 when none)."""
        c, d = self.people[ident], self.decl.get(ident, {})
        return c["weapons"][d.get("weapon", 0)]

    def reach(self, ident: str) -> int:
        """Hexes the ready weapon reaches (missiles have no zone of threat)."""
        w = self.weapon(ident)
        return 0 if w["kind"] == "missile" else w["range"]

    def penalty(self, ident: str) -> int:
        """Wound action penalty (negative) for every task roll (*Wound Effects*)."""
        return self.cond(ident).action_penalty

    def lose_action(self, ident: str, why: str) -> None:
        """One action lost this round (*Wound Effects*, *Secondary Effects*)."""
        c = self.people[ident]
        c["actions_lost"] += 1
        if self.flurry_actions.get(ident, 0) > 0:
            self.flurry_actions[ident] -= 1
        self.events.add("action_lost", combatant=ident, reason=why)

    def occupied(self, hexpos: tuple[int, int], me: str) -> bool:
        """Whether another fighter stands in the hex."""
        return any(self.pos(o) == hexpos for o in self.ids if o != me)

    def threatening(self, ident: str, hexpos: tuple[int, int]) -> str | None:
        """A hostile fighter whose weapon reaches the hex (zones of threat and danger) (*Zones of Danger*)."""
        for other in self.ids:
            if self.hostile(ident, other) and not self.out(other) and 0 < self.reach(other) \
                    and hexes.distance(self.pos(other), hexpos) <= self.reach(other):
                return other
        return None

    def attack_bonus(self, ident: str, missile: bool) -> int | None:
        """Skill + attribute + wound penalty (+ off-arm penalty); None without a usable arm."""
        c, w = self.people[ident], self.weapon(ident)
        arms = self.cond(ident).usable_arms
        if not arms:
            return None
        off = 0 if "right_arm" in arms else self.options["off_arm_penalty"]
        return w["skill"] + (c["dex_mod"] if missile else c["agl_mod"]) + self.penalty(ident) + off


    def armour_bonuses(self, ident: str) -> dict[str, int]:
        """The Defense bonus of the armour on each location (*Resolution of Attacks*)."""
        return {loc: a["defence_bonus"] for loc, a in self.people[ident]["armor"].items()}


def status_of(rnd: Round | None, ident: str, person: Mapping[str, Any] | None = None,
              options: Mapping[str, Any] | None = None) -> str:
    """A fighter's status word: dying, incapacitated, unconscious, immobile, disabled, stunned or standing
    (rules document §8)."""
    c = person if person is not None else rnd.people[ident]  # type: ignore[union-attr]
    cond = wounds.condition(c["wounds"], c["unconscious"], options if options is not None else rnd.options)  # type: ignore[union-attr]
    if cond.dying:
        return "dying"
    if cond.mortal:
        return "incapacitated"
    if cond.unconscious:
        return "unconscious"
    if cond.immobile:
        return "immobile"
    if cond.defeated:
        return "disabled"
    return "standing"
