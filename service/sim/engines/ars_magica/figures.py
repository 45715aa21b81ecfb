"""What does not change during a chunk of `ars-magica` duels: each duellist's fixed figures (skill, gear,
ladders as lookup arrays) and the option-driven tables (botch entries, exceptional-blow effects), read with
the ruleset's own functions so that the engine and the resolver start from the same numbers."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.ars_magica import botches, ladders, tables
from service.rules.ars_magica.totals import CHARACTERISTICS, protection_of, weapon_of

MAX_LOST = 100  # levels lost are kept at most 100 (work.Round.lose)
CHAR = {name: i for i, name in enumerate(CHARACTERISTICS)}
BRAWLING = ("unarmed", "brawling")
ROLLS = ("attack", "defence", "damage", "soak")


def rungs(ladder: list, codes: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ladder read at 0..100 levels lost: penalty, acts, status code (ladders.penalty / acts / level_name)."""
    lost = range(MAX_LOST + 1)
    return (np.array([ladders.penalty(ladder, k) for k in lost]), np.array([ladders.acts(ladder, k) for k in lost]),
            np.array([codes.setdefault(ladders.level_name(ladder, k), len(codes)) for k in lost]))


def _level(ladder: list, name: str) -> int:
    """Where work.Round.set_level puts someone: the named level, else the first level where no one acts."""
    names = [row["name"] for row in ladder]
    return names.index(name) if name in names else ladders.first_out(ladder)


@dataclass(frozen=True)
class Duellist:
    """One fighter's fixed figures (state.fighter / totals.totals inputs that no rule of a duel changes)."""

    ident: str
    side: str
    skill: int
    enc: int
    size: int
    shield: int
    weapon: tuple[int, int, int, int]  # init, attack, defence, damage
    brawling: bool
    chars: np.ndarray
    protection: int
    body: int
    fatigue: int
    ready: bool
    body_penalty: np.ndarray
    body_acts: np.ndarray
    body_code: np.ndarray
    out_levels: dict[str, int]  # body "incapacitated"/"dead", fatigue "unconscious" (set_level targets)


def duellist(c: Mapping[str, Any], options: Mapping[str, Any], codes: dict[str, int]) -> Duellist:
    """The fixed figures of combatant `c` under `options`."""
    w = weapon_of(c["weapon"], options["weapon_pack"], ("weapon",))
    skill = min(c["abilities"]["weapon"], c["abilities"]["ride"]) if c["mounted"] else c["abilities"]["weapon"]
    body = ladders.body_ladder(options, c["size"])
    penalty, acts, code = rungs(body, codes)
    out = {"incapacitated": _level(body, "incapacitated"), "dead": _level(body, "dead"),
           "unconscious": _level(options["fatigue_levels"], "unconscious")}
    return Duellist(c["id"], c["side"], skill, 0 if c["mounted"] else abs(c["encumbrance"]), c["size"],
                    (c["shield"] or {}).get("defence", 0), (w.init, w.attack, w.defence, w.damage),
                    w.name in BRAWLING, np.array([c["characteristics"][k] for k in CHARACTERISTICS]),
                    protection_of(c["armor"], options["armor_pack"], ("armor",)), c["body_levels_lost"],
                    c["fatigue_levels_lost"], c["stance"] == "all_out_ready", penalty, acts, code, out)


@dataclass(frozen=True)
class Exceptional:
    """What one severity of an exceptional blow to the head does (phases.exceptional_effect)."""

    unconscious: bool
    incapacitated: bool
    fatigue: int
    penalty: int


def exceptional(effect: str) -> Exceptional:
    """An effect name of option `exceptional_effects` read as phases.exceptional_effect reads it."""
    parts = effect.split("_")
    fatigue = sum(int(parts[i + 1]) for i, p in enumerate(parts[:-1]) if p == "fatigue" and parts[i + 1].isdigit())
    penalty = sum(int(parts[i + 1]) for i, p in enumerate(parts[:-1]) if p == "penalty" and parts[i + 1].isdigit())
    return Exceptional(effect.startswith("unconscious"), effect == "incapacitated", fatigue, penalty)


@dataclass(frozen=True)
class BotchTable:
    """One roll's botch entries: their indices (ascending) and effects (botches.entry / effects_of)."""

    index: np.ndarray
    effects: tuple[Mapping[str, Any], ...]


def botch_tables() -> dict[str, BotchTable]:
    """The Combat Botch Result Table for each combat roll."""
    out = {}
    for roll in ROLLS:
        rows = sorted(tables.rows(botches.TABLES[roll]), key=lambda row: row["index"])
        out[roll] = BotchTable(np.array([row["index"] for row in rows]),
                               tuple(botches.effects_of(row, roll) for row in rows))
    return out


BOTCH_TABLES = botch_tables()
