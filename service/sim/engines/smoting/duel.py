"""The vectorised smoting fight: every quantity of the resolver loop's fight as a numpy array over fights,
any number of fighters on any number of sides. Per-fighter arrays are flat, index n x fight + fighter; a
hand of action dice is a state of `hands`. One round declares each fighter's target (the first enemy
standing, `engine.Duel.declare`) and rolls every hand, then runs the countdown step by step across every
fight whose round is still open: the closing die, the next actor (highest die, most dice, player
character, then option `tie_break` among all the fighters), stun recovery, paying the weapon's speed, and
the attack on the declared target with its defence, damage, soak, stun or rank loss, crossover, injuries,
out of action and kills (the rules of `service.rules.smoting.countdown` and `strikes`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from service.sim.engines.smoting import hands as H
from service.sim.engines.smoting.cover import Figures
from service.sim.engines.smoting.dice import Injuries, Pools, alias, draw

NONE, PARRY, DODGE, BLOCK = range(4)
PHYSICAL, MENTAL = 0, 1


class Duels:
    """`fights` fights of the same fighters, played round by round."""

    def __init__(self, fights: int, f: Figures, options: Mapping[str, Any], rng: np.random.Generator):
        self.f, self.o, self.rng = f, options, rng
        self.pools, self.injuries = Pools(rng, options), Injuries(options)
        self.k = k = len(f.ids)
        n = k * fights
        self.lost = np.tile(f.lost.T, fights)  # [domain] -> per flat index (physical, mental); fighter = index % k
        self.crossover = np.tile(f.crossover.T, fights)
        self.target = np.zeros(n, dtype=np.int64)       # this round's declared target (flat index)
        self.enemy = f.side[:, None] != f.side[None, :]  # (k, k)
        self.two = k == 2  # a duel: each fighter's target is the other one
        self.stunned = np.zeros(n, dtype=bool)
        self.ooa = np.zeros(n, dtype=bool)
        self.kia = np.zeros(n, dtype=bool)
        self.live_defence = np.zeros(n, dtype=np.int64)  # a live defence pool's successes (0: none)
        self.hand = np.zeros(n, dtype=np.int64)          # action dice (a `hands` state)
        self.toward = np.zeros(n, dtype=np.int64)        # discard pool toward the weapon's speed
        self.closing = np.zeros(fights, dtype=np.int64)  # the closing die (0: not called)
        self.counts = {"traumas": 0, "killing_blows": 0, "kills": 0, "actions": 0}
        self.per_fighter = {name: np.zeros(k, dtype=np.int64) for name in ("ranks_lost", "hits", "injuries")}
        self.use_ones = options["use_ones"] == "auto"
        self.one_removes_stun = self.use_ones and options["one_die_stun"] == "remove"
        self.burn_table = H.BURN[options["burn_die"]]
        self.pay_defence = H.LOWEST_USABLE if options["defence_die"] == "lowest_non_one" else H.TOP_USABLE
        self.by_empty_hand = options["closing_trigger"] == "no_dice"
        self.rolls = []
        for count in f.action_dice:
            states, odds = H.rolled(count["rolled"], count["reroll_ones"])
            self.rolls.append((states, *alias(odds[None, :])))
        self.up = np.ones(n, dtype=bool)  # neither out of action nor killed (kept with ooa and kia)
        self.pc = f.pc.astype(np.int64)

    def standing(self) -> np.ndarray:
        """Still fighting, shape (fights, k): neither out of action nor killed."""
        return self.up.reshape(-1, self.k)

    def going(self, rows: np.ndarray) -> np.ndarray:
        """Which of the fights `rows` still have fighters standing on two sides (`engine.Duel.verdict`)."""
        up = self.standing()[rows]
        if self.two:
            return up[:, 0] & up[:, 1]
        return self.sides_up(up).sum(axis=1) >= 2

    def sides_up(self, up: np.ndarray | None = None) -> np.ndarray:
        """(fights, sides): does the side still have a fighter standing."""
        up = self.standing() if up is None else up
        return np.stack([up[:, self.f.side == s].any(axis=1) for s in range(int(self.f.side.max()) + 1)], axis=1)

    def declare(self, rows: np.ndarray) -> None:
        """engine.Duel.declare: each fighter's target is the first enemy standing at the round's start."""
        if self.two:
            self.target[2 * rows], self.target[2 * rows + 1] = 2 * rows + 1, 2 * rows
            return
        up = self.standing()[rows]
        foes = up[:, None, :] & self.enemy[None]
        self.target[(self.k * rows)[:, None] + np.arange(self.k)] = self.k * rows[:, None] + foes.argmax(axis=2)

    # --- a round ----------------------------------------------------------------------------------------

    def round(self, rows: np.ndarray) -> None:
        """One round of the fights `rows` (both fighters standing at its start)."""
        self.closing[rows] = 0
        self.declare(rows)
        for a in range(self.k):
            i = self.k * rows + a
            up = self.up[i]
            i, live = i[up], rows[up]
            self.toward[i] = 0
            states, keep, other = self.rolls[a]
            self.hand[i] = states[draw(self.rng, keep, other, len(states), 0, len(live))]
            if self.f.burn_each_round[a]:
                self.burn(i, np.full(len(live), self.f.burn_each_round[a]))
        while len(rows):
            rows = self.step(rows)

    def step(self, r: np.ndarray) -> np.ndarray:
        """One call of the countdown in each fight `r`; returns the fights whose round goes on. Each fighter's
        place in the countdown is one number, 32 x highest die of 2+ + 2 x dice held + player character
        (-1 when out of the fight): a candidate has 64 or more (seed *The Countdown*)."""
        k = self.k
        rank = H.RANK[self.hand.reshape(-1, k)[r]]
        up = self.up.reshape(-1, k)[r]
        empty = up & ((rank == 0) if self.by_empty_hand else (rank < 16))
        closing = self.closing[r]
        due = (closing == 0) & (empty[:, 0] | empty[:, 1] if self.two else empty.any(axis=1))
        if due.any():
            closing[due] = self.rng.integers(1, 7, size=int(due.sum()))
            self.closing[r] = closing
        place = np.where(up, 2 * rank + self.pc, -1)
        a, best = self._pick(place)
        top = best >> 5
        go = (best >= 64) & ((closing == 0) | (top >= closing))
        r, a, top = r[go], a[go], top[go]
        self.counts["actions"] += len(r)
        self._act(k * r + a, top)
        return r

    def _pick(self, place: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The caller of each fight (the highest place, option `tie_break` among equals) and his place."""
        if self.two:  # the same rule for two fighters, in fewer passes
            p0, p1 = place[:, 0], place[:, 1]
            a = (p1 > p0).astype(np.int64)
            tied = (p0 == p1) & (p0 >= 64)
            if tied.any() and self.o["tie_break"] != "state_order":
                a[tied] = self.rng.integers(0, 2, size=int(tied.sum()))
            return a, np.maximum(p0, p1)
        best = place.max(axis=1)
        a = place.argmax(axis=1)
        tied = (place == best[:, None]).sum(axis=1) > 1
        if tied.any() and self.o["tie_break"] != "state_order":
            among = place[tied] == best[tied, None]
            pick = (self.rng.random(int(tied.sum())) * among.sum(axis=1)).astype(np.int64)
            a[tied] = (np.cumsum(among, axis=1) > pick[:, None]).argmax(axis=1)
        return a, best

    def _act(self, i: np.ndarray, top: np.ndarray) -> None:
        """The actor's call: stun recovery, else an attack paid toward the weapon's speed (seed *Actions*,
        *Action Costs*, *Initiative dice of 1*, *Stun.*)."""
        stunned = self.stunned[i]
        if stunned.any():
            hand = self.hand[i]
            if self.one_removes_stun:
                one = stunned & (H.ONES[hand] > 0)
                self.hand[i[one]] = H.REMOVE_ONE[hand[one]]
                self.stunned[i[one]] = False
                stunned &= ~one
            if self.o["stun_recovery"] == "roll":  # a BODY roll: passed, the stun goes and the die acts
                body = self.f.body[i[stunned] % self.k]
                passed = np.zeros(len(i), dtype=bool)
                passed[stunned] = self.pools.successes(np.maximum(4 + body, 1)) >= 1
                self.stunned[i[passed]] = False
                stunned &= ~passed
            else:
                self.stunned[i[stunned]] = False
            spent = i[stunned]  # the die goes (under "spend" the stun with it)
            self.hand[spent] = H.minus(self.hand[spent], top[stunned])
            i, top = i[~stunned], top[~stunned]
        self.live_defence[i] = 0
        hand = H.minus(self.hand[i], top)
        total = self.toward[i] + top
        speed = self.f.speed[i % self.k]
        if self.use_ones:
            one = (total < speed) & (total + 1 >= speed) & (H.ONES[hand] > 0)
            hand[one] = H.REMOVE_ONE[hand[one]]
            total = total + one
        self.hand[i] = hand
        fire = total >= speed
        self.toward[i] = np.where(fire, 0, total)
        i = i[fire]
        j = self.target[i]
        i = i[~self.kia[j]]  # countdown.attack: a target standing or out of action; the killed are not hit again
        self.strike(i)

    # --- an attack --------------------------------------------------------------------------------------

    def strike(self, i: np.ndarray) -> None:
        """`i` attacks his declared target (seed *Attacks*, *Defences*, *Damage*; strikes.strike)."""
        f, o, k = self.f, self.o, self.k
        j, a = self.target[i], i % k
        b = j % k
        remaining = f.rank[PHYSICAL][a] - self.lost[PHYSICAL][i]
        dice = np.maximum(f.attack[a] - o["negative_rank_penalty"] * np.maximum(0, -remaining), o["min_attack_dice"])
        used = self._defend(i, j, a, b)
        kind = f.defence[b]
        dodge = np.where((kind == DODGE) & (used >= 0), used, 0)
        parry = np.where((kind == PARRY) & (used >= 0), used, 0)
        floor = (dodge > 0) if o["dodge_floor"] == "one" else 0
        net = self.pools.successes(np.maximum(dice - dodge, floor)) - parry
        hit = net >= 1
        j, net, used, a = j[hit], net[hit], used[hit], a[hit]
        b = j % k
        self.per_fighter["hits"] += np.bincount(a, minlength=k)
        down = self.ooa[j]
        if down.any():  # a hit on a fighter already out of action (seed *OoA and KIA*)
            jd = j[down]
            dead = self.pools.successes(np.maximum(4 + f.body[jd % k], 1)) < 1
            self.kia[jd[dead]] = True
            self.up[jd[dead]] = False
            self.counts["kills"] += int(dead.sum())
            keep = ~down
            j, net, used, a = j[keep], net[keep], used[keep], a[keep]
            b = j % k
        pool = f.damage_dice[a] + f.strength[a] + 2 * (net - 1) - f.armor[b]
        blocked = (f.defence[b] == BLOCK) & (used >= 0)
        pool = pool - np.where(blocked, used + f.shield[b], 0)
        damage = self.pools.successes(pool)
        damage = damage - self._soak(j, b, damage)
        self.land(j, b, damage)

    def _defend(self, i: np.ndarray, j: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Defence successes applied (-1: none): a live pool, else a fresh roll paid with a die when one is
        spare (declaration `defend_if: spare`; option `defence_die`) (strikes._defence)."""
        f = self.f
        used = np.full(len(j), -1, dtype=np.int64)
        hand = self.hand[j]
        cannot_reach = H.TOP[hand] + self.toward[j] + (H.ONES[hand] > 0) < f.speed[b]
        can = (f.defence[b] != NONE) & ~self.stunned[j] & self.up[j]
        pool = self.live_defence[j]
        live = can & (pool > 0)
        used[live] = pool[live]
        self.live_defence[j[live]] = pool[live] - 1
        spare = H.SPARE[hand]
        fresh = can & ~live & (spare > 0) & ((spare >= 2) | cannot_reach)
        if fresh.any():
            jf, hf, bf = j[fresh], hand[fresh], b[fresh]
            self.hand[jf] = H.minus(hf, self.pay_defence[hf])
            dice = f.defence_dice[bf] - 2 * ((f.defence[bf] == DODGE) & f.fired[a[fresh]])
            got = self.pools.successes(dice)
            used[fresh] = got
            self.live_defence[jf] = np.where(got > 1, got - 1, 0)
        return used

    def _soak(self, j: np.ndarray, b: np.ndarray, damage: np.ndarray) -> np.ndarray:
        """Heroic soak under the duel's `soak: auto`: with a 1 at hand, or burning a die when the damage
        exceeds T (seed *Soak Rolls*; strikes._soak)."""
        f = self.f
        hand = self.hand[j]
        one = H.ONES[hand] > 0
        soak = ((damage >= 1) & f.heroic[b] & (f.soak[b] > 0) & (H.SIZE[hand] > 0)
                & (one | (damage > f.threshold[b])))
        got = np.zeros(len(j), dtype=np.int64)
        if not soak.any():
            return got
        with_one = soak & one
        self.hand[j[with_one]] = H.REMOVE_ONE[hand[with_one]]
        burned = soak & ~one
        self.hand[j[burned]] = self.burn_table[hand[burned]]
        got[soak] = self.pools.successes(f.soak[b[soak]])
        return np.minimum(got, damage)

    def land(self, j: np.ndarray, b: np.ndarray, damage: np.ndarray) -> None:
        """Final damage against T: stun or defeat, trauma, killing blow, massive (seed *Damage/Defeat*)."""
        t = self.f.threshold[b]
        hurt = damage >= 1
        if self.o["massive_kia"]:
            massive = hurt & (damage > 3 * t)
            self.kia[j[massive]] = True
            self.up[j[massive]] = False
            self.counts["kills"] += int(massive.sum())
            hurt &= ~massive
        j, b, damage, t = j[hurt], b[hurt], damage[hurt], t[hurt]
        if not len(j):
            return
        stun = ~self.stunned[j] if self.o["take_stun"] else np.zeros(len(j), dtype=bool)
        js = j[stun]
        self.stunned[js] = True
        self.live_defence[js] = 0
        self.toward[js] = 0
        self.lose(j[~stun], PHYSICAL, np.ones(int((~stun).sum()), dtype=np.int64))
        trauma = damage > t
        killing = damage > 2 * t
        self.counts["traumas"] += int(trauma.sum())
        self.counts["killing_blows"] += int(killing.sum())
        self.ooa[j[killing]] = True
        self.up[j[killing]] = False
        if trauma.any():
            self.injure(j[trauma], killing[trauma])
        self.check_out(j)

    def injure(self, j: np.ndarray, killing: np.ndarray) -> None:
        """The injury's location and effect, its losses, burns, discard and save (seed *Injury Table*)."""
        inj = self.injuries
        self.per_fighter["injuries"] += np.bincount(j % self.k, minlength=self.k)
        effect = inj.roll(self.rng, killing.astype(np.int64))
        self.lose(j, PHYSICAL, inj.physical[effect])
        self.lose(j, MENTAL, inj.mental[effect])
        self.burn(j, inj.burn[effect])
        gone = inj.discard[effect]
        self.hand[j[gone]] = H.EMPTY
        save = inj.saves[effect] & ~self.ooa[j]
        if save.any():
            js, es = j[save], effect[save]
            level = self.f.levels[js % self.k, inj.save_attribute[es]]
            failed = self.pools.successes(np.maximum(4 + level + inj.save_dice[es], 1)) < 1
            self.ooa[js[failed]] = True
            self.up[js[failed]] = False

    def lose(self, j: np.ndarray, domain: int, count: np.ndarray) -> None:
        """Direct rank losses; every `crossover_every`-th costs a rank of the other domain (seed *CrossOver
        Damage*)."""
        every = self.o["crossover_every"]
        for k in range(int(count.max(initial=0))):
            jj = j[count > k]
            self.lost[domain][jj] += 1
            self.per_fighter["ranks_lost"] += np.bincount(jj % self.k, minlength=self.k)
            crossed = self.crossover[domain][jj] + 1
            over = crossed >= every
            self.crossover[domain][jj] = np.where(over, 0, crossed)
            self.lost[1 - domain][jj[over]] += 1

    def burn(self, j: np.ndarray, count: np.ndarray) -> None:
        """Burn action dice: a non-1 die (option `burn_die`) becomes a 1, else a 1 is discarded (seed *Burn 1
        Action Dice*)."""
        for k in range(int(count.max(initial=0))):
            jj = j[count > k]
            self.hand[jj] = self.burn_table[self.hand[jj]]

    def check_out(self, j: np.ndarray) -> None:
        """Out of action at 0 remaining ranks (-3 heroic), physical or either domain (option `ooa_domain`)."""
        f, b = self.f, j % self.k
        floor = np.where(f.heroic[b], -3, 0)
        out = f.rank[PHYSICAL][b] - self.lost[PHYSICAL][j] <= floor
        if self.o["ooa_domain"] == "either":
            out |= f.rank[MENTAL][b] - self.lost[MENTAL][j] <= floor
        self.ooa[j[out & ~self.kia[j]]] = True
        self.up[j[out]] = False
