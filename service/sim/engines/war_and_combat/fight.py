"""The `war-and-combat` fight round by round for a whole chunk of fights of any size (round.resolve under
duel.Duel.declare): declarations, standing up, initiative, the movement phase, the flurries, the adjustment
phase and the stuns' count-down; finished fights leave the arrays as they end, each recorded in the tally."""
from __future__ import annotations

from typing import Any

import numpy as np

from service.sim.engines.war_and_combat.blows import Play
from service.sim.engines.war_and_combat.fights import STATUS_NAMES, Fights
from service.sim.engines.war_and_combat.figures import SEVERITY_NAMES, SPECIFIC, Figures, figures
from service.sim.engines.war_and_combat.flurries import flurries
from service.sim.engines.war_and_combat.moves import declare, engage, initiative, upkeep, walk
from service.sim.stopping import checkpoint

BATCH_CELLS = 4_000_000  # fights x fighters^2 held at once; bigger chunks go in turns


def simulate(state: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` fights of an accepted matchup: the tally `service.sim.rounds.play` would return."""
    f = figures(state)
    tally = Tally(f, state.options["mortal_vital_dying"])
    batch = max(1, BATCH_CELLS // f.n ** 2)
    for start in range(0, trials, batch):
        size = min(batch, trials - start)
        fights = Fights(f, state, size)
        if state.round != 0 or state.options["surprise_rule"] != "no_first_flurry":
            fights.surprised[:] = False
        play = Play(fights, f, state.options, rng, leads=np.zeros(len(f.sides), np.int64))
        fight(play, tally)
        tally.add(play)
    return tally.as_dict(trials)


def fight(p: Play, tally: Tally) -> None:
    """Every fight of `p` to its end or option `max_rounds`."""
    cap = int(p.o["max_rounds"])
    steps = min(10, 2 * p.f.per_phase)
    for rounds in range(cap + 1):
        checkpoint()
        over = tally.sides_up(p.fights).sum(axis=1) <= 1
        if over.any():
            tally.record(p.fights, over, rounds, capped=False)
            p.fights.keep(~over)
        if not p.fights.size:
            return
        if rounds == cap:
            tally.record(p.fights, np.ones(p.fights.size, bool), cap, capped=True)
            return
        play_round(p, steps)


def play_round(p: Play, steps: int) -> None:
    """round.resolve of every fight in the arrays under the duel's declarations."""
    s = p.fights
    s.stunned = s.stun > 0
    started = s.stunned.copy()
    s.turned[:] = False
    plans = declare(p, steps)
    stood = upkeep(p)
    order = initiative(p)
    p.leads += np.bincount(p.f.side[order[:, 0]], minlength=len(p.f.sides))
    walk(p, plans, order, True, stood)
    p.dist = s.gaps()
    partner = engage(p, plans, p.dist)
    flurries(p, plans, partner, order)
    engaged = (partner >= 0) | (partner[:, None, :] == np.arange(p.f.n)[None, :, None]).any(axis=2)
    walk(p, plans, order[:, ::-1], False, engaged)
    s.stun = np.where(started & (s.stun > 0), s.stun - 1, s.stun)
    s.lost[:] = 0
    s.surprised[:] = False


class Tally:
    """The counts of `service.sim.rounds`' tally, kept as arrays while fights end."""

    def __init__(self, f: Figures, dying: bool):
        self.f, self.dying = f, dying
        self.wins = np.zeros(len(f.sides), np.int64)
        self.draws = self.capped = 0
        self.rounds: dict[int, int] = {}
        self.status = np.zeros((f.n, len(STATUS_NAMES)), np.int64)
        self.counts: dict[str, int] = {}
        self.finish = np.zeros((7, 5), np.int64)
        self.leads = np.zeros(len(f.sides), np.int64)

    def sides_up(self, s: Fights) -> np.ndarray:
        """(T, sides): does the side still have a fighter in the fight."""
        return np.stack([(~s.out[:, self.f.side == k]).any(axis=1) for k in range(len(self.f.sides))], axis=1)

    def record(self, s: Fights, rows: np.ndarray, rounds: int, capped: bool) -> None:
        """Fights `rows` (a mask) ended after `rounds` rounds (or at the cap)."""
        n = int(rows.sum())
        self.rounds[rounds] = self.rounds.get(rounds, 0) + n
        codes = s.status(self.dying)[rows]
        for i in range(self.f.n):
            self.status[i] += np.bincount(codes[:, i], minlength=len(STATUS_NAMES))
        up = self.sides_up(s)[rows]
        alone = up.sum(axis=1) == 1
        if capped:
            alone[:] = False
            self.capped += n
        self.draws += int((~alone).sum())
        self.wins += np.bincount(up[alone].argmax(axis=1), minlength=len(self.f.sides))

    def add(self, p: Play) -> None:
        """A batch's counts."""
        for name, value in p.counts.items():
            self.counts[name] = self.counts.get(name, 0) + int(value)
        self.finish += p.finish
        self.leads += p.leads

    def as_dict(self, trials: int) -> dict[str, Any]:
        """JSON as `service.sim.rounds.empty` shapes it, details as duel.Duel.details names them."""
        f = self.f
        details: dict[str, Any] = {k: v for k, v in self.counts.items() if v}
        for k, side in enumerate(f.sides):
            if self.leads[k]:
                details[f"initiative:{side}"] = int(self.leads[k])
        for spec, sev in zip(*np.nonzero(self.finish)):
            details[f"finish:{SPECIFIC[spec]}:{SEVERITY_NAMES[sev]}"] = int(self.finish[spec, sev])
        return {"trials": trials, "wins": {side: int(w) for side, w in zip(f.sides, self.wins) if w},
                "draws": self.draws, "capped": self.capped,
                "rounds": {str(k): v for k, v in sorted(self.rounds.items()) if v},
                "status": {ident: {STATUS_NAMES[c]: int(v) for c, v in enumerate(row) if v}
                           for ident, row in zip(f.ids, self.status)},
                "details": details}
