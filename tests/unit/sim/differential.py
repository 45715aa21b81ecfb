"""The engine against the resolver: the same matchups played both ways, compared statistic by statistic.

The resolver side is the tactical `DuelRules` played through the Combat Segment resolver one fight at a
time (`service.sim.rounds.play`, what a client would get from `segments/resolve`); the engine side is the
numpy engine. Each statistic is compared with a two-proportion z (win, draw and status shares, hits per
attack, Reprisal hit rate, Heroic share) or Welch's t (mean segments); |z| > 4 fails.
"""
from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass

import numpy as np

from service.rules.tactical import RULESET
from service.sim import chunks, rounds
from service.sim.matchup import parse
from service.sim.state import STATUSES

LIMIT = 4.0
PAD = [{"type": "padded", "dr": 10}]
MAIL = [{"type": "doublemail", "dr": 20, "durability": 40}, {"type": "padded", "dr": 10}]


def fighter(name: str, av: int = 55, parry: int = 35, dodge: int = 20, armor: list | None = None,
            **more) -> dict:
    """A combatant in the encounter format; `more` sets attributes (upper case) or combatant fields."""
    attributes = {"STR": 13, "mSTA": 12, "CND": 12, "AGL": 12, "HRT": 11, "P-RES": 11}
    attributes.update({k: v for k, v in more.items() if k.isupper() or k == "mSTA"})
    out = {"id": name, "attributes": attributes, "mods": {"AWA": 1, "HRT": 0}, "dodge_dv": dodge,
           "armor": copy.deepcopy(armor or []),
           "weapons": [{"name": "sword", "av": av, "parry": parry, "size": 6, "weight_class": 2}]}
    out.update({k: v for k, v in more.items() if not (k.isupper() or k == "mSTA")})
    return out


def matchup(*sides: list[dict], **options) -> dict:
    """Sides named by their first combatant's id."""
    body = {"sides": [{"name": f"side-{c[0]['id']}", "combatants": c} for c in sides]}
    return {**body, "options": options} if options else body


DAGGER = {"name": "main-gauche", "av": 20, "parry": 50, "size": 2, "weight_class": 0}
MATCHUPS = {
    # Parry 40 halves to 20 against a Reprisal: the Dodge 30 is then the better defence.
    "equal": matchup([fighter("a", 55, 40, 30, PAD)], [fighter("b", 55, 40, 30, PAD)]),
    "armored-vs-unarmored": matchup([fighter("knight", 60, 40, 20, MAIL, STR=16, mSTA=14)],
                                    [fighter("brute", 65, 30, 25, None, STR=17, mSTA=15)]),
    "one-vs-three": matchup([fighter("knight", 70, 45, 20, MAIL, STR=16, mSTA=14, CND=15, HRT=14)],
                            [fighter(f"bandit-{i}", 45, 25, 15, PAD) for i in range(3)]),
    "one-vs-three-random": matchup([fighter("knight", 70, 45, 20, MAIL, STR=16, mSTA=14, CND=15)],
                                   [fighter(f"bandit-{i}", 45, 25, 15, PAD) for i in range(3)],
                                   targeting="random"),
    "stunned-start": matchup([fighter("hurt", 55, 40, 20, PAD, pain={"initial": 21, "age": 1}, wounds=4)],
                             [fighter("fresh", 50, 35, 25, PAD)]),
    # One blow kills, so whoever acts first wins: a tie on Initiative (1 in 10) goes to "abe" by id.
    "ids-reversed": matchup([fighter("zed", 200, 1, 1, STR=40, mSTA=40)],
                            [fighter("abe", 200, 1, 1, STR=40, mSTA=40)], reprisals=False),
    "multiple-actions": matchup([fighter("quick", 50, 40, 25, PAD, actions=2)],
                                [fighter("strong", 60, 30, 20, PAD, STR=16)]),
    "two-weapons": matchup([dict(fighter("pair", 55, 40, 25, PAD), weapons=[
        {"name": "sword", "av": 55, "parry": 40, "size": 6, "weight_class": 2}, DAGGER])],
        [fighter("single", 55, 45, 30, PAD)], method="linear"),
}


@dataclass
class Sample:
    """What one side of the comparison measured, in the same shape for both."""

    fights: int
    wins: dict[str, int]
    draws: int
    lengths: np.ndarray  # fights ending after k segments, index k
    status: dict[str, np.ndarray]  # combatant -> counts of standing/unconscious/collapsed/dead
    events: dict[str, int]


def resolver_sample(body: dict, fights: int, seed: int) -> Sample:
    """`fights` fights through the Combat Segment resolver under the duel policy."""
    parsed = RULESET.duel.read_matchup(body)
    tally = rounds.play(RULESET, parsed, fights, random.Random(seed))
    cap = RULESET.duel.max_steps(parsed)
    lengths = np.zeros(cap + 1, np.int64)
    for k, n in tally["rounds"].items():
        lengths[int(k)] += n
    status = {who: np.array([counts.get(s, 0) for s in STATUSES]) for who, counts in tally["status"].items()}
    return Sample(fights, dict(tally["wins"]), tally["draws"], lengths, status,
                  {k: int(v) for k, v in tally["details"].items()})


def engine_sample(body: dict, fights: int, seed: int) -> Sample:
    """`fights` fights of the numpy engine."""
    m = parse(body)
    tally = chunks.run(m, fights, seed)
    from service.sim.tally import EVENTS

    return Sample(fights, {side: int(w) for side, w in zip(m.sides, tally.wins)}, int(tally.draws),
                  tally.segments.copy(), {name: tally.status[i].copy() for i, name in enumerate(m.names)},
                  {name: int(v) for name, v in zip(EVENTS, tally.events)})


def proportion_z(k1: float, n1: float, k2: float, n2: float) -> float:
    """Two-proportion z (unpooled; a floor on the variance so that 0 vs 0 is not a division by zero)."""
    if not n1 or not n2:
        return 0.0
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    var = max(p1 * (1 - p1), pooled * (1 - pooled) / 2) / n1 + max(p2 * (1 - p2), pooled * (1 - pooled) / 2) / n2
    return 0.0 if var == 0 else (p1 - p2) / math.sqrt(var)


def welch_z(h1: np.ndarray, h2: np.ndarray) -> tuple[float, float, float]:
    """Welch's statistic for the mean of two histograms (count of fights by length); and both means."""
    def moments(h: np.ndarray) -> tuple[float, float, float]:
        k = np.arange(len(h))
        n = h.sum()
        mean = (k * h).sum() / n
        return mean, ((k - mean) ** 2 * h).sum() / max(n - 1, 1), n
    m1, v1, n1 = moments(h1)
    m2, v2, n2 = moments(h2)
    se = math.sqrt(v1 / n1 + v2 / n2)
    return (0.0 if se == 0 else (m1 - m2) / se), m1, m2


def compare(a: Sample, b: Sample) -> dict[str, tuple[float, float, float]]:
    """Every statistic: name -> (z, value in a, value in b)."""
    out = {}
    for side in sorted(set(a.wins) | set(b.wins)):
        out[f"win:{side}"] = _prop(a.wins.get(side, 0), a.fights, b.wins.get(side, 0), b.fights)
    out["draw"] = _prop(a.draws, a.fights, b.draws, b.fights)
    out["mean segments"] = welch_z(a.lengths, b.lengths)
    out["hits per attack"] = _prop(a.events["hits"], a.events["attacks"], b.events["hits"], b.events["attacks"])
    out["heroic share"] = _prop(a.events["heroics"], a.events["attacks"], b.events["heroics"], b.events["attacks"])
    out["reprisal hit rate"] = _prop(a.events["reprisal_hits"], a.events["reprisals"],
                                     b.events["reprisal_hits"], b.events["reprisals"])
    out["reprisals per attack"] = _prop(a.events["reprisals"], a.events["attacks"],
                                        b.events["reprisals"], b.events["attacks"])
    for who in a.status:
        for i, name in enumerate(STATUSES):
            out[f"{who}:{name}"] = _prop(a.status[who][i], a.fights, b.status[who][i], b.fights)
    return out


def _prop(k1: float, n1: float, k2: float, n2: float) -> tuple[float, float, float]:
    return proportion_z(k1, n1, k2, n2), (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)


def failures(stats: dict[str, tuple[float, float, float]], limit: float = LIMIT) -> list[str]:
    """The statistics beyond |z| = limit, readable."""
    return [f"{name}: z={z:+.1f} (resolver {x:.4f}, engine {y:.4f})"
            for name, (z, x, y) in stats.items() if abs(z) > limit]


def run(name: str, resolver_fights: int, engine_fights: int, seed: int = 2026) -> dict:
    """Compare one matchup; the statistics (name -> (z, resolver value, engine value))."""
    body = MATCHUPS[name]
    return compare(resolver_sample(body, resolver_fights, seed), engine_sample(body, engine_fights, seed + 1))
