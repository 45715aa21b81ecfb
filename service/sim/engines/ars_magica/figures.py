"""What does not change during a chunk of `ars-magica` fights: each fighter's fixed figures (skill, gear,
ladders as lookup arrays), the roster of them all as arrays indexed by fighter, and the option-driven tables
(botch entries, exceptional-blow effects), read with the ruleset's own functions so that the engine and the
resolver start from the same numbers."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.ars_magica import botches, ladders, tables
from service.rules.ars_magica.state import EFFECT_KINDS, effect_total
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
class Roster:
    """Every fighter's fixed figures stacked into arrays whose first axis is the fighter (matchup order), so
    that one numpy expression reads a different fighter in each fight: `roster.skill[who]`."""

    people: tuple[Duellist, ...]
    sides: tuple[str, ...]
    side: np.ndarray  # (N,) index into sides
    skill: np.ndarray
    enc: np.ndarray
    size: np.ndarray
    shield: np.ndarray
    weapon: np.ndarray  # (N, 4) init, attack, defence, damage
    brawling: np.ndarray
    chars: np.ndarray  # (N, 8) characteristics as the matchup gives them
    body_penalty: np.ndarray  # (N, 101) by levels lost
    body_acts: np.ndarray
    body_code: np.ndarray
    out: dict[str, np.ndarray]  # (N,) levels of set_level's targets
    engaged: np.ndarray  # (N, N) engaged in melee as the matchup starts
    timed: np.ndarray  # (kinds, N, rounds + 2) the matchup's own effects in force in each simulated round
    timed_kinds: tuple[bool, ...]  # which kinds any of them has
    totals: dict[str, np.ndarray]  # (N,) totals.totals' parts no ladder, armor or effect changes

    @property
    def count(self) -> int:
        """Fighters in the matchup."""
        return len(self.people)


def roster(matchup: Any, codes: dict[str, int]) -> Roster:
    """The fixed figures of every combatant of a parsed matchup, and the effects it starts with by round."""
    options, combatants = matchup.options, matchup.combatants
    people = tuple(duellist(c, options, codes) for c in combatants)
    sides = tuple(dict.fromkeys(p.side for p in people))
    ids = [p.ident for p in people]
    engaged = np.array([[other in c["engaged_with"] for other in ids] for c in combatants], bool)
    timed = np.zeros((len(EFFECT_KINDS), len(people), int(options["max_rounds"]) + 2), np.int64)
    for i, c in enumerate(combatants):
        for k, kind in enumerate(EFFECT_KINDS) if c["effects"] else ():
            timed[k, i] = [effect_total(c, kind, matchup.round + r) for r in range(timed.shape[2])]
    stack = lambda name: np.array([getattr(p, name) for p in people])
    return Roster(people, sides, np.array([sides.index(p.side) for p in people]), stack("skill"), stack("enc"),
                  stack("size"), stack("shield"), stack("weapon"), stack("brawling"), stack("chars"),
                  stack("body_penalty"), stack("body_acts"), stack("body_code"),
                  {name: np.array([p.out_levels[name] for p in people]) for name in people[0].out_levels},
                  engaged, timed, tuple(bool(timed[k].any()) for k in range(len(EFFECT_KINDS))),
                  fixed_totals(people, options))


def fixed_totals(people: tuple[Duellist, ...], options: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """totals.totals of each fighter without penalties, effects, armor or a botch's changes: Initiative,
    Attack, Defence, Damage and Soak less protection."""
    out: dict[str, list[int]] = {name: [] for name in ("initiative", "attack", "defence", "damage", "soak")}
    sign = -1 if options["defence_size_sign"] == "subtract" else 1
    for p in people:
        init, attack, defence, damage = p.weapon
        qik, char = int(p.chars[CHAR["qik"]]), {name: int(p.chars[k]) for name, k in CHAR.items()}
        guard = {"best": max(defence, qik), "weapon": defence, "quickness": qik}[options["defence_uses"]]
        out["initiative"].append(qik + p.skill + init - p.enc)
        out["attack"].append(char["dex"] + p.skill + attack)
        out["defence"].append(p.skill + guard + sign * p.size - p.enc + p.shield)
        out["damage"].append(p.skill + damage + char["str"] + max(p.size, 0))
        out["soak"].append(char["stm"] + p.size)
    return {name: np.array(values, np.int64) for name, values in out.items()}


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
    """One roll's botch entries: their indices (ascending), effects (botches.entry / effects_of) and the same
    effects as columns by entry (`columns`), so that one expression applies each entry to its own fights."""

    index: np.ndarray
    effects: tuple[Mapping[str, Any], ...]
    columns: dict[str, np.ndarray]


TIMED = {"attack": "value", "defence": "value", "damage": "value", "opponent_attack": "value",
         "skip_attack": "flag", "lose_initiative": "flag"}
FLAGS = ("unconscious", "incapacitated", "dead", "weapon_broken", "self_damage")


def columns(effects: tuple[Mapping[str, Any], ...]) -> dict[str, np.ndarray]:
    """botches.apply's reading of each entry as numbers, a column a kind (only kinds some entry has):
    `<kind>@combat` / `<kind>@next` effects (value; skip_attack and lose_initiative count 1 for the rounds
    they name), levels, flags, characteristic changes, `protection` (a change, `protection_destroyed`) and
    `fatigue_roll` (its ease factor, -1 for none)."""
    out: dict[str, list[Any]] = {}

    def cell(name: str, i: int, value: Any, empty: Any = 0) -> None:
        out.setdefault(name, [empty] * len(effects))[i] = value

    for i, e in enumerate(effects):
        for kind, reading in TIMED.items():
            if kind in e:
                rounds = e[kind] if reading == "flag" else e.get("rounds", 1)
                cell(f"{kind}@{'combat' if rounds is None else 'next'}", i, 1 if reading == "flag" else e[kind])
        for name in ("body_levels", "fatigue_levels"):
            cell(name, i, e.get(name, 0))
        for flag in FLAGS:
            if e.get(flag):
                cell(flag, i, True, False)
        for name, change in (e.get("characteristics") or {}).items():
            cell(f"char:{name}", i, change)
        if "protection" in e:
            cell("protection_destroyed" if e["protection"] == "destroyed" else "protection", i,
                 True if e["protection"] == "destroyed" else e["protection"], False if e["protection"] ==
                 "destroyed" else 0)
        if "fatigue_roll" in e:
            cell("fatigue_roll", i, e["fatigue_roll"], -1)
    return {name: np.array(values) for name, values in out.items()}


def botch_table(effects: tuple[Mapping[str, Any], ...], index: Any = None) -> BotchTable:
    """A botch table of these entries (indices 0, 1, ... unless given)."""
    return BotchTable(np.arange(len(effects)) if index is None else np.array(index), effects, columns(effects))


def botch_tables() -> dict[str, BotchTable]:
    """The Combat Botch Result Table for each combat roll."""
    out = {}
    for roll in ROLLS:
        rows = sorted(tables.rows(botches.TABLES[roll]), key=lambda row: row["index"])
        out[roll] = botch_table(tuple(botches.effects_of(row, roll) for row in rows), [row["index"] for row in rows])
    return out


BOTCH_TABLES = botch_tables()
