"""Landed blows, botches and fatigue rolls for arrays of fights: phases.land, phases.exceptional_effect,
phases.self_damage, phases.fatigue_roll and botches.botch / apply, in the resolver's order. Every function
acts on the fights `rows` (indices into the Fights arrays) for one striker and one victim."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.sim.engines.ars_magica.dice import botch_index, stress
from service.sim.engines.ars_magica.fights import Fights
from service.sim.engines.ars_magica.figures import BOTCH_TABLES, CHAR, Exceptional


@dataclass
class Play:
    """A chunk being played: its fights, generator, options, the head's exceptional effects, the counts."""

    fights: Fights
    rng: np.random.Generator
    options: Mapping[str, Any]
    head: dict[int, Exceptional]  # severity 1 minor, 2 major, 3 grave
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, name: str, n: int) -> None:
        """Add to one of duel.details' counts."""
        self.counts[name] = self.counts.get(name, 0) + int(n)


def levels_for(margin: np.ndarray, all_out: np.ndarray, doubles: str) -> np.ndarray:
    """damage.levels_for: a level per 5 points or fraction; an all-out attack doubles margin or levels."""
    plain = -(-margin // 5)
    doubled = -(-2 * margin // 5) if doubles == "margin" else 2 * plain
    return np.where(margin <= 0, 0, np.where(all_out, doubled, plain))


def land(p: Play, s: int, v: int, rows: np.ndarray, damage: np.ndarray, exceptional: Any, all_out: Any,
         brawling: Any) -> None:
    """phases.land: damage + stress against soak + stress (armor left out of an exceptional blow's soak),
    levels lost, the exceptional effect, then the damage roll's and the soak roll's botches."""
    if rows.size == 0:
        return
    f, n = p.fights, p.options["botch_dice"]
    exceptional = np.broadcast_to(exceptional, rows.shape)
    soak = f.totals(v, rows)["soak"] - np.where(exceptional, f.protection[v, rows], 0)
    d, so = stress(p.rng, rows.size, n), stress(p.rng, rows.size, n)
    margin = np.where(d.botched, 0, damage + d.value) - np.where(so.botched, 0, soak + so.value)
    levels = np.where(d.botched, 0, levels_for(margin, np.broadcast_to(all_out, rows.shape),
                                               p.options["all_out_doubles"]))
    fatigue = np.where(brawling, levels - levels // 2, 0)
    p.count("stress_rolls", 2 * rows.size)
    f.inflicted[s, rows] += levels
    f.lose(v, rows, levels - fatigue, fatigue)
    struck = exceptional & (levels > 0)
    if struck.any():
        p.count("exceptional", struck.sum())
        severity = np.minimum(levels, 3)
        able = f.able(v, rows)
        for level, effect in p.head.items():
            head_effect(p, v, rows[struck & able & (severity == level)], effect)
    botch(p, s, "damage", rows[d.botched], d.botches[d.botched], v)
    botch(p, v, "soak", rows[so.botched], so.botches[so.botched], s)


def head_effect(p: Play, v: int, rows: np.ndarray, effect: Exceptional) -> None:
    """phases.exceptional_effect of one effect name (the duel policy names no location: the head)."""
    if rows.size == 0:
        return
    f = p.fights
    if effect.unconscious:
        f.set_level(v, rows, "unconscious")
    if effect.incapacitated:
        f.set_level(v, rows, "incapacitated")
    if effect.fatigue:
        f.lose(v, rows, fatigue=effect.fatigue)
    if effect.penalty:
        for kind in ("attack", "defence"):
            f.add_effect(v, rows, kind, -effect.penalty, None)


def botch(p: Play, who: int, roll: str, rows: np.ndarray, count: np.ndarray, opponent: int) -> None:
    """botches.botch: one event each; with option `botch_effects` "table", the worst of one table die per
    botch picks the entry whose effects apply."""
    if rows.size == 0:
        return
    p.count("botches", rows.size)
    if p.options["botch_effects"] == "miss_only":
        return
    table = BOTCH_TABLES[roll]
    entry = np.searchsorted(table.index, botch_index(p.rng, count), side="right") - 1
    for e in np.unique(entry):
        apply(p, who, rows[entry == e], table.effects[e], opponent)


def apply(p: Play, who: int, rows: np.ndarray, effects: Mapping[str, Any], opponent: int) -> None:
    """botches.apply: timed effects, levels, gear, then own damage against own soak or a fatigue roll."""
    f = p.fights
    rounds = effects.get("rounds", 1)
    for kind in ("attack", "defence", "damage", "opponent_attack"):
        if kind in effects:
            f.add_effect(who, rows, kind, effects[kind], rounds)
    for kind in ("skip_attack", "lose_initiative"):
        if kind in effects:
            f.add_effect(who, rows, kind, 1, effects[kind])
    f.lose(who, rows, effects.get("body_levels", 0), effects.get("fatigue_levels", 0))
    for flag in ("unconscious", "incapacitated", "dead"):
        if effects.get(flag):
            f.set_level(who, rows, flag)
    for name, change in (effects.get("characteristics") or {}).items():
        f.chars[who, CHAR[name], rows] = np.maximum(-10, f.chars[who, CHAR[name], rows] + change)
    if effects.get("weapon_broken"):
        f.broken[who, rows] = True
    if "protection" in effects:
        change = effects["protection"]
        f.protection[who, rows] = 0 if change == "destroyed" else np.maximum(0, f.protection[who, rows] + change)
    if effects.get("self_damage"):
        hurt = rows[f.able(who, rows)]
        land(p, who, who, hurt, f.totals(who, hurt)["damage"], False, False, False)
    if "fatigue_roll" in effects:
        fatigue_roll(p, who, rows, effects["fatigue_roll"])


def fatigue_roll(p: Play, who: int, rows: np.ndarray, ease_factor: int) -> None:
    """phases.fatigue_roll: stress + Stm - Enc + both penalties against the ease factor (always with the
    penalties), a botch or a miss costs a fatigue level."""
    f = p.fights
    rows = rows[f.able(who, rows)]
    if rows.size == 0:
        return
    total = f.char(who, "stm", rows) - f.people[who].enc + f.penalty(who, rows)
    die = stress(p.rng, rows.size, p.options["botch_dice"])
    failed = die.botched | (total + die.value < ease_factor)
    f.lose(who, rows[failed], fatigue=1)
