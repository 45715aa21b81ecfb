"""Referee's rulings for the `tactical` ruleset, as data the API serves (full text in docs/RULINGS.md)."""
from __future__ import annotations

from typing import Any

RULINGS: tuple[dict[str, str], ...] = (
    {"id": "R1", "topic": "d100", "ruling": "d100 reads 1..100 (00 = 100); a check succeeds when roll <= chance."},
    {"id": "R2", "topic": "rounding", "ruling": "Every rounding is half up, once, at the end of each formula; exact fractions before."},
    {"id": "R3", "topic": "progressive", "ruling": "progressive(n) = n(n+1)/2 by default; `linear` (n) selectable."},
    {"id": "R4", "topic": "task resolution", "ruling": "Referee's default TRT (not the game's): round_half_up(100*AV/(AV+DV)) clamped 1..99; AV<=0 -> 1; DV<=0 -> 99."},
)

OPTIONS: dict[str, Any] = {
    "task_resolution": {"method": "ratio", "choices": ["ratio", "linear", "table"]},
    "progression": {"default": "triangular", "choices": ["triangular", "linear"]},
    "heroic": True,
    "bumble": True,
    "armor_wear": True,
}
