"""Body and fatigue levels (ArM4 core rules the seed assumes; names as in *6. Fatigue*): penalties and
who can still act, read from the ladders in force (options `body_levels`, `fatigue_levels`)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.rules.errors import RulesError

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
    raise RulesError(f"must be one of {[row['name'] for row in ladder]}", path)


def read_ladder(value: Any, path: tuple) -> list[dict[str, Any]]:
    """A caller's ladder (option `body_levels` / `fatigue_levels`): a list of {name, penalty (int <= 0 or
    null), acts (bool)}, starting with a level that acts and ending with one that does not."""
    if not isinstance(value, list) or not 2 <= len(value) <= 20:
        raise RulesError("must be a list of 2 to 20 levels", path)
    out = []
    for i, row in enumerate(value):
        if not isinstance(row, Mapping) or not isinstance(row.get("name"), str) or not row["name"]:
            raise RulesError("each level is {name, penalty, acts}", (*path, i, "name"))
        pen = row.get("penalty")
        if pen is not None and (isinstance(pen, bool) or not isinstance(pen, int) or not -50 <= pen <= 0):
            raise RulesError("penalty is an integer -50..0 or null", (*path, i, "penalty"))
        if not isinstance(row.get("acts"), bool):
            raise RulesError("acts is true or false", (*path, i, "acts"))
        out.append({"name": row["name"], "penalty": pen, "acts": row["acts"]})
    if not out[0]["acts"] or out[-1]["acts"]:
        raise RulesError("the first level must act and the last must not", path)
    return out


def body_ladder(options: Mapping[str, Any], size: int) -> Ladder:
    """The body ladder of one combatant: option `body_levels`, with `size` extra copies of its second level
    when option `size_adds_levels` is on and Size is positive (ArM4 variant)."""
    ladder = options["body_levels"]
    if not options.get("size_adds_levels") or size <= 0:
        return ladder
    return [ladder[0], *[ladder[1]] * size, *ladder[1:]]
