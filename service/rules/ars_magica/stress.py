"""The stress die and its botch dice (ArM4 core rules the seed assumes; *3. Melee* "botch dice"), exactly.

A stress die is a d10 read 0..9: faces 2..9 count as read; a 0 counts 0 and calls for botch dice; a 1
re-rolls and doubles (`2·T`), where on the re-rolls a 0 counts 10 and a further 1 doubles again. Every
probability is a rational number: the chained part `T` is handled by recursions that halve their
argument and so end (see the rules document, "Exact probabilities"), never by truncating the chain.

A roll's distribution is a `Roll`: point masses (value -> probability), chained parts (base -> weight:
the value is base + 2·T) and an `excluded` mass (a botched attack or damage roll, which never succeeds).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError

TENTH = Fraction(1, 10)
CHAIN_VALUES = range(2, 11)  # what one re-roll after a 1 counts (0 reads 10), 1 aside
MAX_CHAIN = 64  # a generated chain of 64 ones has probability 1e-64; supplied faces are bounded anyway


@dataclass(frozen=True)
class Roll:
    """The distribution of one roll (total + stress die, or a bare total)."""

    points: Mapping[int, Fraction]
    chains: Mapping[int, Fraction] = field(default_factory=dict)
    excluded: Fraction = Fraction(0)


def unbotched(botch_dice: int) -> Fraction:
    """P(no botch die shows 0) when a stress die shows 0 (ArM4 botch dice; none with 0 dice)."""
    return Fraction(9, 10) ** max(botch_dice, 0)


def botch_chance(botch_dice: int) -> Fraction:
    """P(a stress roll botches): a first 0, then at least one 0 among the botch dice."""
    return TENTH * (1 - unbotched(botch_dice))


def stress_roll(total: int, botch_dice: int, botched_value: int | None = None) -> Roll:
    """Total + stress die. A botch is `excluded` (botched attack or damage: it never succeeds), or counts
    `botched_value` (a botched defence or soak counts as a total of 0, option `botched_total`)."""
    points = {total + face: TENTH for face in range(2, 10)}
    points[total] = points.get(total, Fraction(0)) + TENTH * unbotched(botch_dice)
    botch = botch_chance(botch_dice)
    if botched_value is not None and botch:
        points[botched_value] = points.get(botched_value, Fraction(0)) + botch
        botch = Fraction(0)
    return Roll(points, {total: TENTH}, botch)


def fixed(total: int) -> Roll:
    """A total with no die (a later attack against a defence total)."""
    return Roll({total: Fraction(1)})


@cache
def chain_at_least(x: int) -> Fraction:
    """P(T >= x) for the value T after a 1 (ArM4 stress die): 2..9, 0 as 10, another 1 as 2·T."""
    if x <= 2:
        return Fraction(1)
    return Fraction(max(0, 11 - x), 10) + chain_at_least(-(-x // 2)) / 10


def stress_at_least(x: int) -> Fraction:
    """P(S >= x) for a bare stress die S, botches read as 0."""
    if x <= 0:
        return Fraction(1)
    return Fraction(len([v for v in range(2, 10) if v >= x]), 10) + chain_at_least(-(-x // 2)) / 10


def _chain_below(x: int) -> Fraction:
    return 1 - chain_at_least(x)


def _chain_pair_base(k: int) -> Fraction:
    """c(k): P(T1 - T2 > k) over every case but both chaining again."""
    total = Fraction(0)
    for v1 in CHAIN_VALUES:
        for v2 in CHAIN_VALUES:
            total += Fraction(int(v1 - v2 > k), 100)
    for v in CHAIN_VALUES:
        total += _chain_below(-(-(v - k) // 2)) / 100  # v - 2T > k
        total += chain_at_least((k + v) // 2 + 1) / 100  # 2T - v > k
    return total


@cache
def chain_difference_above(k: int) -> Fraction:
    """P(T1 - T2 > k) for two independent chained values: E(k) = c(k) + E(floor(k/2))/100, which reaches
    a fixed point k* in {0, -1} where E(k*) = 100·c(k*)/99."""
    if k in (0, -1):
        return _chain_pair_base(k) * 100 / 99
    return _chain_pair_base(k) + chain_difference_above(k // 2) / 100


def greater(x: Roll, y: Roll, k: int = 0) -> Fraction:
    """P(X - Y > k) for two independent rolls; `excluded` mass of either side never counts."""
    total = Fraction(0)
    for a, pa in x.points.items():
        for b, pb in y.points.items():
            if a - b > k:
                total += pa * pb
        for b0, pb in y.chains.items():  # a - b0 - 2T > k
            total += pa * pb * _chain_below(-(-(a - b0 - k) // 2))
    for a0, pa in x.chains.items():
        for b, pb in y.points.items():  # a0 + 2T - b > k
            total += pa * pb * chain_at_least((k + b - a0) // 2 + 1)
        for b0, pb in y.chains.items():  # 2(T1 - T2) > k + b0 - a0
            total += pa * pb * chain_difference_above((k + b0 - a0) // 2)
    return total


def at_least(x: Roll, target: int) -> Fraction:
    """P(X >= target) (an ease factor roll: "6+")."""
    return greater(x, fixed(0), target - 1)


def usable(x: Roll) -> Fraction:
    """The probability mass of X that is not excluded (1 - P(botched attack or damage roll))."""
    return 1 - x.excluded


# --- rolling ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rolled:
    """A stress die as rolled: its faces (0..9, a 1 followed by its re-roll), value, and botch dice."""

    faces: tuple[int, ...]
    value: int
    botch_faces: tuple[int, ...] = ()

    @property
    def botches(self) -> int:
        """Botch dice showing 0."""
        return sum(1 for face in self.botch_faces if face == 0)

    @property
    def botched(self) -> bool:
        """Whether the roll botched."""
        return self.botches > 0

    def total(self, base: int, botched_total: int = 0) -> int:
        """base + the die, or the botched total (0) when it botched."""
        return botched_total if self.botched else base + self.value


def roll_stress(dice: DiceSource, role: str, botch_dice: int, botch_role: str,
                combatant: str | None = None) -> Rolled:
    """Roll one stress die (role `role`) and, on a first 0, `botch_dice` botch dice (role `botch_role`);
    both are recorded. Faces are d10 faces 0..9 in the order rolled."""
    face, supplied = dice.take(role, 10, combatant, first=0)
    faces, every = [face], [supplied]
    multiplier = 1
    while face == 1 and len(faces) <= MAX_CHAIN:
        multiplier *= 2
        face, supplied = dice.take(role, 10, combatant, first=0)
        faces.append(face)
        every.append(supplied)
    value = 0 if len(faces) == 1 and face == 0 else multiplier * (10 if face == 0 and len(faces) > 1 else face)
    dice.record(role, "1d10", faces, value, all(every), combatant)
    botch_faces: tuple[int, ...] = ()
    if len(faces) == 1 and face == 0 and botch_dice > 0:
        taken = [dice.take(botch_role, 10, combatant, first=0) for _ in range(botch_dice)]
        botch_faces = tuple(f for f, _ in taken)
        dice.record(botch_role, f"{botch_dice}d10", botch_faces, sum(1 for f in botch_faces if f == 0),
                    all(s for _, s in taken), combatant)
    return Rolled(tuple(faces), value, botch_faces)


def refuse_leftovers(dice: DiceSource, roles: tuple[str, ...], combatant: str | None = None) -> None:
    """A calculator's faces beyond what its rolls could use (after a stress die's final non-1 face, or more
    botch dice than rolled) answer 422 naming the first extra face (rules README, caller-supplied rolls)."""
    for role in roles:
        path = dice.leftover(role, combatant)
        if path is not None:
            raise Contradiction(f"more {role} faces than the roll could use", path)
