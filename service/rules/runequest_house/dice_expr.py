"""Dice expressions of damage and damage bonus ("1d8+1", "-1d4", "2d6", "0"): parsing, exact
distributions by convolution, maxima, and rolls that record every die (rules README, dice expressions)."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from service.rules import memo
from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError

TERM = re.compile(r"([+-]?)(\d*)d(\d+)|([+-]?)(\d+)")
MAX_DICE = 40
MAX_SPREAD = 400  # keeps exact distributions quick: 40d10, 20d20, 4d100
_TERM = "(?:(?:[1-9]|[1-3][0-9]|40)?d(?:[1-9]|[1-9][0-9]|100)|[0-9]{1,3})"
DICE_SHAPE = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": f"^[+-]?{_TERM}([+-]{_TERM})*$"}
_SHAPE = re.compile(DICE_SHAPE["pattern"])


@dataclass(frozen=True, slots=True)
class Expression:
    """Signed dice terms `(sign, count, sides)` and a constant."""

    dice: tuple[tuple[int, int, int], ...]
    constant: int
    shown: str | None = None  # the text when it was built from parts (e.g. "2d8+2+1d4")

    def text(self) -> str:
        """The ASCII expression ("2d8+2+1d4"; "0" when empty)."""
        if self.shown is not None:
            return self.shown
        parts = [f"{'-' if sign < 0 else '+'}{count}d{sides}" for sign, count, sides in self.dice]
        if self.constant or not parts:
            parts.append(f"{self.constant:+d}")
        text = "".join(parts)
        return text.removeprefix("+")

    def maximum(self) -> int:
        """The largest value the expression can take."""
        return self.constant + sum(count * sides if sign > 0 else -count for sign, count, sides in self.dice)

    def plus(self, other: Expression) -> Expression:
        """Both expressions added; the text keeps each part in order ("2d8+2" then "+1d4")."""
        right = other.text()
        if right in ("0", "+0", "-0"):
            shown = self.text()
        else:
            shown = self.text() + (right if right[0] in "+-" else "+" + right)
        return Expression(self.dice + other.dice, self.constant + other.constant, shown)

    def twice(self) -> Expression:
        """The same dice and constant rolled twice (a special impale or slash)."""
        return Expression(tuple((s, 2 * c, sides) for s, c, sides in self.dice), 2 * self.constant)

    def distribution(self) -> dict[int, Fraction]:
        """Exact distribution of the total."""
        return dict(_distribution(self))

    def roll(self, dice: DiceSource, role: str, combatant: str | None = None) -> int:
        """Roll every die (role `role`, one record per term) and add the constant."""
        total = self.constant
        for sign, count, sides in self.dice:
            total += sign * dice.roll(role, count, sides, combatant=combatant).total
        return total


@lru_cache(maxsize=512)
def parse(text: str, field: tuple = ("damage",)) -> Expression:
    """An expression from its ASCII text (422 naming `field` when it is not one)."""
    if not isinstance(text, str) or not 1 <= len(text) <= 40 or not _SHAPE.match(text):
        raise RulesError('must be a dice expression like "1d8+1" (`DICE_SHAPE`)', field)
    dice, constant = [], 0
    for match in TERM.finditer(text):
        if match.group(3) is not None:
            dice.append((-1 if match.group(1) == "-" else 1, int(match.group(2) or 1), int(match.group(3))))
        else:
            constant += int(match.group(5)) * (-1 if match.group(4) == "-" else 1)
    if abs(constant) > 1000:
        raise Contradiction("the constants add up to more than 1000", field)
    if sum(count * sides for _, count, sides in dice) > MAX_SPREAD:
        raise Contradiction(f"the dice may span at most {MAX_SPREAD} values (count x sides summed)", field)
    return Expression(tuple(dice), constant)


@memo.bounded
def _distribution(expression: Expression) -> tuple[tuple[int, Fraction], ...]:
    ways: dict[int, int] = {expression.constant: 1}
    total = 1
    for sign, count, sides in expression.dice:
        for _ in range(count):
            nxt: dict[int, int] = defaultdict(int)
            for value, w in ways.items():
                for face in range(1, sides + 1):
                    nxt[value + sign * face] += w
            ways, total = nxt, total * sides
    return tuple(sorted((value, Fraction(w, total)) for value, w in ways.items()))
