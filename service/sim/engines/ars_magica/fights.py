"""Every quantity a duel changes, one row per fight and one array per duellist (work.Round and
state.Combatant as arrays): levels lost, characteristics, a broken weapon, armor, stances and the effects
in force; with the totals, who can act and the status words the resolver derives from them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from service.rules.ars_magica import ladders
from service.sim.engines.ars_magica.figures import CHAR, MAX_LOST, Duellist, rungs

KINDS = ("attack", "defence", "damage", "skip_attack", "lose_initiative", "opponent_attack")
PER_FIGHT = ("body", "fatigue", "broken", "protection", "ready", "inflicted")


class Fights:
    """The changing state of `n` fights between two duellists (index 0 and 1 of every array)."""

    def __init__(self, people: list[Duellist], options: Mapping[str, Any], codes: dict[str, int], n: int):
        self.people, self.options = people, options
        self.fatigue_penalty, self.fatigue_acts, self.fatigue_code = rungs(options["fatigue_levels"], codes)
        self.body = np.array([np.full(n, p.body) for p in people])
        self.fatigue = np.array([np.full(n, p.fatigue) for p in people])
        self.chars = np.array([np.tile(p.chars[:, None], (1, n)) for p in people])  # (2, 8, n)
        self.broken = np.zeros((2, n), bool)
        self.protection = np.array([np.full(n, p.protection) for p in people])
        self.ready = np.array([np.full(n, p.ready) for p in people])
        self.inflicted = np.zeros((2, n), np.int64)  # levels each dealt this round (duel.details)
        self.lasting = np.zeros((len(KINDS), 2, n), np.int64)  # effects for the rest of the combat
        self.now = np.zeros((len(KINDS), 2, n), np.int64)  # effects of this round only
        self.next = np.zeros((len(KINDS), 2, n), np.int64)  # effects of the next round only

    @property
    def size(self) -> int:
        """Fights still in this state."""
        return self.body.shape[1]

    def keep(self, rows: np.ndarray) -> None:
        """Only the fights `rows` (a mask or indices) stay."""
        for name in PER_FIGHT:
            setattr(self, name, getattr(self, name)[:, rows])
        self.chars = self.chars[:, :, rows]
        self.lasting, self.now, self.next = self.lasting[:, :, rows], self.now[:, :, rows], self.next[:, :, rows]

    def new_round(self) -> None:
        """Next-round effects come into force; last round's lapse; no levels dealt yet."""
        self.now, self.next = self.next, np.zeros_like(self.next)
        self.inflicted[:] = 0

    # --- derived (state.py) ---------------------------------------------------------------------------

    def able(self, i: int, rows: Any = slice(None)) -> np.ndarray:
        """state.able: neither ladder has reached a level where no one acts."""
        return self.people[i].body_acts[self.body[i, rows]] & self.fatigue_acts[self.fatigue[i, rows]]

    def status(self, i: int) -> np.ndarray:
        """state.status as codes: the body ladder's word first, then the fatigue ladder's, else standing (0)."""
        p = self.people[i]
        return np.where(~p.body_acts[self.body[i]], p.body_code[self.body[i]],
                        np.where(~self.fatigue_acts[self.fatigue[i]], self.fatigue_code[self.fatigue[i]], 0))

    def penalty(self, i: int, rows: Any) -> np.ndarray:
        """Wound + fatigue penalty (ladders.penalty of both ladders)."""
        return self.people[i].body_penalty[self.body[i, rows]] + self.fatigue_penalty[self.fatigue[i, rows]]

    def effect(self, i: int, kind: str, rows: Any) -> np.ndarray:
        """state.effect_total of `kind` this round."""
        k = KINDS.index(kind)
        return self.lasting[k, i, rows] + self.now[k, i, rows]

    def char(self, i: int, name: str, rows: Any) -> np.ndarray:
        """One characteristic as it stands (botches lower some)."""
        return self.chars[i, CHAR[name], rows]

    def totals(self, i: int, rows: Any) -> dict[str, np.ndarray]:
        """totals.totals for a melee weapon (a broken weapon counts 0 everywhere)."""
        p, o = self.people[i], self.options
        pen = self.penalty(i, rows) if o["penalties_apply"] else 0
        broken = self.broken[i, rows]
        init, attack, defence, damage = (np.where(broken, 0, stat) for stat in p.weapon)
        qik = self.char(i, "qik", rows)
        guard = {"best": np.maximum(defence, qik), "weapon": defence, "quickness": qik}[o["defence_uses"]]
        sign = -1 if o["defence_size_sign"] == "subtract" else 1
        return {"initiative": qik + p.skill + init - p.enc + pen,
                "attack": self.char(i, "dex", rows) + p.skill + attack + pen,
                "defence": p.skill + guard + sign * p.size - p.enc + p.shield + pen,
                "damage": p.skill + damage + self.char(i, "str", rows) + max(p.size, 0),
                "soak": self.char(i, "stm", rows) + p.size + self.protection[i, rows]}

    # --- changes (work.Round) -------------------------------------------------------------------------

    def lose(self, i: int, rows: np.ndarray, body: Any = 0, fatigue: Any = 0) -> None:
        """work.Round.lose: levels added, at most 100 in all."""
        self.body[i, rows] = np.minimum(MAX_LOST, self.body[i, rows] + np.maximum(body, 0))
        self.fatigue[i, rows] = np.minimum(MAX_LOST, self.fatigue[i, rows] + np.maximum(fatigue, 0))

    def set_level(self, i: int, rows: np.ndarray, name: str) -> None:
        """work.Round.set_level: at least at the named level (unconscious: fatigue; else body)."""
        ladder = self.fatigue if name == "unconscious" else self.body
        ladder[i, rows] = np.maximum(ladder[i, rows], self.people[i].out_levels[name])

    def add_effect(self, i: int, rows: np.ndarray, kind: str, value: int, rounds: int | None) -> None:
        """work.Round.add_effect: `rounds` None lasts the combat from now; 1 is the next round only."""
        if rounds not in (None, 1):
            raise AssertionError("the botch tables only last one round or the whole combat")
        target = self.lasting if rounds is None else self.next
        np.add.at(target[KINDS.index(kind), i], rows, value)


def heavy_index(options: Mapping[str, Any]) -> int | None:
    """duel._action: levels lost from which `desperate_when_heavy` defends desperately."""
    body = options["body_levels"]
    return ladders.index_of(body, "heavy", ()) if any(r["name"] == "heavy" for r in body) else None
