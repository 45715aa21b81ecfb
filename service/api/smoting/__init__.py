"""Blueprints and payload schemas of the `smoting` ruleset (seed 003)."""
from __future__ import annotations

from service.api.blueprint import Blueprint


def blueprints() -> list[Blueprint]:
    """The smoting calculator and round-resolver blueprints."""
    from service.api.smoting.calculators import blp

    found = [blp]
    try:
        from service.api.smoting.rounds import blp as rounds
    except ImportError:
        return found
    return [*found, rounds]
