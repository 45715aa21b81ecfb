"""Movement per phase and per round (rules document §7; seed *2) Move Phase*)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

ROUND_SECONDS = 5


@dataclass(frozen=True, slots=True)
class Movement:
    """Metres a figure may move: unlimited per phase, round and second; the 1/3 limit; backwards."""

    k: int
    per_phase: Fraction
    per_round: Fraction
    per_second: Fraction
    limited_per_phase: Fraction
    backwards_per_phase: Fraction
    applies_limit: bool


def movement(mov: int, move_actions: int, mobility: int, engaged: bool, limited: bool,
             options: Mapping[str, Any]) -> Movement:
    """Per phase MOV x k + Mobility, k = 1 + move actions [INF]; both movement phases make a round of 5 s;
    engaged, concentrating or reloading: a third of it (Mobility inside the third [DEF]; rounding option
    `limited_rounding`); backwards at half speed [DOC]."""
    k = 1 + move_actions
    phase = Fraction(mov * k + mobility)
    third = phase / 3
    if options["limited_rounding"] == "floor":
        third = Fraction(math.floor(third))
    applies = engaged or limited
    backwards = (third if applies else phase) / 2
    return Movement(k, phase, 2 * phase, 2 * phase / ROUND_SECONDS, third, backwards, applies)
