"""The smoting calculators (smoting.md 12): one module per operation family, all on the `smoting` blueprint.
`operation` registers a rules calculator `(body, options, dice) -> found` and shapes what it found through
the kit: its chance and odds with their exact twins (null where a sum is unbounded), dice, seed and trace."""
from __future__ import annotations

from typing import Any, Callable

from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules.dice import DiceSource

blp = Blueprint("smoting", __name__, description="Smoting thy Enemy (seed 003): d6 success pools, damage "
                                                   "and ranks, injuries, movement.")
REMEMBERED = kit.Remembered()


def operation(path: str, name: str, schemas: tuple[Any, Any], function: Callable, summary: str) -> None:
    """POST `path`: `function`'s odds (and, with `seed` or `rolls`, its roll) as `schemas[1]`."""
    def view(body: dict) -> dict:
        return run(function, body)
    view.__name__ = view.__qualname__ = path.strip("/").replace("-", "_")
    view.__doc__ = summary
    kit.calculator(blp, path, name, schemas, body_required=needed(schemas[0]))(view)


def needed(request: Any) -> bool:
    """Whether a body must be sent: a request whose fields are all optional may be left out."""
    return any(field.required for field in request._declared_fields.values())


def run(function: Callable, body: dict[str, Any]) -> dict[str, Any]:
    """The answer of a rules calculator; an odds-only answer is shaped once per remembered result."""
    source = kit.dice(body)
    found = function(body, kit.options("smoting", body), source)
    if source is not None:
        return _shape(found, source)
    return REMEMBERED(found, lambda: _shape(found, None))  # type: ignore[no-any-return]


def _shape(found: dict[str, Any], source: DiceSource | None) -> dict[str, Any]:
    out = {k: v for k, v in found.items() if k not in ("odds", "chance", "trace")}
    if "chance" in found:
        out.update(kit.exact("chance", *found["chance"]))
    for name, (values, shown) in found.get("odds", {}).items():
        out.update(kit.exact(name, values, shown))
    if "expected_successes" in out:
        out.update(kit.exact("expected_successes", out["expected_successes"]))
    return {**out, **kit.rolled(source), "trace": kit.trace(found["trace"])}
