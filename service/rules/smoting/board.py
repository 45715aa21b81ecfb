"""The working state of one round: fighters by id, their action dice, the event log and the dice source
(seed *Sequence of Play*). Rule modules (`strikes`, `moves`, `countdown`) change it in place; the engine
copies the state before a round, so the state it was given is never touched."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.rules.dice import DiceSource
from service.rules.smoting import fighters, pools


@dataclass
class Hand:
    """One fighter's dice this round: faces in hand, the discard pool toward an action's cost, the held die,
    and whether it rolled action dice at the start of the round."""

    dice: list[int] = field(default_factory=list)
    pool: int = 0
    rolled: bool = False
    held: int | None = None

    def top(self) -> int:
        return max(self.dice, default=0)

    def usable(self) -> bool:
        return any(d >= 2 for d in self.dice)

    def take(self, face: int) -> int:
        self.dice.remove(face)
        return face

    def lowest_non_one(self) -> int | None:
        return min((d for d in self.dice if d >= 2), default=None)


@dataclass
class Board:
    """Fighters (mutable copies), hands, options, zones, events and dice of the round being resolved."""

    fighters: dict[str, dict[str, Any]]
    order: list[str]
    options: dict[str, Any]
    zones: dict[str, dict[str, Any]]
    dice: DiceSource
    surprised: set[str] = field(default_factory=set)
    hands: dict[str, Hand] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    crossings: dict[frozenset, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.hands = {ident: Hand() for ident in self.order}

    def emit(self, event_type: str, /, **fields_: Any) -> None:
        self.events.append({"seq": len(self.events) + 1, "type": event_type, **fields_})

    def pool(self, role: str, n: int, who: str | None) -> tuple[list[int], int]:
        return pools.roll(self.dice, role, n, self.options["success_min"], self.options["explode"], who)

    def hand(self, ident: str) -> Hand:
        return self.hands[ident]

    def enemies(self, a: str, b: str) -> bool:
        return self.fighters[a]["side"] != self.fighters[b]["side"]

    def active(self, ident: str) -> bool:
        return fighters.active(self.fighters[ident])

    def burn(self, ident: str, count: int) -> None:
        """Burn action dice: a non-1 die becomes a 1; with only 1s left, a 1 is discarded (seed *Burn 1
        Action Dice*; option `burn_die` picks which non-1 die)."""
        hand = self.hand(ident)
        for _ in range(count):
            others = [d for d in hand.dice if d >= 2]
            if others:
                pick = min(others) if self.options["burn_die"] == "lowest" else max(others)
                hand.dice[hand.dice.index(pick)] = 1
            elif hand.dice:
                hand.dice.remove(1)
