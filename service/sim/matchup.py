"""A matchup: two or more sides of combatants, read into flat numpy arrays the engine indexes by trial.

Combatants use the encounter-state format (`service.rules.tactical.combat_state`), so an encounter in
play can be simulated as it stands; `combatant.read` turns one of them into numbers. Positions are
ignored: everyone is engaged in melee with every foe.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from service.rules.errors import RulesError
from service.sim.combatant import Fighter, read

MAX_SEGMENTS = 100
METHODS = ("ratio", "linear")
TARGETING = ("first", "random")


@dataclass(frozen=True)
class Options:
    """Rule switches of a simulation (defaults: RULINGS and the digest's defaults)."""

    method: str = "ratio"  # Task Resolution Table (RULINGS 4)
    heroic: bool = True  # a Heroic hit doubles the blow's POT (digest section 3)
    bumble: bool = True  # counted only: a Bumble is a miss like any other in the simulation
    armor_wear: bool = True  # F20
    reprisals: bool = True  # a missed melee attack gives the defender an immediate Reprisal
    progression: str = "triangular"  # RULINGS 3
    targeting: str = "first"  # attackers strike the lowest-index standing foe, or a random one
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
    {"combatants": [{"side": ..., ...}]}, plus optional "options"."""
    entries = _entries(data)
    sides = tuple(dict.fromkeys(side for side, _, _ in entries))
    if len(sides) < 2:
        raise RulesError("a matchup needs at least two sides", ("sides",))
    fighters = tuple(read(raw, path) for _, raw, path in entries)
    names = tuple(f.name for f in fighters)
    side = np.array([sides.index(s) for s, _, _ in entries], dtype=np.int64)
    options = _options(data.get("options") or {})
    return Matchup(sides, names, side, fighters, options, _arrays(fighters))


def _entries(data: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any], tuple]]:
    if "sides" in data:
        out = []
        for i, side in enumerate(data["sides"]):
            name = str(side.get("name", f"side-{i + 1}"))
            for j, raw in enumerate(side.get("combatants") or []):
                out.append((name, _named(raw, f"{name}-{j + 1}"), ("sides", i, "combatants", j)))
            if not side.get("combatants"):
                raise RulesError("every side needs at least one combatant", ("sides", i, "combatants"))
        return out
    combatants = data.get("combatants") or []
    if not combatants:
        raise RulesError("a matchup needs sides or combatants", ("sides",))
    return [(str(raw.get("side", "")), _named(raw, f"combatant-{j + 1}"), ("combatants", j))
            for j, raw in enumerate(combatants)]


def _named(raw: Any, fallback: str) -> Any:
    """A combatant without an `id` takes its `name`, else its place in the matchup (ids are optional here)."""
    if isinstance(raw, Mapping) and not raw.get("id"):
        return {**raw, "id": str(raw.get("name") or fallback)[:64]}
    return raw


def _options(raw: Mapping[str, Any]) -> Options:
    known = set(Options.__dataclass_fields__)
    for key in raw:
        if key not in known:
            raise RulesError(f"unknown option {key!r}", ("options", key))
    options = Options(**raw)
    if options.method not in METHODS:
        raise RulesError(f"method must be one of {METHODS}", ("options", "method"))
    if options.targeting not in TARGETING:
        raise RulesError(f"targeting must be one of {TARGETING}", ("options", "targeting"))
    if options.progression not in ("triangular", "linear"):
        raise RulesError("progression must be triangular or linear", ("options", "progression"))
    if not 1 <= int(options.max_segments) <= 1000:
        raise RulesError("max_segments must be 1..1000", ("options", "max_segments"))
    return options


def _arrays(fighters: tuple[Fighter, ...]) -> dict[str, np.ndarray]:
    """Per-combatant columns (N,), weapon columns (N, W) and armor columns (N, L), zero-padded."""
    scalars = ("init_mod", "agl", "hrt", "pres", "strength", "msta", "cnd", "dodge_dv",
               "free_dodges", "actions", "wounds", "pain")
    out = {name: np.array([getattr(f, name) for f in fighters], dtype=np.int64) for name in scalars}
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
