"""Landed blows, botches and fatigue rolls for arrays of fights: phases.land, phases.exceptional_effect,
phases.self_damage, phases.fatigue_roll and botches.botch / apply, in the resolver's order. Every function
acts on `Cells` (a fighter in each of some fights, each fight at most once): the striker's, the victim's or
the botcher's."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.rules.ars_magica.state import EFFECT_KINDS
from service.sim.engines.ars_magica.dice import botch_index, stress
from service.sim.engines.ars_magica.fights import Cells, Fights, add, put
from service.sim.engines.ars_magica.figures import BOTCH_TABLES, CHAR, BotchTable, Exceptional


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


def land(p: Play, s: Cells, v: Cells, damage: np.ndarray, exceptional: Any, all_out: Any, brawling: Any) -> None:
    """phases.land: damage + stress against soak + stress (armor left out of an exceptional blow's soak),
    levels lost, the exceptional effect, then the damage roll's and the soak roll's botches."""
    if v.size == 0:
        return
    f, n = p.fights, p.options["botch_dice"]
    exceptional = np.broadcast_to(exceptional, v.at.shape)
    soak = f.soak(v) - np.where(exceptional, f.protection.take(v.at), 0)
    d, so = stress(p.rng, v.size, n), stress(p.rng, v.size, n)
    margin = np.where(d.botched, 0, damage + d.value) - np.where(so.botched, 0, soak + so.value)
    levels = np.where(d.botched, 0, levels_for(margin, np.broadcast_to(all_out, v.at.shape),
                                               p.options["all_out_doubles"]))
    fatigue = np.where(brawling, levels - levels // 2, 0)
    p.count("stress_rolls", 2 * v.size)
    add(f.inflicted, s.at, levels)  # a striker strikes once in a fight at a time
    f.lose(v, levels - fatigue, fatigue)
    struck = exceptional & (levels > 0)
    if struck.any():
        p.count("exceptional", struck.sum())
        severity = np.minimum(levels, 3)
        able = f.able(v)
        for level, effect in p.head.items():
            head_effect(p, v[struck & able & (severity == level)], effect)
    botch(p, s[d.botched], "damage", d.botches[d.botched])
    botch(p, v[so.botched], "soak", so.botches[so.botched])


def head_effect(p: Play, v: Cells, effect: Exceptional) -> None:
    """phases.exceptional_effect of one effect name (the duel policy names no location: the head)."""
    if v.size == 0:
        return
    f = p.fights
    if effect.unconscious:
        f.set_level(v, "unconscious")
    if effect.incapacitated:
        f.set_level(v, "incapacitated")
    if effect.fatigue:
        f.lose(v, fatigue=effect.fatigue)
    if effect.penalty:
        for kind in ("attack", "defence"):
            f.add_effect(v, kind, -effect.penalty, None)


def botch(p: Play, who: Cells, roll: str, count: np.ndarray) -> None:
    """botches.botch: one event each; with option `botch_effects` "table", the worst of one table die per
    botch picks the entry whose effects apply."""
    if who.size == 0:
        return
    p.count("botches", who.size)
    if p.options["botch_effects"] == "miss_only":
        return
    table = BOTCH_TABLES[roll]
    apply(p, who, table, np.searchsorted(table.index, botch_index(p.rng, count), side="right") - 1)


def apply(p: Play, who: Cells, table: BotchTable, entry: np.ndarray) -> None:
    """botches.apply, each fight its own `entry` of `table`, in the resolver's order: timed effects, levels
    and out-of-fight levels, characteristics, weapon, armor, then own damage against own soak and a fatigue
    roll."""
    f, column = p.fights, lambda name: table.columns[name][entry]
    for kind in EFFECT_KINDS:
        for rounds, name in ((None, f"{kind}@combat"), (1, f"{kind}@next")):
            if name in table.columns and (value := column(name)).any():
                f.add_effect(who[value != 0], kind, value[value != 0], rounds)
    body, fatigue = column("body_levels"), column("fatigue_levels")
    hurt = (body > 0) | (fatigue > 0)
    if hurt.any():
        f.lose(who[hurt], body[hurt], fatigue[hurt])
    for flag in ("unconscious", "incapacitated", "dead"):
        if flag in table.columns and (on := column(flag)).any():
            f.set_level(who[on], flag)
    for name in CHAR:
        if f"char:{name}" in table.columns and (change := column(f"char:{name}")).any():
            for value in np.unique(change[change != 0]):
                f.change_char(who[change == value], name, int(value))
    if "weapon_broken" in table.columns and (broken := column("weapon_broken")).any():
        f.break_weapon(who[broken])
    _armor(p, who, table, entry)
    if "self_damage" in table.columns and (own := column("self_damage")).any():
        them = who[own]
        them = them[f.able(them)]
        land(p, them, them, f.damage(them), False, False, False)
    if "fatigue_roll" in table.columns and ((ease := column("fatigue_roll")) >= 0).any():
        fatigue_roll(p, who[ease >= 0], ease[ease >= 0])


def _armor(p: Play, who: Cells, table: BotchTable, entry: np.ndarray) -> None:
    """botches._gear's armor: protection lowered (never below 0) or destroyed."""
    f = p.fights
    if "protection" in table.columns and (change := table.columns["protection"][entry]).any():
        worn = who[change != 0]
        put(f.protection, worn.at, np.maximum(0, f.protection.take(worn.at) + change[change != 0]))
    if "protection_destroyed" in table.columns and (gone := table.columns["protection_destroyed"][entry]).any():
        put(f.protection, who[gone].at, 0)


def fatigue_roll(p: Play, who: Cells, ease_factor: Any) -> None:
    """phases.fatigue_roll: stress + Stm - Enc + both penalties against the ease factor (always with the
    penalties), a botch or a miss costs a fatigue level."""
    f = p.fights
    able = f.able(who)
    who, ease_factor = who[able], np.broadcast_to(ease_factor, able.shape)[able]
    if who.size == 0:
        return
    total = f.char(who, "stm") - f.roster.enc.take(who.who) + f.penalty(who)
    die = stress(p.rng, who.size, p.options["botch_dice"])
    failed = die.botched | (total + die.value < ease_factor)
    f.lose(who[failed], fatigue=1)
