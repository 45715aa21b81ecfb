"""The simulator's rules one fight at a time in plain Python, with the exact rules helpers.

An independent statement of what `engine` does with arrays: tests check the two agree within
sampling error, and the benchmark measures how much the arrays gain over a Python loop.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from service.rules.rounding import halve_times, progressive, round_half_up
from service.sim.matchup import Matchup
from service.sim.state import COLLAPSED, DEAD, STANDING, UNCONSCIOUS


def chance(av: int, dv: int, method: str) -> int:
    """Task Resolution Table (RULINGS 4)."""
    if method == "linear":
        return min(99, max(1, 50 + av - dv))
    if av <= 0:
        return 1
    if dv <= 0:
        return 99
    return min(99, max(1, round_half_up(Fraction(100 * av, av + dv))))


@dataclass
class Person:
    """One combatant's changing state in one fight."""

    n: int
    wounds: int
    status: int
    pain0: int
    durability: list[int]
    age: int = 0
    uses: list[int] = field(default_factory=list)
    dodges: int = 0

    def pain(self) -> int:
        return halve_times(self.pain0, self.age)


def fight(m: Matchup, rng: random.Random) -> tuple[int, int]:
    """One fight: (winning side or -1 for a draw, segments played)."""
    a, o = m.arrays, m.options
    people = [Person(n, int(a["wounds"][n]), DEAD if a["wounds"][n] >= 11 else STANDING, int(a["pain"][n]),
                     [int(x) for x in a["a_dur"][n]], uses=[0] * a["w_av"].shape[1]) for n in range(m.size)]
    for segment in range(1, o.max_segments + 1):
        order = _roster(m, people, rng)
        for action in range(int(a["actions"].max())):
            for p in order:
                if p.status == STANDING and a["actions"][p.n] > action:
                    _act(m, people, rng, p.n)
        for p in people:
            p.age, p.uses, p.dodges = p.age + 1, [0] * len(p.uses), 0
        up = {int(m.side[p.n]) for p in people if p.status == STANDING}
        if len(up) <= 1:
            return (up.pop() if up else -1), segment
    return -1, o.max_segments


def _roster(m: Matchup, people: list[Person], rng: random.Random) -> list[Person]:
    """Initiative order (RULINGS 17) of those who can act this segment."""
    a = m.arrays
    rolls = [rng.randint(1, 10) for _ in people]
    able = [p for p in people if p.status == STANDING and a["actions"][p.n] > 0]
    key = lambda p: (int(a["actions"][p.n]), rolls[p.n] + int(a["init_mod"][p.n]) - p.pain(),  # noqa: E731
                     int(a["agl"][p.n]), int(a["hrt"][p.n]), -p.n)
    return sorted(able, key=key, reverse=True)


def _act(m: Matchup, people: list[Person], rng: random.Random, n: int) -> None:
    foes = [p for p in people if p.status == STANDING and m.side[p.n] != m.side[n]]
    if not foes:
        return
    d = rng.choice(foes).n if m.options.targeting == "random" else foes[0].n
    if not _strike(m, people, rng, n, d, False) and m.options.reprisals and people[d].status == STANDING:
        _strike(m, people, rng, d, n, True)


def _strike(m: Matchup, people: list[Person], rng: random.Random, n: int, d: int, reprisal: bool) -> bool:
    a, o, att, dfn = m.arrays, m.options, people[n], people[d]
    av = halve_times(int(a["w_av"][n, 0]), att.uses[0]) - att.pain()
    att.uses[0] += 1
    parries = [halve_times(int(a["w_parry"][d, w]), dfn.uses[w]) for w in range(len(dfn.uses))]
    if reprisal:
        parries[0] = halve_times(int(a["w_parry"][d, 0]), dfn.uses[0] + 1)
    dodge = halve_times(int(a["dodge_dv"][d]), max(0, dfn.dodges + 1 - int(a["free_dodges"][d])))
    options = parries + [dodge]
    pick = options.index(max(options))
    if pick == len(parries):
        dfn.dodges += 1
    elif options[pick] > 0 and not (reprisal and pick == 0):
        dfn.uses[pick] += 1
    pct = chance(av, options[pick], o.method)
    roll = rng.randint(1, 100)
    if roll > pct:
        return False
    quarters = 1 if att.wounds >= 7 else 2 if att.wounds >= 4 else 4
    share = Fraction(int(a["w_pot_num"][n, 0]), int(a["w_pot_den"][n, 0]))
    pot = round_half_up((int(a["msta"][n]) + Fraction(quarters * int(a["strength"][n]), 4)) * share)
    pot += int(a["w_db"][n, 0])
    if o.heroic and roll <= round_half_up(Fraction(pct, 10)):
        pot *= 2
    _land(m, people, rng, n, d, pot)
    return True


def _land(m: Matchup, people: list[Person], rng: random.Random, n: int, d: int, pot: int) -> None:
    a, o, dfn = m.arrays, m.options, people[d]
    met = [max(0, min(int(dr), dur)) for dr, dur in zip(a["a_dr"][d], dfn.durability)]
    left = max(0, pot - sum(met))
    worn = [i for i, x in enumerate(met) if x > 0]
    if o.armor_wear and worn:
        dfn.durability[worn[0]] = max(0, dfn.durability[worn[0]] - int(a["w_db"][n, 0]))
    wt = Fraction(int(a["msta"][d]) + int(a["cnd"][d]), 8)
    wounds = sum(1 for k in range(1, 100) if left > k * wt)
    if a["w_edged"][n, 0] and sum(met) == 0 and left > 0:
        wounds = max(wounds, 1)
    excess = left - int(a["pres"][d])
    if excess > 0:
        dv = progressive(excess, o.progression)
        if rng.randint(1, 100) > chance(int(a["pres"][d]), dv, o.method):
            dfn.status = max(dfn.status, UNCONSCIOUS)
        steady = rng.randint(1, 100) <= chance(int(a["hrt"][d]), dv, o.method)
        penalty = round_half_up(Fraction(dv, 2)) if steady else dv
        if penalty > dfn.pain():
            dfn.pain0, dfn.age = penalty, 0
    before, dfn.wounds = dfn.wounds, min(11, dfn.wounds + wounds)
    survives = rng.randint(1, 100) <= chance(int(a["pres"][d]), 55, o.method)
    if before + wounds >= 11:
        dfn.status = DEAD
    elif before < 10 <= before + wounds:
        dfn.status = max(dfn.status, COLLAPSED if survives else DEAD)
