"""The flurries of a round for arrays of fights (round.moves.engagement_groups and round.flurries.flurry):
engaged pairs joined into groups, and every group of every fight played as one flurry instance at once (the
groups of one fight share no fighter, and with the `hold` and `circle` tactics nothing moves between them):
flurry initiative, actions, turning to face, then attack after attack until no one has a foe in reach and
an action left (*Flurry Procedure*, *Flurry Initiative*, *Defensive Responses*, *Running Out of Actions*)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.sim.engines.war_and_combat.blows import Play, d6, strike
from service.sim.engines.war_and_combat.fights import descending, direction, front
from service.sim.engines.war_and_combat.moves import FAR, Plans

GUARD = 500  # round.flurries.flurry's bound on its loop


@dataclass
class Flurries:
    """One flurry instance a row: its fight, members (I, n), their initiative ranks and flurry order."""

    fight: np.ndarray
    members: np.ndarray
    rank: np.ndarray
    seq: np.ndarray


def groups(partner: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Engagement groups: (fight, members, initiative ranks) of each group, one row a group; and each
    fighter's primary foe (T, n): his own pair's, else the first in initiative order who engaged him."""
    size, n = partner.shape
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(n)[None, :], axis=1)
    if n == 2:  # a duel: one group of both as soon as either engaged the other, each the other's primary foe
        pair = (partner >= 0).any(axis=1)
        fight = np.flatnonzero(pair)
        primary = np.where(pair[:, None], np.array([1, 0])[None, :], -1)
        return (fight, np.ones((fight.size, 2), bool), rank[fight]), primary
    linked = np.zeros((size, n, n), bool)
    rr, ii = np.nonzero(partner >= 0)
    linked[rr, ii, partner[rr, ii]] = True
    engaged = linked.any(axis=2) | linked.any(axis=1)
    by = np.where(linked, rank[:, :, None], n)  # who engaged j, by initiative rank
    first = np.take_along_axis(order, np.minimum(by.min(axis=1), n - 1), axis=1)
    primary = np.where(partner >= 0, partner, np.where(linked.any(axis=1), first, -1))
    reach = (linked | linked.transpose(0, 2, 1) | np.eye(n, dtype=bool)[None]).astype(np.uint8)
    for _ in range(max(1, int(np.ceil(np.log2(max(n, 2)))))):
        reach = (np.matmul(reach, reach) > 0).astype(np.uint8)
    reach = reach.astype(bool) & engaged[:, None, :] & engaged[:, :, None]
    low = np.where(reach, rank[:, None, :], n).min(axis=2)
    fight, leader = np.nonzero(engaged & (low == rank))
    return (fight, reach[fight, leader], rank[fight]), primary


def reachable(p: Play, rank: np.ndarray) -> np.ndarray:
    """(T, n, n) for the round: the key by which fighter i picks foe j among those in reach (hexes, then
    initiative rank), FAR where j is no foe of his or beyond his reach (at least 1 hex); positions do not
    change during the flurries."""
    f, n = p.f, p.f.n
    hostile = f.side[:, None] != f.side[None, :]
    ok = hostile[None] & (p.dist <= np.maximum(f.reach, 1)[None, :, None])
    return np.where(ok, p.dist * n + rank[:, None, :], FAR)


def target_of(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries, inst: np.ndarray, who: np.ndarray,
              every: bool = False) -> np.ndarray:
    """round.flurries.target_of for fighters `who` (m, k) of instances `inst` (m,): the declared target when
    in the flurry, not out and in reach (at least 1 hex), else the primary foe the same way, else the nearest
    such foe of the group (initiative order on ties); -1 for none. `every`: `who` is every fighter in
    matchup order on each row."""
    rows = fl.fight[inst]
    (m, k), n = who.shape, p.f.n
    if n == 2:  # a duel: the only other fighter, when he is a foe in reach, in the flurry and not out
        other = 1 - who
        ok = (p.keys[rows[:, None], who, other] < FAR) & fl.members[inst[:, None], other] & ~p.fights.out[
            rows[:, None], other]
        return np.where(ok, other, -1)
    key = p.keys[rows] if k == n and every else p.keys[rows[:, None], who]  # (m, k, n)
    key = np.where((fl.members[inst] & ~p.fights.out[rows])[:, None, :], key, FAR)
    near = key.argmin(axis=2)
    out = np.where(key.min(axis=2) < FAR, near, -1)
    mi, ki = np.arange(m)[:, None], np.arange(k)[None, :]
    mine = (primary[rows], plans.target[rows]) if k == n and every else (primary[rows[:, None], who],
                                                                          plans.target[rows[:, None], who])
    for choice in mine:
        ok = (choice >= 0) & (key[mi, ki, np.maximum(choice, 0)] < FAR)
        out = np.where(ok, choice, out)
    return out


def next_attacker(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries, inst: np.ndarray, done: np.ndarray
                  ) -> np.ndarray:
    """round.flurries.next_attacker: the first in flurry order not done, with actions, able to attack and
    with a foe in reach; -1 for none."""
    s, n = p.fights, p.f.n
    rows = fl.fight[inst]
    everyone = np.broadcast_to(np.arange(n), (len(inst), n))
    ready = fl.members[inst] & ~done[inst] & (s.actions[rows] > 0) & s.can_attack(rows[:, None], everyone)
    ready &= target_of(p, plans, primary, fl, inst, everyone, every=True) >= 0
    pick = np.where(ready, fl.seq[inst], FAR).argmin(axis=1)
    return np.where(ready.any(axis=1), pick, -1)


def flurry_order(p: Play, fl: tuple[np.ndarray, np.ndarray, np.ndarray]) -> Flurries:
    """round.flurries.flurry_initiative: 3d6 + FR each, equal totals rolled again (option
    `flurry_initiative_tie` reroll, at most 10 times); highest first, then fighter rank, then initiative."""
    fight, members, rank = fl
    m, n = members.shape
    f = p.f
    total = d6(p.rng, m * n, 3).reshape(m, n) + f.fr
    if p.o["flurry_initiative_tie"] == "reroll":
        for _ in range(10):
            same = (total[:, :, None] == total[:, None, :]) & members[:, None, :]
            tied = members & (same.sum(axis=2) > 1)
            if not tied.any():
                break
            total = np.where(tied, d6(p.rng, m * n, 3).reshape(m, n) + f.fr, total)
    key = np.where(members, (total + 256) * 1024 * 1024 + (f.fr + 256) * 1024 + (1023 - rank), -1)
    order = descending(key)
    seq = np.empty_like(order)
    np.put_along_axis(seq, order, np.arange(n)[None, :], axis=1)
    return Flurries(fight, members, rank, seq)


def flurries(p: Play, plans: Plans, partner: np.ndarray, order: np.ndarray) -> None:
    """Every engagement group's flurry in every fight of the chunk."""
    found, primary = groups(partner, order)
    if not found[0].size:
        return
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(p.f.n)[None, :], axis=1)
    p.keys = reachable(p, rank)
    fl = flurry_order(p, found)
    _start(p, plans, primary, fl)
    _attacks(p, plans, primary, fl)


def _start(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries) -> None:
    """Each member's actions (none when he cannot attack or is surprised) and his turn to face his target."""
    s, f = p.fights, p.f
    ii, jj = np.nonzero(fl.members)
    rows = fl.fight[ii]
    can = s.can_attack(rows, jj) & ~s.surprised[rows, jj]
    s.actions[rows, jj] = np.where(can, np.maximum(0, f.apf[jj] - s.lost[rows, jj]), 0)
    p.counts["flurries"] += len(ii)
    p.counts["flurry_actions"] += int(s.actions[rows, jj].sum())
    t = target_of(p, plans, primary, fl, ii, jj[:, None])[:, 0]
    on = (t >= 0) & s.can_act(rows, jj)
    rows, jj, t = rows[on], jj[on], t[on]
    dq, dr = s.q[rows, t] - s.q[rows, jj], s.r[rows, t] - s.r[rows, jj]
    ahead, _ = front(s.facing[rows, jj], dq, dr)
    rows, jj = rows[~ahead], jj[~ahead]
    s.facing[rows, jj] = direction(dq[~ahead], dr[~ahead])
    s.turned[rows, jj] = True


def _attacks(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries) -> None:
    """round.flurries.flurry's loop for every instance at once: one step of each a pass."""
    s = p.fights
    m = len(fl.fight)
    done = np.zeros(fl.members.shape, bool)
    pair = fl.members.sum(axis=1) == 2
    att = next_attacker(p, plans, primary, fl, np.arange(m), done)
    for _ in range(GUARD):
        inst = np.flatnonzero(att >= 0)
        if not inst.size:
            return
        a = att[inst]
        t = target_of(p, plans, primary, fl, inst, a[:, None])[:, 0]
        rows = fl.fight[inst]
        idle = (t < 0) | done[inst, a]
        spent = ~idle & ((s.actions[rows, a] == 0) | ~s.can_attack(rows, a))
        swing = ~idle & ~spent
        if idle.any():
            done[inst[idle], a[idle]] = True
            att[inst[idle]] = next_attacker(p, plans, primary, fl, inst[idle], done)
        if spent.any():
            _run_out(p, plans, primary, fl, inst[spent], a[spent], t[spent], done, att, pair)
        if swing.any():
            _swing(p, plans, primary, fl, inst[swing], a[swing], t[swing], done, att)


def _run_out(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries, inst: np.ndarray, a: np.ndarray,
             t: np.ndarray, done: np.ndarray, att: np.ndarray, pair: np.ndarray) -> None:
    """*Running Out of Actions*: a foe with two actions left, able and aiming at him, strikes one indefensible
    blow; the attacker is done; a pair's flurry ends there."""
    s = p.fights
    rows = fl.fight[inst]
    back = target_of(p, plans, primary, fl, inst, t[:, None])[:, 0]
    ok = (s.actions[rows, t] >= 2) & s.can_attack(rows, t) & (back == a)
    if ok.any():
        r, tt = rows[ok], t[ok]
        s.actions[r, tt] -= np.minimum(p.o["indefensible_attack_cost"], s.actions[r, tt])
        strike(p, r, tt, a[ok], indefensible=True)
    done[inst, a] = True
    att[inst] = -1
    rest = ~pair[inst]
    if rest.any():
        att[inst[rest]] = next_attacker(p, plans, primary, fl, inst[rest], done)


def _swing(p: Play, plans: Plans, primary: np.ndarray, fl: Flurries, inst: np.ndarray, a: np.ndarray,
           t: np.ndarray, done: np.ndarray, att: np.ndarray) -> None:
    """One attack and who attacks next: the same attacker while he has a foe after a kill, the defender
    after a miss (unless done), after a hit by option `hit_swap_rule`."""
    s, rule = p.fights, p.o["hit_swap_rule"]
    rows = fl.fight[inst]
    s.actions[rows, a] -= 1
    lost_before = s.lost[rows, t].copy()
    landed = strike(p, rows, a, t)
    out = s.out[rows, t]
    if out.any():
        more = target_of(p, plans, primary, fl, inst[out], a[out][:, None])[:, 0] >= 0
        finished = inst[out][~more]
        done[finished, a[out][~more]] = True
        att[finished] = next_attacker(p, plans, primary, fl, finished, done)
    missed = ~out & ~landed
    att[inst[missed]] = np.where(done[inst[missed], t[missed]], a[missed], t[missed])
    hit = ~out & landed
    able = (s.actions[rows, t] > 0) & s.can_attack(rows, t) & ~s.fallen[rows, t] & ~done[inst, t]
    if rule == "always":
        swap = able
    elif rule == "defender_if_able":
        swap = able & (s.lost[rows, t] == lost_before)
    else:
        swap = np.zeros(len(inst), bool)
    att[inst[hit]] = np.where(swap[hit], t[hit], a[hit])
