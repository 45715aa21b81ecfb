"""Run many independent fights of one matchup at once, segment by segment (digest section 17).

Each segment: initiative (F1, RULINGS 17), then every standing combatant with an action attacks in
roster order, passes by action count; a miss gives the defender a Reprisal. This is the resolver's
Combat Segment under the duel policy (`service.rules.tactical.duel`); tests/unit/sim/test_differential.py
holds the two to the same distribution. Fights end when at most
one side has anyone standing, or at the segment cap (a draw). Only the numpy Generator is random.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from service.sim.attack import strike
from service.sim.matchup import Matchup
from service.sim.state import State
from service.sim.stopping import checkpoint
from service.sim.tally import EVENTS, Tally, finished

SHIFT = np.int64(1024)


def simulate(m: Matchup, trials: int, rng: np.random.Generator) -> Tally:
    """Fight `trials` independent fights of `m`; their counts as a Tally."""
    tally = Tally.empty(m)
    st = State.start(m, trials)
    counts: Counter[str] = Counter({name: 0 for name in EVENTS})
    cap = m.options.max_segments
    for segment in range(1, cap + 1):
        checkpoint()
        play_segment(m, st, rng, segment, counts)
        st.end_segment()
        done = finished(m, st)
        if done.any():
            tally.record(m, st.keep(done), segment, capped=False)
            st = st.keep(~done)
        if st.size and segment == cap:
            tally.record(m, st, segment, capped=True)
            break
        if st.size == 0:
            break
    tally.count(counts)
    return tally


def roster(m: Matchup, st: State, rng: np.random.Generator) -> np.ndarray:
    """(trials, N) combatant order: actions desc, then d10 + AWA mod + HRT mod - pain desc,
    then AGL, HRT, then id alphabetically (RULINGS 17, A6, A7); those who cannot act go last."""
    arr = m.arrays
    n = m.size
    init = rng.integers(1, 11, (st.size, n)) + arr["init_mod"] - st.pain()
    key = (arr["actions"] * SHIFT + np.clip(init + 512, 0, SHIFT - 1)) * SHIFT
    key = ((key + np.clip(arr["agl"], 0, SHIFT - 1)) * SHIFT + np.clip(arr["hrt"], 0, SHIFT - 1)) * SHIFT
    key = key + (SHIFT - 1 - arr["id_rank"])
    key = np.where(st.standing() & (arr["actions"] > 0), key, -1)
    return np.argsort(-key, axis=1, kind="stable")


def play_segment(m: Matchup, st: State, rng: np.random.Generator, segment: int,
                 counts: Counter[str]) -> None:
    """One Combat Segment of every fight in `st`."""
    order = roster(m, st, rng)
    if segment == 1:
        st.first_side = np.where(st.standing()[np.arange(st.size), order[:, 0]], m.side[order[:, 0]], -1)
    for action in range(int(m.arrays["actions"].max())):
        for rank in range(m.size):
            _act(m, st, rng, order[:, rank], action, counts)


def _act(m: Matchup, st: State, rng: np.random.Generator, actor: np.ndarray, action: int,
         counts: Counter[str]) -> None:
    """The combatant at one roster rank in every fight attacks a standing foe, if he can."""
    standing = st.standing()
    rows = np.arange(st.size)
    able = standing[rows, actor] & (m.arrays["actions"][actor] > action)
    t, a = rows[able], actor[able]
    foes = standing[t] & (m.side[None, :] != m.side[a][:, None])
    has = foes.any(axis=1)
    t, a, foes = t[has], a[has], foes[has]
    if not len(t):
        return
    d = pick_targets(m, foes, rng)
    hit = strike(m, st, rng, t, a, d, counts)
    if m.options.reprisals:
        back = ~hit & st.standing()[t, d]
        if back.any():
            strike(m, st, rng, t[back], d[back], a[back], counts, reprisal=True)


def pick_targets(m: Matchup, foes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The foe each attacker strikes as his action resolves: the first standing foe in matchup order
    (`first`, the resolver's `target_policy: first-standing`), or one drawn uniformly from the standing
    foes (`random`, `random-standing`)."""
    if m.options.targeting == "random":
        return (rng.random(foes.shape) * foes).argmax(axis=1)
    return foes.argmax(axis=1)
