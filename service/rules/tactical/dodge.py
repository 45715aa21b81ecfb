"""Dodging again within one action ("Defenses & Defending": Dodge; F37, A34).

A Dodge halves after each use in the action until it rounds to 0; Warriors, Assassins, Huntsmen,
Acrobats and Dancers get one Dodge per 10 SL before the halving starts. The answer is the value of every
use and whether the one asked about is still there, never a DV of 0 standing in for "exhausted".
"""
from __future__ import annotations

from dataclasses import dataclass

from service.rules.tactical.to_hit import reuse_value
from service.rules.trace import Step

HEADING = "Defenses & Defending"


@dataclass(frozen=True, slots=True)
class Dodges:
    """Free dodges, the value of each use (up to the one asked, or the first 0), and the asked use's state."""

    free: int
    values: tuple[int, ...]
    use: int
    dv: int | None
    state: str
    trace: tuple[Step, ...]


def free_dodges(sl: int, trained: bool) -> int:
    """F37 with A34: max(1, SL // 10) for the listed trades, else 1."""
    return max(1, sl // 10) if trained else 1


def dodges(dodge: int, use: int, sl: int = 0, trained: bool = False) -> Dodges:
    """F37: the n-th Dodge in one action, from the original value; exhausted once a use rounds to 0."""
    free = free_dodges(sl, trained)
    values = []
    for n in range(1, use + 1):
        value = reuse_value(dodge, n, free)
        values.append(value)
        if value <= 0:
            break
    exhausted = values[-1] <= 0 or len(values) < use
    state = "exhausted" if exhausted else "available"
    steps = (Step(f"{HEADING} (F37, A34)", f"{free} free dodge(s), then halved from {dodge} each use", tuple(values)),
             Step(HEADING, f"use {use}: {state}", None if exhausted else values[-1]))
    return Dodges(free, tuple(values), use, None if exhausted else values[-1], state, steps)
