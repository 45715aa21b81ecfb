"""One melee attack for arrays of fights (round.attacks.strike and round.blows.land under intention `kill`):
the defender's state and Defense, 3d6 against it, location, glance, hit or critical, impact, the wound and
its effects (*Resolution of Attacks*, *Critical Hits*, *Strike Results Procedure*, *Wound Effects*)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from service.sim.engines.war_and_combat.fights import PENALTY, Fights, front, legs_of
from service.sim.engines.war_and_combat.figures import (
    BELLY,
    CHEST,
    HEAD,
    LA,
    LL,
    LOCATION_OF,
    RA,
    RL,
    Figures,
)


# general location (head, arm, chest, belly, leg) and left side -> specific location
SPECIFIC_OF = np.array([HEAD, HEAD, RA, LA, CHEST, CHEST, BELLY, BELLY, RL, LL])
SUMS = {count: np.indices((6,) * count).sum(axis=0).ravel() + count for count in (1, 2, 3)}  # every roll once


def d6(rng: np.random.Generator, m: int, count: int, sides: int = 6) -> np.ndarray:
    """`m` sums of `count` dice (up to three d6: one draw among the 6**count equally likely rolls)."""
    if not count:
        return np.zeros(m, np.int64)
    if sides == 6 and count in SUMS:
        return SUMS[count][rng.integers(0, 6 ** count, size=m)]
    return rng.integers(1, sides + 1, size=(m, count)).sum(axis=1)


@dataclass
class Play:
    """A chunk being played: its fights, figures, options, generator and the duel's counts."""

    fights: Fights
    f: Figures
    o: Any
    rng: np.random.Generator
    counts: dict[str, int] = field(default_factory=lambda: {"landed": 0, "critical": 0, "flurries": 0,
                                                            "flurry_actions": 0})
    finish: np.ndarray = field(default_factory=lambda: np.zeros((7, 5), np.int64))
    leads: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # rounds each side led the initiative
    dist: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 0), np.int64))  # this round's (T, n, n) gaps
    keys: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 0), np.int64))  # flurries.reachable

    def roll(self, m: int, terms: tuple[tuple[int, int, int], ...]) -> np.ndarray:
        """round.state.roll_expression for `m` fighters (never below 0)."""
        total = np.zeros(m, np.int64)
        for sign, count, sides in terms:
            total += sign * (d6(self.rng, m, count, sides) if sides else count)
        return np.maximum(total, 0) if terms else total


def defence(p: Play, rows: np.ndarray, att: np.ndarray, dfd: np.ndarray, indefensible: Any) -> np.ndarray:
    """task.defence of attacks.defender_state: indefensible or unaware, then wounds and falls (unconscious,
    immobile, stunned, crawling, fallen), then where the attacker stands (rear, flank), then turned."""
    s, f, o = p.fights, p.f, p.o
    fr, agl = f.fr[dfd], f.agl[dfd]
    normal = 10 + fr + agl
    flank = 10 + fr // 2 + agl if o["flank_defence"] == "half_fighter_rank" else normal // 2
    ahead, rear = front(s.facing[rows, dfd], s.q[rows, att] - s.q[rows, dfd], s.r[rows, att] - s.r[rows, dfd])
    tl = np.where(s.turned[rows, dfd], normal - 1, normal)
    tl = np.where(ahead, tl, np.where(rear, o["no_defence_def"], flank))
    w = s.worst[rows, dfd]
    tl = np.where(s.fallen[rows, dfd] | (legs_of(w) == 2), 5 + fr, tl)
    tl = np.where(s.stunned[rows, dfd], 5 + fr // 2, tl)
    tl = np.where((w[:, CHEST] == 3) | (w >= 4).any(axis=1) | s.unconscious[rows, dfd] | (w[:, HEAD] == 3), 3, tl)
    tl = np.where(indefensible | s.surprised[rows, dfd], o["no_defence_def"], tl)
    if o["penalties_apply_to_defence"]:
        tl = tl + PENALTY[w].sum(axis=-1)
    return tl


def strike(p: Play, rows: np.ndarray, att: np.ndarray, dfd: np.ndarray, indefensible: Any = False) -> np.ndarray:
    """Attacks of `att` on `dfd` in fights `rows` (each fight at most once); which landed (hit or critical)."""
    s, f, o, rng = p.fights, p.f, p.o, p.rng
    m, tie = len(rows), o["tie_succeeds"]
    tl = defence(p, rows, att, dfd, indefensible)
    right = s.worst[rows, att, RA] <= 1
    total = d6(rng, m, 3) + f.skill[att] + f.agl[att] + s.penalty(rows, att) + np.where(right, 0, o["off_arm_penalty"])
    beat = total >= tl if tie else total > tl
    general = LOCATION_OF[d6(rng, m, 3)]
    db = f.db[dfd, general]
    landed = beat & ((total >= tl + db) if tie else (total > tl + db))
    idx = np.flatnonzero(landed)
    if idx.size == 0:
        return landed
    margin = total[idx] - tl[idx] - (db[idx] if o["critical_margin_includes_armor_bonus"] else 0)
    k = np.where(margin >= 5, margin // 5, 0)
    p.counts["landed"] += idx.size
    p.counts["critical"] += int((k > 0).sum())
    land(p, rows[idx], att[idx], dfd[idx], general[idx], k)
    return landed


def land(p: Play, r: np.ndarray, a: np.ndarray, d: np.ndarray, g: np.ndarray, k: np.ndarray) -> None:
    """blows.land of a strike: the limb's side, impact (weapon dice, a critical's extra d6), severity against
    the victim's thresholds, the worst wound per location, the wound's effect, out of the fight."""
    s, f, o, rng = p.fights, p.f, p.o, p.rng
    m = len(r)
    left = rng.integers(1, 3, size=m) == 1 if o["limb_side"] == "random" else np.ones(m, bool)
    spec = SPECIFIC_OF[2 * g + left]
    count, sides = f.count[a], f.dice_sides[a]
    most = max(int(count.max()), 1)
    faces = rng.integers(1, 7, size=(m, most))
    faces = np.where(sides[:, None] == 3, (faces - 1) // 2 + 1, faces)  # a d6 read as a d3 stays uniform
    impact = np.where(np.arange(most)[None, :] < count[:, None], faces, 0).sum(axis=1)
    kmax = int(k.max())
    if kmax:
        extra = rng.integers(1, 7, size=(m, kmax))
        impact += np.where(np.arange(kmax)[None, :] < k[:, None], extra, 0).sum(axis=1)
    drop = (k > 0) & f.kd6[a] & (not o["critical_keeps_offset"])
    impact += np.where(drop, 0, f.offset[a])
    effective = np.where(k > 0, impact, impact - f.absorb[d, g])
    lim = f.limits[d]
    if f.ordered:  # thresholds rising from 0: the severity counts the ones exceeded
        sev = (effective > 0).astype(np.int64) + (effective > lim[:, 0]) + (effective > lim[:, 1]) + (
            effective > lim[:, 2])
    else:
        sev = np.select([effective <= 0, effective <= lim[:, 0], effective <= lim[:, 1], effective <= lim[:, 2]],
                        [0, 1, 2, 3], 4)
    hurt = sev > 0
    r, d, g, spec, sev = r[hurt], d[hurt], g[hurt], spec[hurt], sev[hurt]
    if not len(r):
        return
    was_out = s.out[r, d]
    s.worst[r, d, spec] = np.maximum(s.worst[r, d, spec], sev)
    s.wounded(r, d)
    effects(p, r, d, g, sev)
    now = ~was_out & s.out[r, d]
    np.add.at(p.finish, (spec[now], sev[now]), 1)


def check(p: Play, rows: np.ndarray, who: np.ndarray, attribute: np.ndarray) -> np.ndarray:
    """A resistance check against TL 10: 3d6 + attribute + wound penalty."""
    total = d6(p.rng, len(rows), 3) + attribute + p.fights.penalty(rows, who)
    return total >= 10 if p.o["tie_succeeds"] else total > 10


def lose_action(p: Play, rows: np.ndarray, who: np.ndarray) -> None:
    """Round.lose_action: one action lost this round, one fewer left in the flurry."""
    s = p.fights
    s.lost[rows, who] += 1
    s.actions[rows, who] = np.maximum(s.actions[rows, who] - 1, 0)


def effects(p: Play, r: np.ndarray, d: np.ndarray, g: np.ndarray, sev: np.ndarray) -> None:
    """blows.wound_effect of each new wound (*Wound Effects*): fumble and stumble checks, stun, fumble,
    stumble, falls of a disabled leg or belly and of a knockout."""
    s, f = p.fights, p.f
    arm, leg = g == 1, g == 4
    vital = (g == 0) | (g == 2) | (g == 3)
    if (on := arm & (sev == 1)).any():
        rr, dd = r[on], d[on]
        failed = ~check(p, rr, dd, f.dex[dd])
        lose_action(p, rr[failed], dd[failed])
    if (on := leg & (sev == 1)).any():
        rr, dd = r[on], d[on]
        failed = ~check(p, rr, dd, f.agl[dd])
        s.fallen[rr[failed], dd[failed]] = True
        lose_action(p, rr[failed], dd[failed])
    if (on := vital & (sev == 2)).any():
        rr, dd = r[on], d[on]
        s.stun[rr, dd] = np.maximum(s.stun[rr, dd], p.roll(len(rr), f.stun_terms))
        s.stunned[rr, dd] = True
        s.actions[rr, dd] = 0
    on = arm & (sev == 2)
    lose_action(p, r[on], d[on])
    on = leg & (sev == 2)
    s.fallen[r[on], d[on]] = True
    lose_action(p, r[on], d[on])
    on = (sev == 3) & (leg | (g == 3) | (g == 0))
    s.fallen[r[on], d[on]] = True
    on = (sev == 3) & (g == 0)
    s.unconscious[r[on], d[on]] = True


__all__ = ["LL", "RL", "Play", "check", "d6", "defence", "land", "lose_action", "strike"]
