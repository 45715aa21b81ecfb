"""Throwing objects that are not weapons ("Firing/Hurling Ranged Attacks", digest 10.4, A40).

Light, hand-sized objects fly as far as a Hafted weapon; bigger or heavier ones get a fraction of it.
The size and the weight each give a multiplier and the smaller one applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from service.rules.errors import Contradiction, RulesError
from service.rules.rounding import exact
from service.rules.tactical import tables

Path = tuple[str | int, ...]


@cache
def _table() -> dict[str, Any]:
    return tables.load("thrown-object-range")


def size_factor(size: Fraction, height: Fraction) -> Fraction:
    """A40: the multiplier for an object's size as a share of the thrower's height (1 inside the best case)."""
    share = size / height
    if share <= exact(_table()["best_case"]["size_height_up_to"]):
        return Fraction(1)
    for row in _table()["rows"]:
        limit = row["size_height_up_to"]
        if limit is None or share <= exact(limit):
            return Fraction(row["range_multiplier"])
    raise AssertionError("the last row has no size limit")


def weight_factor(weight: Fraction, light_enc: Fraction, at: Path = ("object",)) -> Fraction:
    """A40: the multiplier for an object's weight as a share of Light ENC; under 0.25 lb is the best case."""
    best = _table()["best_case"]
    share = weight / light_enc
    if weight < exact(best["weight_pounds_from"]) or share <= exact(best["weight_light_enc_up_to"]):
        return Fraction(1)
    for row in _table()["rows"]:
        if share <= exact(row["weight_light_enc_up_to"]):
            return Fraction(row["range_multiplier"])
    raise Contradiction("an object heavier than the thrower's Light ENC limit cannot be thrown",
                     (*at, "weight_pounds"))


def thrown_object_factor(size: Any, height: Any, weight_lb: Any, light_enc: Any,
                         at: Path = ("object",)) -> Fraction:
    """A40: the range multiplier of a thrown object, the smaller of its size and weight factors."""
    values = {"size": size, "height": height, "weight_pounds": weight_lb, "light_enc": light_enc}
    checked = {name: _positive(value, (*at, name)) for name, value in values.items()}
    return min(size_factor(checked["size"], checked["height"]),
               weight_factor(checked["weight_pounds"], checked["light_enc"], at))


def _positive(value: Any, at: Path) -> Fraction:
    number = exact(value)
    if number <= 0:
        raise RulesError("must be greater than 0", at)
    return number


@dataclass(frozen=True, slots=True)
class ThrownObject:
    """A non-weapon object to throw: its size and the thrower's height (same unit), weight, Light ENC (A40)."""

    size: Fraction
    height: Fraction
    weight_pounds: Fraction
    light_enc: Fraction

    def factor(self, at: Path = ("object",)) -> Fraction:
        """A40: the multiplier on short, medium and long for this object."""
        return thrown_object_factor(self.size, self.height, self.weight_pounds, self.light_enc, at)
