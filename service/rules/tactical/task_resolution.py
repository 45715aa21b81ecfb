"""The Task Resolution Table: AV against DV to a percent chance (RULINGS 4).

The seed ("Resolving the Battle") looks the chance up on a table it never prints. Referee's default
curve is its own, not the game's: the attacker's share of AV + DV. `linear` and a caller's own
breakpoint table are the alternatives a game master may pick.
"""
from __future__ import annotations

from typing import Any, Literal, Mapping, Sequence

from service.rules.errors import Contradiction, RulesError
from service.rules.rounding import half_up_quotient

Method = Literal["ratio", "linear", "table"]
METHODS: tuple[str, ...] = ("ratio", "linear", "table")
Path = tuple[str | int, ...]


def ratio_chance(av: int, dv: int) -> int:
    """RULINGS 4 default: round_half_up(100 x AV / (AV + DV)) clamped 1..99; AV <= 0 -> 1, DV <= 0 -> 99."""
    if av <= 0:
        return 1
    if dv <= 0:
        return 99
    return _clamp(half_up_quotient(100 * av, av + dv))


def linear_chance(av: int, dv: int) -> int:
    """RULINGS 4 alternative `linear`: 50 + AV - DV clamped 1..99."""
    return _clamp(50 + av - dv)


def table_chance(av: int, dv: int, table: Mapping[str, Any], at: Path = ("task_resolution", "table")) -> int:
    """RULINGS 4 alternative `table`: the cell at the greatest AV and DV breakpoints not above the values.

    A value below the first breakpoint reads the first row or column.
    """
    avs, dvs, chances = check_table(table, at)
    return chances[_index(avs, av)][_index(dvs, dv)]


def chance(av: int, dv: int, method: str = "ratio", table: Mapping[str, Any] | None = None,
           at: Path = ("task_resolution",)) -> int:
    """Percent chance of success of AV against DV on the chosen table ("Resolving the Battle", RULINGS 4).

    A `table` is required with method `table` and refused with the others.
    """
    if table is not None and method != "table":
        raise Contradiction("a `table` is only used with method `table`", (*at, "table"))
    if method == "ratio":
        return ratio_chance(av, dv)
    if method == "linear":
        return linear_chance(av, dv)
    if method == "table":
        if table is None:
            raise Contradiction("method `table` needs a `table`", (*at, "table"))
        return table_chance(av, dv, table, (*at, "table"))
    raise RulesError(f"method must be one of {', '.join(METHODS)}", (*at, "method"))


def check_table(table: Mapping[str, Any], at: Path) -> tuple[list[int], list[int], list[list[int]]]:
    """Validate a caller's breakpoint table: ascending whole AV and DV breakpoints, one 0..100 cell each."""
    avs = _breakpoints(table.get("av"), (*at, "av"))
    dvs = _breakpoints(table.get("dv"), (*at, "dv"))
    rows = table.get("chances")
    if not isinstance(rows, list) or len(rows) != len(avs):
        raise Contradiction(f"chances needs one row per AV breakpoint ({len(avs)})", (*at, "chances"))
    for i, row in enumerate(rows):
        _check_row(row, len(dvs), (*at, "chances", i))
    return avs, dvs, rows


def default_table(top: int = 200) -> list[list[int]]:
    """The served default table: ratio chances for AV 0..top (rows) by DV 0..top (columns)."""
    return [[ratio_chance(av, dv) for dv in range(top + 1)] for av in range(top + 1)]


def _breakpoints(values: Any, at: Path) -> list[int]:
    if not isinstance(values, list) or not values or not all(_is_int(v) for v in values):
        raise RulesError("breakpoints must be a non-empty list of whole numbers", at)
    if any(b <= a for a, b in zip(values, values[1:])):
        raise Contradiction("breakpoints must be strictly ascending", at)
    return values


def _check_row(row: Any, width: int, at: Path) -> None:
    if not isinstance(row, list) or len(row) != width:
        raise Contradiction(f"each row needs one chance per DV breakpoint ({width})", at)
    if not all(_is_int(c) and 0 <= c <= 100 for c in row):
        raise RulesError("chances are whole percents 0..100", at)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _index(breakpoints: Sequence[int], value: int) -> int:
    found = 0
    for i, point in enumerate(breakpoints):
        if point <= value:
            found = i
    return found


def _clamp(value: int) -> int:
    return max(1, min(99, value))
