"""Before and after the flurries, for arrays of fights (duel.Duel.declare, round.moves): each able fighter's
nearest foe and the path toward him, standing up, initiative with its tie-breaks, the movement and adjustment
phases along those paths, and who ends up engaged with whom (*Initiative*, *Movement*, *Zones of Danger*,
*Engaging an Opponent*)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.sim.engines.war_and_combat.blows import Play, d6
from service.sim.engines.war_and_combat.fights import DIRECTIONS, descending, direction, distance

FAR = 1 << 40


@dataclass
class Plans:
    """This round's declarations (T, n): the target (-1: no declaration) and the path toward him (hexes
    (T, n, steps) and how many), with how far along it each fighter has walked."""

    target: np.ndarray
    pq: np.ndarray
    pr: np.ndarray
    length: np.ndarray
    done: np.ndarray


def declare(p: Play, steps: int) -> Plans:
    """duel.Duel.declare: every fighter not out of the fight engages the nearest able foe (matchup order on
    ties) and plans a walk toward him, greedily through hexes nobody stood in at the start of the round,
    while farther than his reach (at least 1); only the first `steps` hexes can be walked in a round."""
    s, f = p.fights, p.f
    n, size = f.n, s.size
    able = ~s.out
    gaps = s.gaps()
    foes = able[:, :, None] & able[:, None, :] & (f.side[:, None] != f.side[None, :])[None]
    key = np.where(foes, gaps * n + np.arange(n)[None, None, :], FAR)
    target = np.where(foes.any(axis=2), key.argmin(axis=2), -1)
    pq = np.zeros((size, n, max(steps, 1)), np.int64)
    pr = np.zeros_like(pq)
    length = np.zeros((size, n), np.int64)
    reach = np.maximum(f.reach, 1)
    rows = np.arange(size)
    for i in range(n):
        t = target[:, i]
        walk = np.flatnonzero((t >= 0) & (gaps[rows, i, np.maximum(t, 0)] > reach[i]))
        if walk.size:
            _path(p, walk, i, t[walk], steps, pq, pr, length, reach[i])
    return Plans(target, pq, pr, length, np.zeros((size, n), np.int64))


def _path(p: Play, rows: np.ndarray, i: int, t: np.ndarray, steps: int, pq: np.ndarray, pr: np.ndarray,
          length: np.ndarray, reach: int) -> None:
    """Greedy steps toward each fight's target: the free neighbour nearest him (the first side on ties)."""
    s = p.fights
    q, r = s.q[rows, i].copy(), s.r[rows, i].copy()
    tq, tr = s.q[rows, t], s.r[rows, t]
    taken_q, taken_r = s.q[rows], s.r[rows]
    going = np.ones(len(rows), bool)
    for k in range(steps):
        nq, nr = q[:, None] + DIRECTIONS[:, 0], r[:, None] + DIRECTIONS[:, 1]  # (m, 6)
        taken = ((taken_q[:, None, :] == nq[:, :, None]) & (taken_r[:, None, :] == nr[:, :, None])).any(axis=2)
        score = np.where(taken, FAR, distance(nq, nr, tq[:, None], tr[:, None]))
        best = score.argmin(axis=1)
        going &= (score.min(axis=1) < FAR) & (distance(q, r, tq, tr) > reach)
        if not going.any():
            return
        q = np.where(going, nq[np.arange(len(rows)), best], q)
        r = np.where(going, nr[np.arange(len(rows)), best], r)
        pq[rows[going], i, k], pr[rows[going], i, k] = q[going], r[going]
        length[rows[going], i] += 1


def upkeep(p: Play) -> np.ndarray:
    """moves.upkeep: a fallen fighter who can act on sound legs stands up, which takes his movement phase;
    returns who stood up (T, n)."""
    s = p.fights
    stood = s.fallen & s.can_act(slice(None), slice(None)) & (s.bad_legs(slice(None), slice(None)) == 0)
    s.fallen &= ~stood
    return stood


def initiative(p: Play) -> np.ndarray:
    """moves.initiative: 3d6 + FR (+ wound penalty by option) for every fighter not out, highest first, then
    option `initiative_tie_break` key by key (a coin: 1d6 each among those still equal), then matchup order;
    those out of the fight after them (T, n)."""
    s, f = p.fights, p.f
    size, n = s.size, f.n
    total = d6(p.rng, size * n, 3).reshape(size, n) + f.fr
    if p.o["penalties_apply_to_initiative"]:
        total = total + s.penalty(slice(None), slice(None))
    key = total + 256
    for values in f.tie_keys:
        if values is None:
            same = (key[:, :, None] == key[:, None, :]) & ~s.out[:, None, :]
            shared = same.sum(axis=2) > 1
            values = np.where(shared, d6(p.rng, size * n, 1).reshape(size, n), 0)
        key = key * 512 + values + 256
    key = np.where(s.out, -1, key)
    return descending(key)


def points(p: Play, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
    """moves.points: half the walk's hexes, halved again or cut to 2 by bad legs (floor)."""
    per, bad = 2 * p.f.per_phase, p.fights.bad_legs(rows, who)
    full = np.where(bad == 2, np.minimum(per, 2), np.where(bad == 1, per // 2, per))
    return full // 2


def threatening(p: Play, rows: np.ndarray, who: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Round.threatening: the first hostile fighter not out whose weapon reaches hex (q, r), else -1."""
    s, f = p.fights, p.f
    near = distance(s.q[rows], s.r[rows], q[:, None], r[:, None]) <= f.reach[None, :]
    there = near & ~s.out[rows] & (f.reach > 0)[None, :] & (f.side[None, :] != f.side[who][:, None])
    return np.where(there.any(axis=1), there.argmax(axis=1), -1)


def walk(p: Play, plans: Plans, order: np.ndarray, first: bool, skip: np.ndarray) -> None:
    """moves.move_phase of every fighter, in `order`: along his path with this phase's points, a step to a
    side ahead costing 1 (and turning him), any other 2; stopping at an occupied hex, and in the movement
    phase on entering a hex a foe threatens. `skip` (T, n): who does not move this phase."""
    s = p.fights
    n = p.f.n
    moving = (plans.length > plans.done) & ~skip & ~s.out & ~s.stunned
    fights = np.flatnonzero(moving.any(axis=1))
    if not fights.size:
        return
    for k in range(n):
        who = order[fights, k]
        rows = fights
        on = moving[rows, who]
        rows, who = rows[on], who[on]
        if not rows.size:
            continue
        left = points(p, rows, who)
        for _ in range(2 * p.f.per_phase):
            at = plans.done[rows, who]
            nq, nr = plans.pq[rows, who, at], plans.pr[rows, who, at]
            dq, dr = nq - s.q[rows, who], nr - s.r[rows, who]
            occupied = ((s.q[rows] == nq[:, None]) & (s.r[rows] == nr[:, None])).any(axis=1)
            way = direction(dq, dr)
            ahead = ((way - s.facing[rows, who]) % 6 != 2) & ((way - s.facing[rows, who]) % 6 != 3) & (
                (way - s.facing[rows, who]) % 6 != 4)
            cost = np.where(ahead, 1, 2)
            go = ~occupied & (distance(0, 0, dq, dr) == 1) & (cost <= left) & (left > 0)
            rows, who, nq, nr, cost, way, ahead, left = (x[go] for x in (rows, who, nq, nr, cost, way, ahead, left))
            if not rows.size:
                break
            left = left - cost
            s.facing[rows, who] = np.where(ahead, way, s.facing[rows, who])
            s.q[rows, who], s.r[rows, who] = nq, nr
            plans.done[rows, who] += 1
            more = plans.done[rows, who] < plans.length[rows, who]
            if first:
                more &= threatening(p, rows, who, nq, nr) < 0
            rows, who, left = rows[more], who[more], left[more]
            if not rows.size:
                break


def engage(p: Play, plans: Plans, gaps: np.ndarray) -> np.ndarray:
    """moves.engagement_groups' pairs (T, n): each fighter who declared, can act and has his target in reach
    pairs with him, else with the first foe threatening his hex; -1 for none."""
    s, f = p.fights, p.f
    size, n = s.size, f.n
    rows = np.arange(size)[:, None]
    everyone = np.arange(n)[None, :]
    t = np.maximum(plans.target, 0)
    near = (plans.target >= 0) & ~s.out[rows, t] & (gaps[rows, everyone, t] <= f.reach[None, :])
    partner = np.where(near, plans.target, -1)
    able = (plans.target >= 0) & s.can_act(slice(None), slice(None))
    left = able & ~near
    if left.any():
        rr, ii = np.nonzero(left)
        partner[rr, ii] = threatening(p, rr, ii, s.q[rr, ii], s.r[rr, ii])
    return np.where(able, partner, -1)
