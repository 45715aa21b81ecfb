"""Every quantity a fight changes, one column per fight and one row per fighter (work.Round and
state.Combatant as arrays): levels lost, a broken weapon, armor, stances, who is engaged with whom, the
characteristics and effects botches change; with the totals, who can act and the status words the resolver
derives.

Most functions read or change `Cells`: fighter `who[k]` in fight `rows[k]` for each k, with the flat index
`at` into every (N, n) array (one gather per array: far cheaper in numpy than a two-axis index)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.ars_magica import ladders
from service.rules.ars_magica.state import EFFECT_KINDS as KINDS
from service.sim.engines.ars_magica.figures import CHAR, MAX_LOST, Roster, rungs

PER_FIGHT = ("body", "fatigue", "broken", "protection", "ready", "inflicted", "acts", "pen")
RUNGS = MAX_LOST + 1


@dataclass(frozen=True)
class Cells:
    """Fighter `who[k]` in fight `rows[k]`, and `at[k]`, that cell's flat index in the (N, n) arrays."""

    who: np.ndarray
    rows: np.ndarray
    at: np.ndarray

    def __getitem__(self, pick: Any) -> Cells:
        return Cells(self.who[pick], self.rows[pick], self.at[pick])

    @property
    def size(self) -> int:
        """How many cells."""
        return self.at.size


def put(array: np.ndarray, at: np.ndarray, values: Any) -> None:
    """Write `values` into the cells `at` of a C-contiguous (N, n) array (each cell at most once)."""
    np.put(array, at, values)


def add(array: np.ndarray, at: np.ndarray, values: Any) -> None:
    """Add `values` to the cells `at` of an (N, n) array (each cell at most once)."""
    np.put(array, at, array.take(at) + values)


class Fights:
    """The changing state of `n` fights of one roster (fighter index first in every array)."""

    def __init__(self, roster: Roster, options: Mapping[str, Any], codes: dict[str, int], n: int):
        self.roster, self.options, self.round = roster, options, 0
        self.fatigue_penalty, self.fatigue_acts, self.fatigue_code = rungs(options["fatigue_levels"], codes)
        people = roster.people
        self.body = _column([p.body for p in people], n)
        self.fatigue = _column([p.fatigue for p in people], n)
        self.changes: dict[str, np.ndarray] = {}  # (N, n) a characteristic's change by botches, once any
        self.broken = np.zeros((roster.count, n), bool)
        self.altered = False  # a characteristic changed or a weapon broke: totals leave the fixed figures
        self.protection = _column([p.protection for p in people], n)
        self.ready = _column([p.ready for p in people], n)
        self.inflicted = np.zeros((roster.count, n), np.int64)  # levels each dealt this round (duel.details)
        self.engaged = np.repeat(roster.engaged[:, None, :], n, axis=1)  # (N, n, N): fighter, fight, other
        # effects by kind, each (N, n) once there is one: those the fight added for the rest of the combat,
        # those for the next round only, and everything in force this round (with the matchup's own)
        self.lasting: dict[str, np.ndarray] = {}
        self.next: dict[str, np.ndarray] = {}
        self.current: dict[str, np.ndarray] = {}
        self.acts = np.ones((roster.count, n), bool)  # derived from both ladders (state.able), kept by `lose`
        self.pen = np.zeros((roster.count, n), np.int64)  # wound + fatigue penalty, kept likewise
        self._derive(self.everyone())

    @property
    def size(self) -> int:
        """Fights still in this state."""
        return self.body.shape[1]

    def cells(self, who: Any, rows: Any) -> Cells:
        """Fighter `who` (one, or one per row) in each of the fights `rows` (index arrays broadcast)."""
        who, rows = np.broadcast_arrays(np.asarray(who), np.asarray(rows))
        return Cells(who, rows, who * self.size + rows)

    def everyone(self, rows: Any = None) -> Cells:
        """Every fighter of every fight (or of the fights `rows`), as (N, n) cells."""
        rows = np.arange(self.size) if rows is None else rows
        return self.cells(np.arange(self.roster.count)[:, None], np.asarray(rows)[None, :])

    def keep(self, rows: np.ndarray) -> None:
        """Only the fights `rows` (a mask or indices) stay; every array stays C-contiguous, as the flat writes
        of `put` need."""
        rows = np.flatnonzero(rows) if rows.dtype == bool else rows
        for name in PER_FIGHT:
            setattr(self, name, getattr(self, name).take(rows, axis=1))
        self.engaged = self.engaged.take(rows, axis=1)
        for store in (self.changes, self.lasting, self.next, self.current):
            for kind in store:
                store[kind] = store[kind].take(rows, axis=1)

    def new_round(self) -> None:
        """Next-round effects come into force; last round's lapse; no levels dealt yet."""
        self.round += 1
        self.current = {}
        for k, kind in enumerate(KINDS):
            parts = [store[kind] for store in (self.lasting, self.next) if kind in store]
            if self.roster.timed_kinds[k]:
                parts.append(np.broadcast_to(self.roster.timed[k, :, self.round][:, None], self.body.shape))
            if parts:
                self.current[kind] = sum(parts[1:], parts[0].copy())
        self.next = {}
        self.inflicted[:] = 0

    # --- derived (state.py) ---------------------------------------------------------------------------

    def able(self, c: Cells) -> np.ndarray:
        """state.able: neither ladder has reached a level where no one acts."""
        return self.acts.take(c.at)

    def status(self, i: int) -> np.ndarray:
        """state.status as codes: the body ladder's word first, then the fatigue ladder's, else standing (0)."""
        r, body, fatigue = self.roster, self.body[i], self.fatigue[i]
        return np.where(~r.body_acts[i, body], r.body_code[i, body],
                        np.where(~self.fatigue_acts[fatigue], self.fatigue_code[fatigue], 0))

    def penalty(self, c: Cells) -> np.ndarray:
        """Wound + fatigue penalty (ladders.penalty of both ladders)."""
        return self.pen.take(c.at)

    def _derive(self, c: Cells) -> None:
        """Who acts and the penalty, read again from both ladders where levels changed."""
        body, fatigue = self.body.take(c.at), self.fatigue.take(c.at)
        ladder = c.who * RUNGS + body
        put(self.acts, c.at, self.roster.body_acts.take(ladder) & self.fatigue_acts.take(fatigue))
        put(self.pen, c.at, self.roster.body_penalty.take(ladder) + self.fatigue_penalty.take(fatigue))

    def effect(self, c: Cells, kind: str) -> Any:
        """state.effect_total of `kind` this round: the matchup's own effects and those the fight added."""
        return self.current[kind].take(c.at) if kind in self.current else 0

    def char(self, c: Cells, name: str) -> Any:
        """One characteristic as it stands (botches lower some)."""
        base = self.roster.chars[:, CHAR[name]].take(c.who)
        return base + self.changes[name].take(c.at) if name in self.changes else base

    def change_char(self, c: Cells, name: str, change: int) -> None:
        """botches.apply: a characteristic changed, never below -10."""
        now = self.char(c, name)
        if name not in self.changes:
            self.changes[name] = np.zeros(self.body.shape, np.int64)
        add(self.changes[name], c.at, np.maximum(-10, now + change) - now)
        self.altered = True

    def break_weapon(self, c: Cells) -> None:
        """botches.apply: the weapon is broken (counts 0 everywhere from now on)."""
        put(self.broken, c.at, True)
        self.altered = True

    def _pen(self, c: Cells) -> Any:
        return self.penalty(c) if self.options["penalties_apply"] else 0

    def _total(self, c: Cells, name: str) -> np.ndarray:
        """A total's fixed part (figures.fixed_totals), corrected once a botch changed a characteristic or
        broke a weapon (which then counts 0 everywhere)."""
        base = self.roster.totals[name].take(c.who)
        if not self.altered:
            return base
        if name == "defence":
            return self._defence(c)
        char, stat = {"initiative": ("qik", 0), "attack": ("dex", 1), "damage": ("str", 3), "soak": ("stm", None)}[name]
        if char in self.changes:
            base = base + self.changes[char].take(c.at)
        if stat is not None and self.broken.any():
            base = base - np.where(self.broken.take(c.at), self.roster.weapon[:, stat].take(c.who), 0)
        return base

    def _defence(self, c: Cells) -> np.ndarray:
        """totals.totals' Defence without penalties, read from its parts."""
        r, o = self.roster, self.options
        weapon = np.where(self.broken.take(c.at), 0, r.weapon[:, 2].take(c.who))
        qik = self.char(c, "qik")
        guard = {"best": np.maximum(weapon, qik), "weapon": weapon, "quickness": qik}[o["defence_uses"]]
        sign = -1 if o["defence_size_sign"] == "subtract" else 1
        return r.skill.take(c.who) + guard + sign * r.size.take(c.who) - r.enc.take(c.who) + r.shield.take(c.who)

    def initiative(self, c: Cells) -> np.ndarray:
        """totals.totals' Initiative: Qik + skill + weapon init - Enc + penalties."""
        return self._total(c, "initiative") + self._pen(c)

    def attack(self, c: Cells) -> np.ndarray:
        """totals.totals' Attack: Dex + skill + weapon attack + penalties."""
        return self._total(c, "attack") + self._pen(c)

    def defence(self, c: Cells) -> np.ndarray:
        """totals.totals' Defence: skill + guard (option `defence_uses`) -/+ Size - Enc + shield + penalties."""
        return self._total(c, "defence") + self._pen(c)

    def damage(self, c: Cells) -> np.ndarray:
        """totals.totals' Damage: skill + weapon damage + Str + positive Size."""
        return self._total(c, "damage")

    def soak(self, c: Cells) -> np.ndarray:
        """totals.totals' Soak: Stm + Size + armor protection."""
        return self._total(c, "soak") + self.protection.take(c.at)

    def brawling(self, c: Cells) -> np.ndarray:
        """Fighting with fists (unarmed or brawling, a weapon not broken): half the levels are fatigue."""
        return self.roster.brawling.take(c.who) & ~self.broken.take(c.at)

    # --- changes (work.Round) -------------------------------------------------------------------------

    def lose(self, c: Cells, body: Any = 0, fatigue: Any = 0) -> None:
        """work.Round.lose: levels added, at most 100 in all."""
        put(self.body, c.at, np.minimum(MAX_LOST, self.body.take(c.at) + np.maximum(body, 0)))
        put(self.fatigue, c.at, np.minimum(MAX_LOST, self.fatigue.take(c.at) + np.maximum(fatigue, 0)))
        self._derive(c)

    def set_level(self, c: Cells, name: str) -> None:
        """work.Round.set_level: at least at the named level (unconscious: fatigue; else body)."""
        ladder = self.fatigue if name == "unconscious" else self.body
        put(ladder, c.at, np.maximum(ladder.take(c.at), self.roster.out[name].take(c.who)))
        self._derive(c)

    def add_effect(self, c: Cells, kind: str, value: Any, rounds: int | None) -> None:
        """work.Round.add_effect: `rounds` None lasts the combat from now; 1 is the next round only."""
        if rounds not in (None, 1):
            raise AssertionError("the botch tables only last one round or the whole combat")
        for store in (self.lasting, self.current) if rounds is None else (self.next,):
            if kind not in store:
                store[kind] = np.zeros(self.body.shape, np.int64)
            add(store[kind], c.at, value)

    def engage(self, a: Cells, b: Cells) -> None:
        """work.Round.engage: `a` and `b` (the same fights) are now engaged in melee, both ways."""
        n = self.roster.count
        put(self.engaged, a.at * n + b.who, True)
        put(self.engaged, b.at * n + a.who, True)


def _column(values: list, n: int) -> np.ndarray:
    return np.repeat(np.asarray(values)[:, None], n, axis=1)


def heavy_index(options: Mapping[str, Any]) -> int | None:
    """duel._action: levels lost from which `desperate_when_heavy` defends desperately."""
    body = options["body_levels"]
    return ladders.index_of(body, "heavy", ()) if any(r["name"] == "heavy" for r in body) else None
