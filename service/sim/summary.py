"""Turn a merged Tally into the answer a game master reads: chances with 95% intervals, lengths, wounds."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from service.sim.matchup import Matchup
from service.sim.state import STATUSES
from service.sim.tally import EVENTS, Tally

Z95 = 1.959963984540054
LEVELS = (("none", 0, 0), ("light", 1, 1), ("serious", 2, 3), ("grievous", 4, 6), ("mortal", 7, 11))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / scale
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def _share(count: int, n: int) -> dict[str, Any]:
    low, high = wilson(count, n)
    return {"count": count, "p": count / n if n else 0.0, "ci95": [low, high]}


def summarise(m: Matchup, tally: Tally) -> dict[str, Any]:
    """Win/draw chances, segments to the end, first-strike advantage and per-combatant outcomes."""
    n = int(tally.trials)
    hist = tally.segments
    return {
        "trials": n,
        "sides": [{"name": name, **_share(int(tally.wins[i]), n)} for i, name in enumerate(m.sides)],
        "draw": {**_share(int(tally.draws), n), "capped": int(tally.capped)},
        "segments": {"mean": float((np.arange(len(hist)) * hist).sum() / n) if n else 0.0,
                     "max": int(np.nonzero(hist)[0].max()) if n else 0,
                     "histogram": hist[1:].tolist()},
        "first_strike": _first_strike(tally, n),
        "combatants": [_combatant(m, tally, i) for i in range(m.size)],
        "events": {name: int(v) for name, v in zip(EVENTS, tally.events)},
    }


def _first_strike(tally: Tally, n: int) -> dict[str, Any]:
    """How often the side that acted first in segment 1 won, against how often another side won."""
    acted = int(tally.first.sum())
    first_won = int(tally.first_wins.sum())
    other_won = int(tally.wins.sum()) - first_won
    return {"fights": acted, "first_side_wins": _share(first_won, acted),
            "other_side_wins": _share(other_won, acted)}


def _combatant(m: Matchup, tally: Tally, i: int) -> dict[str, Any]:
    n = max(int(tally.trials), 1)
    wounds = tally.wounds[i]
    layers = m.fighters[i].armor
    return {
        "name": m.names[i], "side": m.sides[int(m.side[i])],
        "wounds": {"mean": float((np.arange(len(wounds)) * wounds).sum() / n),
                   "distribution": (wounds / n).tolist()},
        "levels": {name: float(wounds[lo:hi + 1].sum() / n) for name, lo, hi in LEVELS},
        "outcome": {name: float(tally.status[i, k] / n) for k, name in enumerate(STATUSES)},
        "armor": [{"layer": layer.name, "dr_mean": float(tally.armor_dr[i, j] / n),
                   "durability_mean": float(tally.armor_durability[i, j] / n)}
                  for j, layer in enumerate(layers)],
    }
