"""Each fighter's fixed numbers for the `war-and-combat` engine, read once a chunk from the parsed matchup:
sheet values, the first weapon's impact dice, armor by general location and size thresholds (rules document
§3, §8; IMPACT CAP, DAMAGE THRESHOLDS), as arrays indexed by fighter in matchup order."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.war_and_combat import damage, movement, task

GENERAL = task.GENERAL  # head, arm, chest, belly, leg
SPECIFIC = task.SPECIFIC  # head, chest, belly, left_arm, right_arm, left_leg, right_leg
HEAD, CHEST, BELLY, LA, RA, LL, RL = range(7)
SEVERITY_NAMES = ("none", "light", "serious", "critical", "mortal")
LOCATION_OF = np.zeros(19, dtype=np.int64)  # 3d6 total -> general location index
for _total in range(3, 19):
    LOCATION_OF[_total] = GENERAL.index(task.general_location(_total))
TERM = re.compile(r"([+-]?)(\d*)d(\d+)|([+-]?)(\d+)")


def dice_terms(expression: str) -> tuple[tuple[int, int, int], ...]:
    """A plain dice expression ("1d6", "2d4+1") as (sign, count, sides) terms, sides 0 for a constant
    (round.state.roll_expression's reading)."""
    out = []
    for match in TERM.finditer(expression):
        sign = -1 if (match.group(1) or match.group(4)) == "-" else 1
        if match.group(3):
            out.append((sign, int(match.group(2) or 1), int(match.group(3))))
        else:
            out.append((sign, int(match.group(5)), 0))
    return tuple(out)


@dataclass(frozen=True)
class Figures:
    """Every fighter's sheet numbers (arrays of length n, or (n, 5) by general location)."""

    ids: list[str]
    side: np.ndarray        # side index, sides in matchup order
    sides: list[str]
    fr: np.ndarray
    agl: np.ndarray
    dex: np.ndarray
    skill: np.ndarray
    apf: np.ndarray         # actions a flurry
    reach: np.ndarray       # hexes the weapon reaches (its range)
    count: np.ndarray       # impact dice: count, sides (3 or 6), offset; kd6: a d6 pattern
    dice_sides: np.ndarray
    offset: np.ndarray
    kd6: np.ndarray
    pv: np.ndarray
    limits: np.ndarray      # (n, 3) impaired, disabled, destroyed thresholds
    absorb: np.ndarray      # (n, 5) innate + armor absorption by general location
    pt: np.ndarray
    db: np.ndarray
    tie_keys: list[np.ndarray | None]  # initiative ties, key by key; None: a coin
    per_phase: int          # movement points a phase at a walk, unhurt
    stun_terms: tuple[tuple[int, int, int], ...]

    @property
    def ordered(self) -> bool:
        """Every fighter's thresholds rise from 0 (impaired <= disabled <= destroyed)."""
        lim = self.limits
        return bool((lim[:, 0] >= 0).all() and (np.diff(lim, axis=1) >= 0).all())

    @property
    def n(self) -> int:
        """Fighters in the matchup."""
        return len(self.ids)


def figures(state: Any) -> Figures:
    """The numbers the engine reads from a parsed matchup (rules document §3)."""
    o, cs = state.options, state.combatants
    sides = list(dict.fromkeys(c["side"] for c in cs))
    weapons = [c["weapons"][0] for c in cs]
    dice = [damage.impact_dice(w.get("impact_cap", c["strength"] + w["impact_mod"]), o) for c, w in zip(cs, weapons)]
    innate = [o["innate_absorption"] if c["innate_absorption"] is None else c["innate_absorption"] for c in cs]

    def armor(field: str, base: list[int] | None = None) -> np.ndarray:
        return np.array([[(base[i] if base else 0) + c["armor"].get(g, {}).get(field, 0) for g in GENERAL]
                         for i, c in enumerate(cs)], dtype=np.int64)

    def ints(values: list) -> np.ndarray:
        return np.array(values, dtype=np.int64)
    return Figures(
        ids=[c["id"] for c in cs], side=ints([sides.index(c["side"]) for c in cs]), sides=sides,
        fr=ints([c["fighter_rank"] for c in cs]), agl=ints([c["agl_mod"] for c in cs]),
        dex=ints([c["dex_mod"] for c in cs]), skill=ints([w["skill"] for w in weapons]),
        apf=ints([task.actions_per_flurry(c["fighter_rank"]) for c in cs]), reach=ints([w["range"] for w in weapons]),
        count=ints([d.count for d in dice]), dice_sides=ints([d.sides for d in dice]), offset=ints([d.offset for d in dice]),
        kd6=np.array([d.count > 0 and d.sides == 6 for d in dice]), pv=ints([w["penetration_value"] for w in weapons]),
        limits=ints([damage.thresholds(c["size"], o) for c in cs]).reshape(len(cs), 3),
        absorb=armor("absorption", innate), pt=armor("penetration_threshold"), db=armor("defence_bonus"),
        tie_keys=[None if name == "coin" else ints([c[name] for c in cs]) for name in o["initiative_tie_break"]],
        per_phase=movement.hexes_per_round("walk", o) // 2, stun_terms=dice_terms(o["stun_rounds"]))
