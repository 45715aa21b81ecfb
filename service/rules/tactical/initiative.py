"""Initiative and the order of play ("Initiative", "Phases of Play"; F1, RULINGS 17, A5-A7).

Each combatant's score is d10 + AWA mod + HRT mod - stun penalty. The roster runs from the
highest score down; ties go to the higher AGL, then the higher HRT, then the `tie_break`
(`alphabetical` by id, or `coin`: a seeded shuffle), and those last ties are flagged simultaneous.
Actions then go in passes (A6): `passes` is the Phases of Play reading, `extra-first` the
Initiative passage's reading.
"""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from service.rules.dice import Roll, d10
from service.rules.errors import Contradiction, OutOfRange, UnknownName
from service.rules.trace import Step

TIE_BREAKS: tuple[str, ...] = ("alphabetical", "coin")
PASS_ORDERS: tuple[str, ...] = ("passes", "extra-first")
MAX_COMBATANTS = 200
MAX_ACTIONS = 10
Key = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Combatant:
    """One participant on the Initiative roster: F1's modifiers, tie-break attributes, actions (A5)."""

    id: str
    awa_mod: int = 0
    hrt_mod: int = 0
    agl: int = 0
    hrt: int = 0
    actions: int = 1
    stun_penalty: int = 0
    roll: int | None = None

    def score(self, face: int) -> int:
        """F1: d10 face + AWA att. mod. + HRT att. mod. - stun-by-pain penalty."""
        return face + self.awa_mod + self.hrt_mod - self.stun_penalty

    def key(self, face: int) -> Key:
        """What the roster sorts on, highest first: score, then AGL, then HRT (Initiative)."""
        return self.score(face), self.agl, self.hrt


@dataclass(frozen=True, slots=True)
class Placed:
    """A combatant's place on the roster: his d10, his score and whether he tied to the last step."""

    combatant: Combatant
    dice: Roll
    initiative: int
    simultaneous: bool


@dataclass(frozen=True, slots=True)
class Initiative:
    """The roster in order of play, the passes of actions (ids), and for two combatants the exact
    chance that each takes the first action of the CS."""

    roster: tuple[Placed, ...]
    passes: tuple[tuple[str, ...], ...]
    first_probabilities: dict[str, Fraction] | None
    trace: tuple[Step, ...]


def roll_initiative(combatants: Sequence[Combatant], rng: random.Random, tie_break: str = "alphabetical",
                    pass_order: str = "passes", odds: bool = True, explain: bool = True) -> Initiative:
    """Roll Initiative for a CS (F1, RULINGS 17): dice in input order, then sort, then passes (A6).

    `odds` adds the exact first-action chances of a two-combatant roster (the calculator wants them,
    the segment resolver does not); `explain=False` leaves out the trace (the resolver, which reports the
    roster instead, would only throw its twenty formatted lines away).
    """
    _validate(combatants, tie_break, pass_order)
    dice = [d10(rng, c.roll, f"combatants.{i}.roll") for i, c in enumerate(combatants)]
    placed = order(combatants, [d.total for d in dice], tie_break, rng)
    roster = tuple(Placed(combatants[i], dice[i], combatants[i].score(dice[i].total), tied)
                   for i, tied in placed)
    plan = passes([p.combatant for p in roster], pass_order)
    chances = first_probabilities(combatants[0], combatants[1], tie_break) if odds and len(combatants) == 2 else None
    return Initiative(roster, plan, chances, _trace(roster, tie_break, pass_order, plan) if explain else ())


def order(combatants: Sequence[Combatant], faces: Sequence[int], tie_break: str,
          rng: random.Random | None = None) -> list[tuple[int, bool]]:
    """Roster order (Initiative, A7) as (index, simultaneous) pairs: score, AGL, HRT, then tie_break."""
    groups: dict[Key, list[int]] = defaultdict(list)
    for i, (c, face) in enumerate(zip(combatants, faces)):
        groups[c.key(face)].append(i)
    out: list[tuple[int, bool]] = []
    for key in sorted(groups, reverse=True):
        members = sorted(groups[key], key=lambda i: combatants[i].id)
        if tie_break == "coin" and len(members) > 1:
            if rng is None:
                raise ValueError("a coin tie-break needs an rng")
            rng.shuffle(members)
        out.extend((i, len(members) > 1) for i in members)
    return out


def passes(roster: Sequence[Combatant], pass_order: str = "passes") -> tuple[tuple[str, ...], ...]:
    """The passes of actions in a CS (Phases of Play, RULINGS 17, A6), from a roster in order of play.

    `passes`: pass k holds everyone with at least k actions, most actions first, then roster order.
    `extra-first` (the Initiative passage): every action of those with the most actions comes
    first, one pass per action, then the next group down; actions 0 act in no pass.
    """
    if pass_order == "extra-first":
        plan: list[tuple[str, ...]] = []
        for n in sorted({c.actions for c in roster if c.actions > 0}, reverse=True):
            plan.extend([tuple(c.id for c in roster if c.actions == n)] * n)
        return tuple(plan)
    top = max((c.actions for c in roster), default=0)
    return tuple(tuple(c.id for c in sorted(roster, key=lambda c: -c.actions) if c.actions >= k)
                 for k in range(1, top + 1))


def first_probabilities(a: Combatant, b: Combatant, tie_break: str = "alphabetical") -> dict[str, Fraction]:
    """Exact chance that each of two combatants takes the CS's first action (RULINGS 17).

    All 100 d10 pairs count (a supplied roll is fixed); more actions act first in either pass
    order; a full tie goes to the smaller id (`alphabetical`) or half each (`coin`); nobody acts
    first when both have 0 actions.
    """
    shares = {a.id: Fraction(0), b.id: Fraction(0)}
    pairs = [(fa, fb) for fa in _faces(a) for fb in _faces(b)]
    for fa, fb in pairs:
        for name, share in _first(a, fa, b, fb, tie_break).items():
            shares[name] += share / len(pairs)
    return shares


def _faces(c: Combatant) -> range:
    return range(c.roll, c.roll + 1) if c.roll is not None else range(1, 11)


def _first(a: Combatant, fa: int, b: Combatant, fb: int, tie_break: str) -> dict[str, Fraction]:
    if a.actions != b.actions or a.actions == 0:
        if a.actions == b.actions:
            return {}
        return {(a if a.actions > b.actions else b).id: Fraction(1)}
    ka, kb = a.key(fa), b.key(fb)
    if ka != kb:
        return {(a if ka > kb else b).id: Fraction(1)}
    if tie_break == "coin":
        return {a.id: Fraction(1, 2), b.id: Fraction(1, 2)}
    return {min(a.id, b.id): Fraction(1)}


def _validate(combatants: Sequence[Combatant], tie_break: str, pass_order: str) -> None:
    if not 1 <= len(combatants) <= MAX_COMBATANTS:
        raise OutOfRange(f"between 1 and {MAX_COMBATANTS} combatants", ("combatants",))
    if tie_break not in TIE_BREAKS:
        raise UnknownName(f"tie_break is one of {list(TIE_BREAKS)}", ("tie_break",))
    if pass_order not in PASS_ORDERS:
        raise UnknownName(f"pass_order is one of {list(PASS_ORDERS)}", ("pass_order",))
    seen: set[str] = set()
    for i, c in enumerate(combatants):
        if c.id in seen:
            raise Contradiction(f"combatant id {c.id!r} is used twice", ("combatants", i, "id"))
        seen.add(c.id)
        if not 0 <= c.actions <= MAX_ACTIONS:
            raise OutOfRange(f"actions is 0..{MAX_ACTIONS}", ("combatants", i, "actions"))


def _trace(roster: tuple[Placed, ...], tie_break: str, pass_order: str,
           plan: tuple[tuple[str, ...], ...]) -> tuple[Step, ...]:
    steps = [Step("Initiative", _score_text(p), p.initiative) for p in roster]
    tied = [p.combatant.id for p in roster if p.simultaneous]
    if tied:
        steps.append(Step("RULINGS 17", f"still tied after AGL and HRT: {tied}, ordered by tie_break "
                                        f"{tie_break!r} and flagged simultaneous (A7)", len(tied)))
    rule = "RULINGS 17" if pass_order == "passes" else "Referee ruling"
    how = ("all first actions, then all second ...; most actions first, then Initiative (Phases of Play, A6)"
           if pass_order == "passes" else
           "extra-first: every action of the fastest group first, then the next group down (Initiative)")
    steps.append(Step(rule, f"pass_order {pass_order!r}: {how}", len(plan)))
    return tuple(steps)


def _score_text(p: Placed) -> str:
    c, how = p.combatant, "supplied" if p.dice.supplied else "rolled"
    return (f"{c.id}: d10 {how} {p.dice.total} + AWA mod {c.awa_mod} + HRT mod {c.hrt_mod} "
            f"- stun {c.stun_penalty} = {p.initiative} (AGL {c.agl}, HRT {c.hrt}, actions {c.actions})")
