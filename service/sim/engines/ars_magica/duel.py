"""The `ars-magica` fight round by round for a whole chunk of fights, any number of fighters on any number
of sides (engine.Engine.resolve under duel.Duel.declare): declarations by option `ai_stance`, the melee, the
all-out attackers' fatigue rolls and next round's stances; finished fights leave the arrays each round."""
from __future__ import annotations

from typing import Any

import numpy as np

from service.sim.engines.ars_magica.blows import Play, fatigue_roll
from service.sim.engines.ars_magica.fights import Fights, heavy_index
from service.sim.engines.ars_magica.figures import Roster, exceptional, roster
from service.sim.engines.ars_magica.melee import ALL_OUT, PREPARE, declare, melee
from service.sim.engines.ars_magica.tally import Tally
from service.sim.stopping import checkpoint

BATCH_CELLS = 4_000_000  # fights x fighters^2 held at once (who is engaged with whom); bigger chunks go in turns


def simulate(matchup: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` fights of an accepted matchup: the tally `service.sim.rounds.play` would return."""
    options, codes = matchup.options, {"standing": 0}
    people = roster(matchup, codes)
    head = {level: exceptional(options["exceptional_effects"]["head"][name])
            for level, name in ((1, "minor"), (2, "major"), (3, "grave"))}
    tally = Tally(people, codes)
    batch = max(1, BATCH_CELLS // people.count**2)
    for start in range(0, trials, batch):
        play = Play(Fights(people, options, codes, min(batch, trials - start)), rng, options, head)
        fight(play, people, tally)
        tally.counts(play.counts)
    return tally.as_dict(trials)


def fight(play: Play, people: Roster, tally: Tally) -> None:
    """Every fight of `play` to its end or the round cap, each recorded in `tally` as it ends. An ended fight
    stays in the arrays, inert (no one in it has a foe to declare against), until a quarter have ended."""
    cap, heavy = int(play.options["max_rounds"]), heavy_index(play.options)
    live = np.ones(play.fights.size, bool)
    while True:
        checkpoint()
        going = tally.going(play.fights)
        tally.record(play, live & ~going, play.fights.round, capped=False)
        live &= going
        if live.sum() < 0.75 * live.size:
            play.fights.keep(live)
            live = live[live]
        if not live.size:
            return
        if play.fights.round == cap:
            tally.record(play, live, cap, capped=True)
            return
        round_(play, heavy)


def round_(play: Play, heavy: int | None) -> None:
    """engine.Engine.resolve for fights still on: melee, then all-out fatigue, then stances."""
    f = play.fights
    f.new_round()
    target, action = declare(play, heavy)
    winner = melee(play, target, action)
    who, rows = np.nonzero(action == ALL_OUT)
    fatigue_roll(play, f.cells(who, rows), 6)
    f.ready = (action == PREPARE) & f.acts
    details(play, winner)


def details(play: Play, winner: np.ndarray) -> None:
    """duel.details for the round: decided rounds (someone lost levels) and those in which the first
    contest's winner dealt more levels than anyone else."""
    f = play.fights
    decided = (winner >= 0) & (f.inflicted.sum(axis=0) > 0)
    rows = np.flatnonzero(decided)
    if rows.size:
        w = winner[rows]
        dealt = f.inflicted[:, rows]
        mine = dealt[w, np.arange(rows.size)]
        dealt[w, np.arange(rows.size)] = -1
        play.count("decided_rounds", rows.size)
        play.count("first_strike_rounds", (mine > dealt.max(axis=0)).sum())
