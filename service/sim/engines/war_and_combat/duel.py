"""One-on-one duels of `war-and-combat` as arrays (rules document §8-§9): the round resolver's flurry loop
run one step at a time for every fight still going, with boolean masks instead of branches."""
from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from service.rules import registry
from service.rules.war_and_combat import damage, task
from service.sim.rounds import play
from service.sim.stopping import checkpoint

GENERAL = task.GENERAL  # head, arm, chest, belly, leg
SPECIFIC = ("head", "chest", "belly", "left_arm", "right_arm", "left_leg", "right_leg")
HEAD, CHEST, BELLY, LA, RA, LL, RL = range(7)
LIMBS = (LA, RA, LL, RL)
PENALTY = np.array([0, -1, -3, -7, 0])
SEVERITY_NAMES = ("none", "light", "serious", "critical", "mortal")
LOCATION_OF = np.zeros(19, dtype=np.int64)  # 3d6 total -> general index
for _t in range(3, 19):
    LOCATION_OF[_t] = GENERAL.index(task.general_location(_t))
DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


def _plain_dice(expr: str) -> tuple[int, int, int] | None:
    m = DICE.match(expr)
    return None if m is None else (int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0))


def vectorisable(state: Any) -> bool:
    """Whether the duel is one the array engine plays (else the resolver loop plays it)."""
    o = state.options
    if len(state.combatants) != 2 or o["duel_intention"] != "kill" or o["duel_tactic"] != "hold":
        return False
    if _plain_dice(o["stun_rounds"]) is None or o["initiative_tie_break"][-1:] != ["coin"]:
        return False
    for c in state.combatants:
        w = c["weapons"][0]
        if w["kind"] == "missile" or w["range"] < 1 or c["wounds"] or c["stunned_rounds"] or c["fallen"] \
                or c["unconscious"] or c["disarmed"] or c["actions_lost"] or c["surprised"]:
            return False
    a, b = state.combatants
    pa, pb = (a["position"]["q"], a["position"]["r"]), (b["position"]["q"], b["position"]["r"])
    from service.rules.war_and_combat import hexes
    return hexes.distance(pa, pb) == 1 and hexes.side_of(a["facing"], pa, pb) == "front" \
        and hexes.side_of(b["facing"], pb, pa) == "front" and a["side"] != b["side"]


class Fighters:
    """Both fighters' sheet numbers as arrays indexed by fighter (0, 1)."""

    def __init__(self, state: Any):
        o = state.options
        cs = state.combatants
        self.fr = np.array([c["fighter_rank"] for c in cs])
        self.agl = np.array([c["agl_mod"] for c in cs])
        self.dex = np.array([c["dex_mod"] for c in cs])
        self.skill = np.array([c["weapons"][0]["skill"] for c in cs])
        self.apf = np.array([task.actions_per_flurry(c["fighter_rank"]) for c in cs])
        dice = []
        for c in cs:
            w = c["weapons"][0]
            d = damage.impact_dice(w.get("impact_cap", c["strength"] + w["impact_mod"]), o)
            dice.append(d)
        self.count = np.array([d.count for d in dice])
        self.sides = np.array([d.sides for d in dice])
        self.offset = np.array([d.offset for d in dice])
        self.kd6 = np.array([d.count > 0 and d.sides == 6 for d in dice])
        self.pv = np.array([c["weapons"][0]["penetration_value"] for c in cs])
        self.limits = np.array([damage.thresholds(c["size"], o) for c in cs])  # (2, 3)
        innate = [o["innate_absorption"] if c["innate_absorption"] is None else c["innate_absorption"] for c in cs]
        self.absorb = np.array([[innate[i] + cs[i]["armor"].get(g, {}).get("absorption", 0) for g in GENERAL]
                                for i in range(2)])
        self.pt = np.array([[cs[i]["armor"].get(g, {}).get("penetration_threshold", 0) for g in GENERAL]
                            for i in range(2)])
        self.db = np.array([[cs[i]["armor"].get(g, {}).get("defence_bonus", 0) for g in GENERAL] for i in range(2)])
        self.tie_keys = []
        for name in o["initiative_tie_break"]:
            if name == "coin":
                break
            self.tie_keys.append(np.array([c[name] for c in cs]))


def _d(rng: np.random.Generator, n: int, count: int, sides: int = 6) -> np.ndarray:
    return rng.integers(1, sides + 1, size=(n, count)).sum(axis=1) if count else np.zeros(n, dtype=np.int64)


class Duels:
    """Every fight's changing state."""

    def __init__(self, n: int, f: Fighters, options: dict[str, Any], rng: np.random.Generator):
        self.n, self.f, self.o, self.rng = n, f, options, rng
        self.worst = np.zeros((n, 2, 7), dtype=np.int64)
        self.stun = np.zeros((n, 2), dtype=np.int64)
        self.fallen = np.zeros((n, 2), dtype=bool)
        self.stunned = np.zeros((n, 2), dtype=bool)
        self.actions = np.zeros((n, 2), dtype=np.int64)
        self.lost = np.zeros((n, 2), dtype=np.int64)
        self.tie = options["tie_succeeds"]
        self.counts = {"landed": 0, "critical": 0, "flurries": 0, "flurry_actions": 0}
        self.finish = np.zeros((7, 5), dtype=np.int64)
        self.out = np.zeros((n, 2), dtype=bool)
        self.initiative = np.zeros(2, dtype=np.int64)  # rounds each fighter won the initiative

    # derived ------------------------------------------------------------------------------------
    def penalty(self, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
        return PENALTY[self.worst[rows, who]].sum(axis=-1)

    def defeated(self, rows: Any = slice(None), who: Any = slice(None)) -> np.ndarray:
        """Out of the fight (kept up to date as wounds land)."""
        return self.out[rows, who]

    @staticmethod
    def defeated_by(w: np.ndarray) -> np.ndarray:
        """Out of the fight by these worst wounds (rules document §8)."""
        limbs = (w[..., [LA, RA, LL, RL]] >= 3)
        belly = w[..., BELLY] >= 3
        disabled = limbs[..., 0].astype(int) + limbs[..., 1] + (limbs[..., 2] | belly) + (limbs[..., 3] | belly)
        no_arm = (w[..., LA] >= 2) & (w[..., RA] >= 2)
        return ((w >= 4).any(axis=-1) | (w[..., HEAD] >= 3) | (w[..., CHEST] == 3) | belly | (disabled >= 3)
                | no_arm)

    def bad_legs(self, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
        w = self.worst[rows, who]
        belly = w[..., BELLY] >= 3
        return (w[..., LL] >= 2).astype(int) + (w[..., RL] >= 2) + 0 * belly + 2 * belly - \
            (belly & (w[..., LL] >= 2)) - (belly & (w[..., RL] >= 2))

    def can_attack(self, rows: np.ndarray, who: np.ndarray) -> np.ndarray:
        return ~self.defeated(rows, who) & ~self.stunned[rows, who]

    def check(self, rows: np.ndarray, who: np.ndarray, attribute: np.ndarray) -> np.ndarray:
        total = _d(self.rng, len(rows), 3) + attribute + self.penalty(rows, who)
        return total >= 10 if self.tie else total > 10

    def lose_action(self, rows: np.ndarray, who: np.ndarray) -> None:
        self.lost[rows, who] += 1
        self.actions[rows, who] = np.maximum(self.actions[rows, who] - 1, 0)

    # one attack -----------------------------------------------------------------------------------
    def strike(self, rows: np.ndarray, att: np.ndarray, indefensible: bool) -> np.ndarray:
        """Attacks by `att` on the other fighter in `rows`; returns which landed."""
        f, o, rng = self.f, self.o, self.rng
        dfd = 1 - att
        m = len(rows)
        if indefensible:
            tl = np.full(m, o["no_defence_def"])
        else:
            w = self.worst[rows, dfd]
            fr, agl = f.fr[dfd], f.agl[dfd]
            tl = 10 + fr + agl
            tl = np.where(self.fallen[rows, dfd] | (self.bad_legs(rows, dfd) == 2), 5 + fr, tl)
            tl = np.where(self.stunned[rows, dfd], 5 + fr // 2, tl)
            tl = np.where((w[:, HEAD] >= 3) | (w[:, CHEST] >= 3) | (w >= 4).any(axis=1), 3, tl)
            if o["penalties_apply_to_defence"]:
                tl = tl + self.penalty(rows, dfd)
        right = self.worst[rows, att, RA] <= 1
        bonus = f.skill[att] + f.agl[att] + self.penalty(rows, att) + np.where(right, 0, o["off_arm_penalty"])
        total = _d(rng, m, 3) + bonus
        beat = total >= tl if self.tie else total > tl
        general = LOCATION_OF[_d(rng, m, 3)]
        db = f.db[dfd, general]
        clean = beat & ((total >= tl + db) if self.tie else (total > tl + db))
        margin = total - tl - (db if o["critical_margin_includes_armor_bonus"] else 0)
        crit = clean & (margin >= 5)
        landed = clean
        idx = np.nonzero(landed)[0]
        if len(idx) == 0:
            return landed
        r, a, d, g = rows[idx], att[idx], dfd[idx], general[idx]
        k = np.where(crit[idx], margin[idx] // 5, 0)
        self.counts["landed"] += len(idx)
        self.counts["critical"] += int(crit[idx].sum())
        limb = (g == 1) | (g == 4)
        if o["limb_side"] == "random":
            left = rng.integers(1, 3, size=len(idx)) == 1
        else:
            left = np.ones(len(idx), dtype=bool)
        spec = np.select([g == 0, g == 2, g == 3, (g == 1) & left, g == 1, left], [HEAD, CHEST, BELLY, LA, RA, LL],
                         RL)
        spec = np.where(limb, spec, spec)
        count, sides = f.count[a], f.sides[a]
        cmax = int(count.max()) if len(count) else 0
        faces = rng.integers(1, 7, size=(len(idx), max(cmax, 1)))
        faces = np.where(sides[:, None] == 3, (faces - 1) // 2 + 1, faces)  # a d6 read as d3 stays uniform
        impact = np.where(np.arange(max(cmax, 1))[None, :] < count[:, None], faces, 0).sum(axis=1)
        kmax = int(k.max())
        if kmax:
            extra = rng.integers(1, 7, size=(len(idx), kmax))
            impact = impact + np.where(np.arange(kmax)[None, :] < k[:, None], extra, 0).sum(axis=1)
        drop = (k > 0) & f.kd6[a] & (not o["critical_keeps_offset"])
        impact = impact + np.where(drop, 0, f.offset[a])
        is_crit = k > 0
        eff = np.where(is_crit, impact, impact - f.absorb[d, g])
        pen = is_crit | ((eff > 0) & (eff > f.pt[d, g] - f.pv[a]))
        lim = f.limits[d]
        sev = np.select([eff <= 0, eff <= lim[:, 0], eff <= lim[:, 1], eff <= lim[:, 2]], [0, 1, 2, 3], 4)
        hurt = sev > 0
        r, a, d, g, spec, sev = r[hurt], a[hurt], d[hurt], g[hurt], spec[hurt], sev[hurt]
        if len(r):
            was_out = self.out[r, d]
            self.worst[r, d, spec] = np.maximum(self.worst[r, d, spec], sev)
            self.out[r, d] = self.defeated_by(self.worst[r, d])
            self._effects(r, d, g, sev)
            now_out = ~was_out & self.out[r, d]
            np.add.at(self.finish, (spec[now_out], sev[now_out]), 1)
        return landed

    def _effects(self, r: np.ndarray, d: np.ndarray, g: np.ndarray, sev: np.ndarray) -> None:
        f = self.f
        arm, leg = g == 1, g == 4
        vital = (g == 0) | (g == 2) | (g == 3)
        fumble_check = arm & (sev == 1)
        if fumble_check.any():
            rr, dd = r[fumble_check], d[fumble_check]
            failed = ~self.check(rr, dd, f.dex[dd])
            self.lose_action(rr[failed], dd[failed])
        stumble_check = leg & (sev == 1)
        if stumble_check.any():
            rr, dd = r[stumble_check], d[stumble_check]
            failed = ~self.check(rr, dd, f.agl[dd])
            self.fallen[rr[failed], dd[failed]] = True
            self.lose_action(rr[failed], dd[failed])
        stun = vital & (sev == 2)
        if stun.any():
            rr, dd = r[stun], d[stun]
            count, sides, const = _plain_dice(self.o["stun_rounds"])  # type: ignore[misc]
            rounds = np.maximum(_d(self.rng, len(rr), count, sides) + const, 0)
            self.stun[rr, dd] = np.maximum(self.stun[rr, dd], rounds)
            self.stunned[rr, dd] = True
            self.actions[rr, dd] = 0
        fumble = arm & (sev == 2)
        self.lose_action(r[fumble], d[fumble])
        stumble = leg & (sev == 2)
        self.fallen[r[stumble], d[stumble]] = True
        self.lose_action(r[stumble], d[stumble])
        falls = (sev == 3) & (leg | (g == 3) | (g == 0))
        self.fallen[r[falls], d[falls]] = True

    # one round ------------------------------------------------------------------------------------
    def round(self, live: np.ndarray) -> None:
        """One round of every fight in `live` (row indices)."""
        f, o, rng = self.f, self.o, self.rng
        n = len(live)
        both = np.array([0, 1])
        rows2 = live[:, None]
        self.stunned[live] = self.stun[live] > 0
        out = self.defeated(rows2, both[None, :])
        can_act = ~out & ~self.stunned[live]
        bad = self.bad_legs(rows2, both[None, :])
        self.fallen[live] &= ~(can_act & (bad == 0))
        init = _d(rng, 2 * n, 3).reshape(n, 2) + f.fr
        if o["penalties_apply_to_initiative"]:  # moves.initiative: the wound penalty lowers the total
            init = init + self.penalty(rows2, both[None, :])
        a_first_init = init[:, 0] > init[:, 1]
        tied = init[:, 0] == init[:, 1]
        for key in f.tie_keys:
            a_first_init |= tied & (key[0] > key[1])
            tied &= key[0] == key[1]
        coin = rng.integers(1, 7, size=(n, 2))
        while tied.any():
            a_first_init |= tied & (coin[:, 0] > coin[:, 1])
            tied &= coin[:, 0] == coin[:, 1]
            coin = rng.integers(1, 7, size=(n, 2))
        self.initiative += [int(a_first_init.sum()), int(n - a_first_init.sum())]
        engaged = (can_act[:, 0] & ~out[:, 1]) | (can_act[:, 1] & ~out[:, 0])
        rows = live[engaged]
        if len(rows) == 0:
            return self._end(live)
        m = len(rows)
        fi = _d(rng, 2 * m, 3).reshape(m, 2) + f.fr
        if o["flurry_initiative_tie"] == "reroll":
            for _ in range(10):
                same = fi[:, 0] == fi[:, 1]
                if not same.any():
                    break
                fi[same] = _d(rng, 2 * int(same.sum()), 3).reshape(-1, 2) + f.fr
        a_init_first = a_first_init[engaged]
        a_first = (fi[:, 0] > fi[:, 1]) | ((fi[:, 0] == fi[:, 1]) & ((f.fr[0] > f.fr[1]) | (
            (f.fr[0] == f.fr[1]) & a_init_first)))
        ca = self.can_attack(rows[:, None], both[None, :])
        self.actions[rows] = np.where(ca, f.apf[None, :], 0)
        self.lost[rows] = 0
        self.counts["flurries"] += 2 * m
        self.counts["flurry_actions"] += int(self.actions[rows].sum())
        first = np.where(a_first, 0, 1)
        has = self.actions[rows, first] > 0
        att = np.where(has, first, 1 - first)
        active = self.actions[rows, att] > 0
        rows, att = rows[active], att[active]
        for _ in range(200):
            if len(rows) == 0:
                break
            tgt = 1 - att
            gone = self.defeated(rows, tgt)
            keep = ~gone
            rows, att, tgt = rows[keep], att[keep], tgt[keep]
            runout = (self.actions[rows, att] == 0) | ~self.can_attack(rows, att)
            if runout.any():
                rr, aa, tt = rows[runout], att[runout], tgt[runout]
                indef = (self.actions[rr, tt] >= 2) & self.can_attack(rr, tt) & ~self.defeated(rr, aa)
                rr, tt = rr[indef], tt[indef]
                self.actions[rr, tt] -= np.minimum(o["indefensible_attack_cost"], self.actions[rr, tt])
                if len(rr):
                    self.strike(rr, tt, indefensible=True)
            rows, att, tgt = rows[~runout], att[~runout], tgt[~runout]
            if len(rows) == 0:
                break
            self.actions[rows, att] -= 1
            lost_before = self.lost[rows, tgt].copy()
            landed = self.strike(rows, att, indefensible=False)
            done = self.defeated(rows, tgt)
            able = (self.actions[rows, tgt] > 0) & self.can_attack(rows, tgt) & ~self.fallen[rows, tgt]
            rule = o["hit_swap_rule"]
            swap_hit = able if rule == "always" else (able & (self.lost[rows, tgt] == lost_before)) \
                if rule == "defender_if_able" else np.zeros(len(rows), dtype=bool)
            att = np.where(~landed | swap_hit, tgt, att)
            rows, att = rows[~done], att[~done]
        self._end(live)

    def _end(self, live: np.ndarray) -> None:
        started = self.stun[live] > 0
        # the resolver only counts down stuns that were running when the round began
        self.stun[live] = np.where(started & self._stun_at_start(live), self.stun[live] - 1, self.stun[live])

    def _stun_at_start(self, live: np.ndarray) -> np.ndarray:
        return self._start_stun[live] if hasattr(self, "_start_stun") else np.ones((len(live), 2), dtype=bool)


def simulate(state: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` fights of a matchup: the array engine for a plain one-on-one melee duel, else the resolver loop."""
    ruleset = registry.get("war-and-combat")
    if not vectorisable(state):
        return play(ruleset, state, trials, random.Random(int(rng.integers(2**63))))
    o = state.options
    f = Fighters(state)
    duels = Duels(trials, f, o, rng)
    rounds = np.zeros(trials, dtype=np.int64)
    over = np.zeros(trials, dtype=bool)
    cap = o["max_rounds"]
    for _ in range(cap):
        checkpoint()
        live = np.nonzero(~over)[0]
        if len(live) == 0:
            break
        duels._start_stun = duels.stun > 0
        duels.round(live)
        rounds[live] += 1
        standing = ~duels.defeated(live[:, None], np.array([0, 1])[None, :])
        over[live] = standing.sum(axis=1) <= 1
    return _tally(state, duels, rounds, over)


def _status(duels: Duels, who: int, mortal_vital_dying: bool) -> np.ndarray:
    w = duels.worst[:, who]
    out = duels.out[:, who]
    vital = (w[:, [HEAD, CHEST, BELLY]] == 4).any(axis=1)
    mortal = (w == 4).any(axis=1)
    return np.select([vital & mortal_vital_dying, mortal, w[:, HEAD] >= 3, w[:, CHEST] == 3, out],
                     ["dying", "incapacitated", "unconscious", "immobile", "disabled"], "standing")


def _tally(state: Any, duels: Duels, rounds: np.ndarray, over: np.ndarray) -> dict[str, Any]:
    cs = state.combatants
    statuses = [_status(duels, i, state.options["mortal_vital_dying"]) for i in range(2)]
    up = [s == "standing" for s in statuses]
    win_a, win_b = over & up[0] & ~up[1], over & up[1] & ~up[0]
    wins = {cs[0]["side"]: int(win_a.sum()), cs[1]["side"]: int(win_b.sum())}
    n = len(rounds)
    lengths, counts = np.unique(rounds, return_counts=True)
    details: dict[str, float] = {k: v for k, v in duels.counts.items() if v}
    for i, c in enumerate(cs):
        if duels.initiative[i]:
            details[f"initiative:{c['side']}"] = int(duels.initiative[i])
    for spec, sev in zip(*np.nonzero(duels.finish)):
        details[f"finish:{SPECIFIC[spec]}:{SEVERITY_NAMES[sev]}"] = int(duels.finish[spec, sev])
    return {"trials": n, "wins": {k: v for k, v in wins.items() if v}, "draws": int(n - win_a.sum() - win_b.sum()),
            "capped": int((~over).sum()), "rounds": {str(int(k)): int(v) for k, v in zip(lengths, counts)},
            "status": {c["id"]: {str(s): int(v) for s, v in zip(*np.unique(statuses[i], return_counts=True))}
                       for i, c in enumerate(cs)},
            "details": details}
