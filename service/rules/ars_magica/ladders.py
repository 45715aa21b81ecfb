"""Body and fatigue levels (ArM4 core rules the seed assumes; names as in *6. Fatigue*): penalties and
who can still act, read from the ladders in force (options `body_levels`, `fatigue_levels`)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.rules.errors import Contradiction, UnknownName

Ladder = Sequence[Mapping[str, Any]]


def level_name(ladder: Ladder, lost: int) -> str:
    """The level reached after losing `lost` levels (the last level once past the end)."""
    return str(ladder[min(max(lost, 0), len(ladder) - 1)]["name"])


def penalty(ladder: Ladder, lost: int) -> int:
    """The penalty (<= 0) of the level reached; a level where no one acts carries its last penalty."""
    index = min(max(lost, 0), len(ladder) - 1)
    for row in reversed(ladder[: index + 1]):
        if row["penalty"] is not None:
            return int(row["penalty"])
    return 0


def acts(ladder: Ladder, lost: int) -> bool:
    """Whether someone at this level can still act (not incapacitated, dead or unconscious)."""
    return bool(ladder[min(max(lost, 0), len(ladder) - 1)]["acts"])


def first_out(ladder: Ladder) -> int:
    """Levels lost at which the ladder first stops someone acting (incapacitated / unconscious)."""
    return next(i for i, row in enumerate(ladder) if not row["acts"])


def index_of(ladder: Ladder, name: str, path: tuple) -> int:
    """The levels lost to reach the named level (RulesError naming `path` for an unknown name)."""
    for i, row in enumerate(ladder):
        if row["name"] == name:
            return i
    raise UnknownName(f"must be one of {[row['name'] for row in ladder]}", path)


LADDER = {"type": "array", "minItems": 2, "maxItems": 20, "items": {
    "type": "object", "required": ["name", "acts"], "additionalProperties": False, "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "penalty": {"type": ["integer", "null"], "minimum": -50, "maximum": 0}, "acts": {"type": "boolean"}}}}


def read_ladder(value: Any, path: tuple) -> list[dict[str, Any]]:
    """A caller's ladder (option `body_levels` / `fatigue_levels`, of shape `LADDER`): a list of {name,
    penalty (int <= 0 or null), acts (bool)}, starting with a level that acts and ending with one that does
    not."""
    out = [{"name": row["name"], "penalty": None if row.get("penalty") is None else int(row["penalty"]),
            "acts": row["acts"]} for row in value]
    if not out[0]["acts"] or out[-1]["acts"]:
        raise Contradiction("the first level must act and the last must not", path)
    return out


def body_ladder(options: Mapping[str, Any], size: int) -> Ladder:
    """The body ladder of one combatant: option `body_levels`, with `size` extra copies of its second level
    when option `size_adds_levels` is on and Size is positive (ArM4 variant)."""
    ladder = options["body_levels"]
    if not options.get("size_adds_levels") or size <= 0:
        return ladder
    return [ladder[0], *[ladder[1]] * size, *ladder[1:]]
