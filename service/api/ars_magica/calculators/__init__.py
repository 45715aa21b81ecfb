"""The ars-magica calculators (seed 002), one module per operation family, each on its own blueprint. What
they share is here (a family never imports another): options read through the ruleset, dice (an empty `rolls`
object rolls too), faces refused beyond use, exact odds shaped once per remembered rules result, and the
dice, seed, assumptions and trace of every answer."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import request

from service.api.kit import calculator as kit
from service.rules.ars_magica import stress
from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.trace import Step

REMEMBERED = kit.Remembered()


def require_body() -> None:
    """A POST whose fields are all optional still needs its JSON object (a missing body is refused)."""
    if not request.get_data(cache=True).strip():
        raise RulesError("a JSON object body is required", ("body",))


def options(body: dict) -> dict[str, Any]:
    """Every option's value (the caller's, checked by the ruleset, else the default)."""
    return kit.options("ars-magica", body)


def dice_for(body: dict) -> DiceSource | None:
    """Dice when the body asks for a roll (`seed` or `rolls`), else None."""
    return kit.dice(body, empty_rolls_roll=True)


def refuse_unused(dice: DiceSource, rolled: Iterable[tuple[str, stress.Rolled | None, str]]) -> None:
    """Faces beyond what a made roll could use answer 422 (its stress role after the final face, its botch
    role beyond the botch dice rolled); the roles of rolls not made are ignored."""
    for role, made, botch_role in rolled:
        if made is None:
            continue
        stress.refuse_leftovers(dice, (role,))
        if made.botch_faces:
            stress.refuse_leftovers(dice, (botch_role,))


def exact_fields(odds: Any, names: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """For each (answer name, attribute of `odds`): the odds and their exact twins (`kit.exact`), written once
    per odds object the rules remember; each answer gets its own copy of the objects."""
    def shape() -> dict[str, Any]:
        return {key: value for name, attribute in names for key, value in kit.exact(name, getattr(odds, attribute)).items()}
    return {key: kit.copied(value) for key, value in REMEMBERED(odds, shape, names).items()}


def common(dice: DiceSource | None, steps: Iterable[Step], assumptions: list[str]) -> dict[str, Any]:
    """`dice`, `seed`, `assumptions` and `trace`."""
    return {**kit.rolled(dice), "assumptions": assumptions, "trace": kit.trace(steps)}
