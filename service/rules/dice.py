"""Dice shared by every ruleset: seeded rolls that keep every die, and exact distributions.

Rolls take the caller's `random.Random` (never the global one) or the caller's own faces
("physical dice at the table"); exact chances come from icepool, never from sampling.
The same layer serves d100 checks, 3d6 + skill, exploding/botching d10 stress dice and
pools of d6 counting successes.
"""
from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from service.rules.errors import Contradiction, RulesError, UnknownName


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll that remembers its dice: `expression` like "d100", each face, and the total."""

    expression: str
    dice: tuple[int, ...]
    total: int
    supplied: bool = False
    role: str | None = None
    combatant: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The Roll object of the contract; `role` and `combatant` only when the roll has them."""
        out: dict[str, object] = {"expression": self.expression, "dice": list(self.dice), "total": self.total,
                                  "supplied": self.supplied}
        if self.role is not None:
            out = {"role": self.role, **out}
        if self.combatant is not None:
            out["combatant"] = self.combatant
        return out


def roll(rng: random.Random, count: int, sides: int, modifier: int = 0) -> Roll:
    """Roll `count` dice of `sides` faces (1..sides) and add `modifier`."""
    if type(rng) is random.Random and type(sides) is int and sides >= 1:
        below = rng._randbelow  # what randint(1, sides) draws, without its three layers of argument checks
        faces = tuple(1 + below(sides) for _ in range(count))
    else:
        faces = tuple(rng.randint(1, sides) for _ in range(count))
    return Roll(_expression(count, sides, modifier), faces, sum(faces) + modifier)


def supplied(faces: Sequence[int], count: int, sides: int, field: str, modifier: int = 0) -> Roll:
    """Accept dice the caller rolled elsewhere, checking each face is a real face of the die."""
    faces = tuple(int(f) for f in faces)
    if len(faces) != count:
        raise RulesError(f"expected {count} dice of d{sides}, got {len(faces)}", field)
    if any(not 1 <= f <= sides for f in faces):
        raise RulesError(f"every face of a d{sides} is between 1 and {sides}", field)
    return Roll(_expression(count, sides, modifier), faces, sum(faces) + modifier, supplied=True)


def d100(rng: random.Random | None = None, face: int | None = None, field: str = "roll") -> Roll:
    """One d100 read 1..100 (00 = 100, RULINGS 1): from the caller's face if given, else rolled."""
    if face is not None:
        return supplied([face], 1, 100, field)
    if rng is None:
        raise ValueError("d100 needs either an rng or a supplied face")
    return roll(rng, 1, 100)


def d10(rng: random.Random | None = None, face: int | None = None, field: str = "roll") -> Roll:
    """One d10 read 1..10, from the caller's face if given, else rolled."""
    if face is not None:
        return supplied([face], 1, 10, field)
    if rng is None:
        raise ValueError("d10 needs either an rng or a supplied face")
    return roll(rng, 1, 10)


def seeded(seed: int | None) -> tuple[random.Random, int]:
    """A private generator and the seed that reproduces it (a fresh seed when none is given)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    return random.Random(seed), seed


def derive_seed(seed: int, *labels: object) -> int:
    """A stable sub-seed for a named part of a job (chunk, trial block), independent of run order."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


Key = tuple[str | None, str]  # (combatant id or None for table-level dice, role)


class DiceSource:
    """The dice of one answer: the caller's own faces first ("rolls", queued per role and combatant),
    then a seeded generator; every die is recorded as a Roll (README of the rules documents, "Dice, seeds
    and caller-supplied rolls").

    The generator is made only when a die is needed that the caller did not supply: `seed` is then the
    caller's seed or, without one, a fresh random seed (echoed so the answer can be replayed); when every
    die was supplied and no seed was sent, `seed` stays None.
    """

    def __init__(self, seed: int | None = None, queues: Mapping[Key, Sequence[tuple[int, tuple]]] | None = None):
        self._seed = seed
        self._rng: random.Random | None = None
        self._queues = {key: deque(faces) for key, faces in (queues or {}).items()}
        self._role_paths: dict[Key, tuple] = {}  # where each queue's role was named (for check_queues)
        self.rolled: list[Roll] = []
        self.draws: list[tuple[int, int, bool]] | None = None  # when kept: every die in order (audited steps)

    @classmethod
    def from_rng(cls, rng: random.Random) -> DiceSource:
        """Dice drawn from a generator the caller already holds (a simulated fight's)."""
        made = cls(0)
        made._rng = rng
        return made

    @classmethod
    def drawing(cls, rng: random.Random, draws: list[tuple[int, int, bool]], seed: int | None = None,
                rolls: Sequence[Mapping[str, Any]] | None = None) -> DiceSource:
        """Dice for an audited encounter step (issue 25): the caller's `rolls` queues first, then `rng`
        (which appends each die it draws to `draws`); supplied faces are appended as (sides, face, True).
        `seed` is what the answer echoes (None for committed dice)."""
        made = cls.for_round(seed, rolls)
        made._rng, made.draws = rng, draws
        return made

    @classmethod
    def for_calculator(cls, seed: int | None, rolls: Mapping[str, Sequence[Any]] | None,
                       path: tuple = ("rolls",)) -> DiceSource:
        """Dice for a calculator: `rolls` is an object role -> list of faces."""
        queues = {(None, role): [(face, (*path, role, j)) for j, face in enumerate(faces)]
                  for role, faces in (rolls or {}).items()}
        made = cls(seed, queues)
        made._role_paths = {(None, role): (*path, role) for role in (rolls or {})}
        return made

    @classmethod
    def for_round(cls, seed: int | None, rolls: Sequence[Mapping[str, Any]] | None,
                  path: tuple = ("rolls",)) -> DiceSource:
        """Dice for a round resolver: `rolls` is a list of {combatant?, role, faces} queues (entries with
        the same combatant and role are consumed one after the other)."""
        queues: dict[Key, list[tuple[int, tuple]]] = {}
        role_paths: dict[Key, tuple] = {}
        for i, entry in enumerate(rolls or ()):
            key = (entry.get("combatant"), entry["role"])
            queues.setdefault(key, []).extend((face, (*path, i, "faces", j))
                                              for j, face in enumerate(entry["faces"]))
            role_paths.setdefault(key, (*path, i, "role"))
        made = cls(seed, queues)
        made._role_paths = role_paths
        return made

    @property
    def seed(self) -> int | None:
        """The seed that reproduces the generated dice (None when none were generated and none was sent)."""
        return self._seed

    @property
    def rng(self) -> random.Random:
        """The seeded generator (made on first use; a fresh seed when the caller sent none)."""
        if self._rng is None:
            if self._seed is None:
                self._seed = random.SystemRandom().randrange(2**63)
            self._rng = random.Random(self._seed)
        return self._rng

    @property
    def supplied_any(self) -> bool:
        """Whether the caller sent any faces at all."""
        return bool(self._queues)

    def check_queues(self, sides: Mapping[str, int], most: Mapping[str, int] | None = None,
                     combatants: Sequence[str] | None = None, first: int = 1) -> None:
        """Refuse, before anything is rolled, queued faces the answer could never use: a role the ruleset
        does not roll (`sides` maps each role to the sides of its die), a face outside its die, more faces
        than the role could ever take (`most`, per role), or a combatant that is not in the fight."""
        for key, queue in self._queues.items():
            combatant, role = key
            where = self._role_paths.get(key)
            if role not in sides:
                raise UnknownName(f"unknown dice role {role!r}; roles: {sorted(sides)}", where)
            if combatants is not None and combatant is not None and combatant not in combatants:
                raise UnknownName(f"no combatant {combatant!r} in this fight",
                                 (*where[:-1], "combatant") if where else None)
            for face, path in queue:
                last = first + sides[role] - 1
                if isinstance(face, bool) or not isinstance(face, int) or not first <= face <= last:
                    raise Contradiction(f"a {role} die is a d{sides[role]}: faces {first}..{last}", path)
            limit = (most or {}).get(role)
            if limit is not None and len(queue) > limit:
                raise Contradiction(f"at most {limit} {role} faces can be used here", queue[limit][1])

    def remaining(self, role: str, combatant: str | None = None) -> int:
        """Faces still queued for this role (a calculator refuses more than it could ever use)."""
        return len(self._queues.get((combatant, role), ()))

    def take(self, role: str, sides: int, combatant: str | None = None, first: int = 1) -> tuple[int, bool]:
        """One face of a d`sides` (not recorded): the next queued face, checked, or a generated one.
        Faces run `first`..`first + sides - 1` (a d10 read 0..9 has `first=0`). Returns (face, supplied)."""
        queue = self._queues.get((combatant, role)) if self._queues else None
        if queue:
            last = first + sides - 1
            face, path = queue.popleft()
            if isinstance(face, bool) or not isinstance(face, int) or not first <= face <= last:
                raise Contradiction(f"a {role} die is a d{sides}: faces {first}..{last}", path)
            if self.draws is not None:
                self.draws.append((sides, face - first + 1, True))
            return face, True
        # randint(first, last) is exactly this draw; calling it directly skips three layers of argument checks
        return first + (self._rng or self.rng)._randbelow(sides), False

    def leftover(self, role: str, combatant: str | None = None) -> tuple | None:
        """The request path of the next face still queued for this role (None when none is left)."""
        queue = self._queues.get((combatant, role))
        return queue[0][1] if queue else None

    def record(self, role: str, expression: str, faces: Sequence[int], total: int, supplied: bool,
               combatant: str | None = None) -> Roll:
        """Keep a roll made of faces from `take` (stress dice, pools, anything not a plain sum)."""
        made = Roll(expression, tuple(faces), total, supplied, role, combatant)
        self.rolled.append(made)
        return made

    def roll(self, role: str, count: int, sides: int, modifier: int = 0, combatant: str | None = None) -> Roll:
        """`count` d`sides` + `modifier`, recorded (supplied when every face came from the caller)."""
        if not (self._queues and self._queues.get((combatant, role))):  # all generated: the common case
            below = (self._rng or self.rng)._randbelow
            faces = tuple([1 + below(sides) for _ in range(count)])
            made = Roll(_expression(count, sides, modifier), faces, sum(faces) + modifier, False, role, combatant)
            self.rolled.append(made)  # what `record` does, without a second tuple of the faces
            return made
        taken = [self.take(role, sides, combatant) for _ in range(count)]
        faces = [face for face, _ in taken]
        return self.record(role, _expression(count, sides, modifier), faces, sum(faces) + modifier,
                           bool(taken) and all(s for _, s in taken), combatant)

    def dice(self) -> list[dict[str, object]]:
        """Every recorded roll as the contract's Roll objects, in the order rolled."""
        return [r.as_dict() for r in self.rolled]


# --- exact distributions (icepool) -------------------------------------------------------------


def sum_distribution(count: int, sides: int, modifier: int = 0) -> dict[int, Fraction]:
    """Exact distribution of the sum of `count` d`sides` plus `modifier` (e.g. 3d6 + skill)."""
    die = count @ icepool.Die(range(1, sides + 1)) + modifier
    return _as_fractions(die)


def at_most_probability(count: int, sides: int, target: int, modifier: int = 0) -> Fraction:
    """Exact P(sum of count d`sides` + modifier <= target): the 3d6-roll-under style check."""
    die = count @ icepool.Die(range(1, sides + 1)) + modifier
    return Fraction(die.probability("<=", target))


def pool_successes(count: int, sides: int, success_at: int) -> dict[int, Fraction]:
    """Exact distribution of successes in a pool of `count` dice, a face >= success_at counting one."""
    hit = icepool.Die(range(1, sides + 1)).map(lambda face: int(face >= success_at))
    return _as_fractions(count @ hit)


def exploding(sides: int, depth: int = 3) -> dict[int, Fraction]:
    """Exact distribution of one die that re-rolls and adds on its top face, up to `depth` times."""
    return _as_fractions(icepool.Die(range(1, sides + 1)).explode(depth=depth))


def uniform_at_most(sides: int, target: int) -> Fraction:
    """P(one d`sides` <= target), clamped: the d100 check of RULINGS 1."""
    return Fraction(min(max(target, 0), sides), sides)


def _as_fractions(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(outcome): Fraction(quantity, total) for outcome, quantity in die.items()}


_EXPRESSIONS: dict[tuple[int, int, int], str] = {}


def _expression(count: int, sides: int, modifier: int) -> str:
    key = (count, sides, modifier)
    text = _EXPRESSIONS.get(key)
    if text is None:
        if len(_EXPRESSIONS) > 4096:
            _EXPRESSIONS.clear()
        text = _EXPRESSIONS[key] = _format_expression(count, sides, modifier)
    return text


def _format_expression(count: int, sides: int, modifier: int) -> str:
    base = f"{count if count != 1 else ''}d{sides}"
    if modifier:
        return f"{base}{modifier:+d}"
    return base
