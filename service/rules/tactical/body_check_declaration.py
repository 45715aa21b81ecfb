"""The `body_check` object of a `body-check` declaration (the Body Check passages under "Opportunity
Actions": body checks, side-swipes and tackles; F39, F40).

The encounter state holds most of both parties' numbers (AGL mod, modified STA, STR, armor layers, the
speed each moved at this CS); the declaration adds what a sheet in the state does not carry: the kind,
the STR att. mod of both parties (`str_mod`, `target_str_mod`, as the calculator names them) and the Size
of the shield the attacker bears.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from service.rules.errors import Contradiction, RulesError
from service.rules.tactical.body_check import Kind

KINDS: tuple[Kind, ...] = ("body-check", "side-swipe", "tackle")
FIELDS = ("kind", "str_mod", "target_str_mod", "shield_size")
BOUNDS = {"str_mod": (-100, 100), "target_str_mod": (-100, 100), "shield_size": (0, 100)}


@dataclass(frozen=True)
class BodyCheckSpec:
    """What a declared body check, side-swipe or tackle needs beyond the encounter state."""

    kind: Kind = "body-check"
    str_mod: int = 0
    target_str_mod: int = 0
    shield_size: int = 0


def read_body_check(raw: Mapping[str, Any], path: tuple) -> BodyCheckSpec | None:
    """The declaration's `body_check` for the Body Check passages of "Opportunity Actions" (defaults when
    left out of a `body-check`); refused on any other action."""
    value = raw.get("body_check")
    body_action = raw.get("action", "attack") == "body-check"
    where = (*path, "body_check")
    if value is None:
        return BodyCheckSpec() if body_action else None
    if not body_action:
        raise Contradiction("body_check goes with the body-check action", where)
    if not isinstance(value, Mapping) or set(value) - set(FIELDS):
        raise RulesError(f"body_check must be an object with {list(FIELDS)}", where)
    kind = value.get("kind", "body-check")
    if kind not in KINDS:
        raise RulesError(f"kind must be one of {list(KINDS)}", (*where, "kind"))
    numbers = {}
    for key, (low, high) in BOUNDS.items():
        number = value.get(key, 0)
        if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
            raise RulesError(f"{key} must be an integer {low}..{high}", (*where, key))
        numbers[key] = number
    return BodyCheckSpec(kind, **numbers)
