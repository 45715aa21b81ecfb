"""Trace steps: the explainable record of which rule produced which number."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a calculation: the rule (seed heading or ruling) applied, what it did, the value."""

    rule: str
    detail: str
    value: Any = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view; exact fractions become floats (their exact text stays in `detail`)."""
        value = self.value
        kind = type(value)  # Fraction is an ABC: isinstance of an int or float against it runs Python code
        if kind is Fraction or (kind is not int and kind is not float and isinstance(value, Fraction)):
            value = int(value) if value.denominator == 1 else float(value)
        return {"rule": self.rule, "detail": self.detail, "value": value}


def fmt(value: Fraction | int) -> str:
    """Show an exact number briefly: 7, 33/8, or 6.667 style for repeating fractions."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    decimal = float(value)
    text = f"{decimal:.4f}".rstrip("0").rstrip(".")
    return f"{value.numerator}/{value.denominator} (={text})"
