"""One error hierarchy for the rules domain; the API turns it into problem+json."""
from __future__ import annotations


class RulesError(Exception):
    """A request the rules cannot answer as asked.

    `field` is the path of the offending input (e.g. ``("ranged", "distance")``) when one
    value is to blame; the API reports it so a caller can point at the bad field.
    """

    status = 422
    title = "Unprocessable by the rules"

    def __init__(self, message: str, field: tuple[str | int, ...] | str | None = None):
        super().__init__(message)
        self.message = message
        if isinstance(field, str):
            field = tuple(field.split("."))
        self.field = field


class OutOfRange(RulesError):
    """A value outside what the rules (or a table) cover, e.g. a shot beyond a crossbow's maximum."""

    title = "Out of range"


class UnknownName(RulesError):
    """A name that is not in a catalog (armor type, weapon, table, ruleset)."""

    title = "Unknown name"


class Contradiction(RulesError):
    """Options that cannot hold together, e.g. a charge bonus on a missile shot."""

    title = "Contradictory options"


class NotFound(RulesError):
    """A ruleset or table id that does not exist."""

    status = 404
    title = "Not found"
