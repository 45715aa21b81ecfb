"""The data tables of `war-and-combat` (rules document §11), loaded once from `data/*.json`."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

# Served name -> (file, title)
TABLES: dict[str, tuple[str, str]] = {
    "impact-dice": ("impact_dice", "IMPACT CAP: impact dice by impact cap"),
    "damage-thresholds": ("damage_thresholds", "DAMAGE THRESHOLDS: impaired, disabled, destroyed by size"),
    "hit-location": ("hit_location", "HIT LOCATIONS (and MISSILE HIT LOCATIONS): 3d6 bands"),
    "pace": ("pace", "MOVEMENT RATE BY PACE and ACTION PENALTY BY PACE"),
    "terrain": ("terrain", "TERRAIN EFFECTS CHART: cost and max pace"),
    "missile-range": ("missile_range", "MISSILE TARGETING BY RANGE"),
    "missile-target": ("missile_target", "MOVING TARGET MODIFIERS TO RANGED ATTACKS"),
    "wound-effects": ("wound_effects", "Wound Effects by location and severity"),
    "combat-options": ("combat_options", "COMBAT OPTIONS: secondary effects of non-strike attacks"),
    "armor": ("armor", "Starter armor pack (invented: the text gives no statistics)"),
    "weapons": ("weapons", "Starter weapon pack (invented: the text gives no statistics)"),
}


@cache
def _read(file: str) -> Any:
    return json.loads((DATA / f"{file}.json").read_text(encoding="utf-8"))


def load(name: str) -> Any:
    """A fresh copy of a data table by file name or served name (callers may not change the cached one)."""
    file = TABLES[name][0] if name in TABLES else name
    return json.loads(json.dumps(_read(file)))


def cached(file: str) -> Any:
    """The shared, read-only table (rules code must not modify it)."""
    return _read(file)
