"""A matchup: two or more sides of combatants, read into flat numpy arrays the engine indexes by trial.

The duel rules (`service.rules.tactical.duel.read_matchup`) read and check it, the same reading the
resolver-loop simulator plays, and refuse what the engine leaves out (positions, ranged fire, surprise,
slash and thrust, street clothes); `combatant.from_combatant` turns each combatant into numbers.
Everyone is engaged in melee with every foe.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from service.rules.tactical import duel
from service.sim.combatant import Fighter, from_combatant

MAX_SEGMENTS = 100


@dataclass(frozen=True)
class Options:
    """Rule switches of a simulation (defaults: RULINGS and the digest's defaults)."""

    method: str = "ratio"  # Task Resolution Table (RULINGS 4)
    heroic: bool = True  # a Heroic hit doubles the blow's POT (digest section 3)
    bumble: bool = True  # counted only: a Bumble is a miss like any other in the simulation
    armor_wear: bool = True  # F20
    reprisals: bool = True  # a missed melee attack gives the defender an immediate Reprisal
    progression: str = "triangular"  # RULINGS 3
    targeting: str = "first"  # strike the first standing foe (matchup order) when acting, or a random one
    max_segments: int = MAX_SEGMENTS  # a fight still on after this many segments is a draw


@dataclass(frozen=True)
class Matchup:
    """Sides and combatants as arrays: index n is the n-th combatant in the order given."""

    sides: tuple[str, ...]
    names: tuple[str, ...]
    side: np.ndarray  # (N,) side index
    fighters: tuple[Fighter, ...]
    options: Options
    arrays: Mapping[str, np.ndarray]

    @property
    def size(self) -> int:
        return len(self.names)


def parse(data: Mapping[str, Any]) -> Matchup:
    """Read a matchup: {"sides": [{"name", "combatants": [...]}, ...]} or an encounter's
    {"combatants": [{"side": ..., ...}]}, plus optional "options" (RulesError names a bad field)."""
    read = duel.read_matchup(data)
    fighters = tuple(from_combatant(c) for c in read.state.combatants)
    names = tuple(f.name for f in fighters)
    side = np.array([read.side_of[name] for name in names], dtype=np.int64)
    return Matchup(read.sides, names, side, fighters, Options(**read.options), _arrays(fighters))


def _arrays(fighters: tuple[Fighter, ...]) -> dict[str, np.ndarray]:
    """Per-combatant columns (N,), weapon columns (N, W) and armor columns (N, L), zero-padded."""
    scalars = ("init_mod", "agl", "hrt", "pres", "strength", "msta", "cnd", "dodge_dv",
               "free_dodges", "actions", "wounds", "status", "pain", "pain_age")
    out = {name: np.array([getattr(f, name) for f in fighters], dtype=np.int64) for name in scalars}
    ranks = sorted(range(len(fighters)), key=lambda i: fighters[i].name)
    out["id_rank"] = np.argsort(np.array(ranks, dtype=np.int64))  # place of each id in alphabetical order
    width = max(len(f.weapons) for f in fighters)
    for name in ("av", "parry", "db", "pot_num", "pot_den", "edged"):
        out[f"w_{name}"] = _padded([[getattr(w, name) for w in f.weapons] for f in fighters], width)
    depth = max(1, max(len(f.armor) for f in fighters))
    out["a_dr"] = _padded([[a.dr for a in f.armor] for f in fighters], depth)
    out["a_dur"] = _padded([[a.durability for a in f.armor] for f in fighters], depth)
    return out


def _padded(rows: list[list[int]], width: int) -> np.ndarray:
    table = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table
