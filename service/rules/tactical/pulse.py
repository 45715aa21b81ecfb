"""Optional Rule: Pulse Movement, table 7-2: mph to feet per pulse and to the three display scales.

The printed table follows one generating rule (digest section 8, RULINGS 15): x = mph x 22/15 exact
feet per pulse; the feet column rounds x (to 0.1 ft below 1 ft, else to 0.1 then to whole feet, half up
each time); the 25mm and 10mm columns are 5x and 2x mm; the 5mm column reads the rounded feet as mm.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from service.rules.errors import OutOfRange, UnknownName
from service.rules.rounding import exact, round_half_up
from service.rules.tactical import tables
from service.rules.trace import Step, fmt

TABLE = "Optional Rule: Pulse Movement (table 7-2)"
FEET_PER_MPH = Fraction(22, 15)
SCALES: dict[str, int] = {"25mm": 5, "10mm": 2, "5mm": 1}
MAX_MPH = 1000


@dataclass(frozen=True, slots=True)
class Conversion:
    """One mph converted for one scale (a row and a column of table 7-2), with how it was found."""

    mph: Fraction
    feet: Fraction
    feet_exact: Fraction
    scale: str
    scale_mm: int
    scale_text: str
    source: str
    trace: tuple[Step, ...]


def feet_exact(mph: Fraction) -> Fraction:
    """F43: feet covered in one pulse (one second) at `mph`: mph x 5280/3600 = mph x 22/15."""
    return Fraction(mph) * FEET_PER_MPH


def table_feet(x: Fraction) -> Fraction:
    """Table 7-2 feet column: under 1 ft to the tenth; otherwise to the tenth, then to whole feet."""
    tenths = Fraction(round_half_up(x * 10), 10)
    return tenths if x < 1 else Fraction(round_half_up(tenths))


def scale_exact(x: Fraction, feet: Fraction, scale: str) -> Fraction:
    """Millimetres per pulse on the display before rounding; the 5mm column uses the rounded feet."""
    return feet if scale == "5mm" else x * SCALES[scale]


def scale_text(mm: int) -> str:
    """How table 7-2 prints a whole-mm distance: "7 mm" below 1 cm, else cm to one decimal ("7.3 cm")."""
    if mm < 10:
        return f"{mm} mm"
    whole, tenth = divmod(mm, 10)
    return f"{whole} cm" if tenth == 0 else f"{whole}.{tenth} cm"


def parse_cell(text: str | None) -> tuple[int, str]:
    """A printed 7-2 cell as whole mm and normalised text ("6.7" -> 67, "6.7 cm"; missing -> 0, "0 mm")."""
    if not text:
        return 0, "0 mm"
    number, _, unit = text.partition(" ")
    mm = round_half_up(exact(number) * (1 if unit == "mm" else 10))
    return mm, scale_text(mm)


def check(mph: Fraction, scale: str, field: tuple[str | int, ...] = ()) -> None:
    """Refuse speeds and scale names table 7-2 cannot convert."""
    if not 0 <= mph <= MAX_MPH:
        raise OutOfRange(f"mph must be between 0 and {MAX_MPH}", (*field, "mph"))
    if scale not in SCALES:
        raise UnknownName(f"scale must be one of {sorted(SCALES)}", (*field, "scale"))


def by_rule(mph: Fraction, scale: str) -> Conversion:
    """Table 7-2 by its generating rule (RULINGS 15): the default for every speed."""
    check(mph, scale)
    x = feet_exact(mph)
    feet = table_feet(x)
    v = scale_exact(x, feet, scale)
    mm = round_half_up(v)
    trace = (
        Step("F43", f"{fmt(mph)} mph x 22/15 = {fmt(x)} ft per pulse", x),
        Step(TABLE, "feet column: " + ("to 0.1 ft, half up" if x < 1 else "to 0.1 ft, then whole ft, half up"),
             feet),
        Step("RULINGS 15", f"{scale} scale at {SCALES[scale]} mm per ft: {fmt(v)} mm -> {scale_text(mm)}", mm),
    )
    return Conversion(mph, feet, x, scale, mm, scale_text(mm), "rule", trace)


@cache
def _printed() -> dict[Fraction, dict[str, object]]:
    return {exact(row["mph"]): row for row in tables.load("pulse-conversions")["rows"]}


def printed(mph: Fraction, scale: str) -> Conversion:
    """The printed cells of table 7-2 (`verbatim`); a speed the table lacks falls back to the rule."""
    row = _printed().get(Fraction(mph))
    if row is None:
        found = by_rule(mph, scale)
        note = Step("A37", f"{fmt(mph)} mph is not printed in table 7-2; computed by the rule instead")
        return replace(found, trace=(note, *found.trace))
    check(mph, scale)
    cell = row[scale]
    mm, text = parse_cell(cell if isinstance(cell, str) else None)
    x = feet_exact(mph)
    trace = (Step("F43", f"{fmt(mph)} mph x 22/15 = {fmt(x)} ft per pulse", x),
             Step(TABLE, f"printed row {fmt(mph)} mph: {row['feet']} ft, {scale} cell {cell!r} -> {text}", mm))
    return Conversion(Fraction(mph), exact(row["feet"]), x, scale, mm, text, "printed", trace)


def convert(mph: Fraction, scale: str = "25mm", verbatim: bool = False) -> Conversion:
    """Table 7-2 for one speed and scale: by the rule (default) or the printed cells (`verbatim`)."""
    return printed(mph, scale) if verbatim else by_rule(mph, scale)
