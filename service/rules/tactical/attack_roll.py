"""One attack from AV and DV (or a ranged shot) to a chance, outcome odds and optionally a d100 roll.

"Resolving the Battle" and "Resolving Ranged Attacks" put together: RULINGS 4-9 and the Referee
rulings on the order of adjustments (docs/RULINGS.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from fractions import Fraction
from typing import Any, Mapping

from service.rules import dice
from service.rules.errors import Contradiction
from service.rules.tactical import ranged as rng_rules
from service.rules.tactical import to_hit
from service.rules.tactical.task_resolution import chance as trt_chance
from service.rules.tactical.thrown import ThrownObject
from service.rules.trace import Step


@dataclass(frozen=True, slots=True)
class Shot:
    """A ranged attack's particulars (RULINGS 8, 9): weapon, distance, STR, elevation, target, thrown object."""

    weapon: str
    distance: Fraction
    strength: int = 13
    elevation: Fraction = Fraction(0)
    target: rng_rules.Target = field(default_factory=rng_rules.Target)
    thrown: ThrownObject | None = None


@dataclass(frozen=True)
class Attack:
    """Everything one to-hit needs: AV, a melee DV or a ranged shot, table choice, situation and options."""

    av: int
    dv: int | None = None
    shot: Shot | None = None
    method: str = "ratio"
    table: Mapping[str, Any] | None = None
    adjustments: to_hit.Adjustments = field(default_factory=to_hit.Adjustments)
    heroic: bool = True
    bumble: bool = True


@dataclass(frozen=True)
class Resolution:
    """The answer: AV and DV as used, the chance, Heroic/Bumble edges, exact odds, range and any roll."""

    av: int
    dv: int
    chance: int
    heroic_max_roll: int
    bumble_min_roll: int
    outcomes: to_hit.Outcomes
    range: rng_rules.RangeResult | None
    roll: dice.Roll | None
    outcome: str | None
    seed: int | None
    steps: tuple[Step, ...]


def resolve(attack: Attack, face: int | None = None, seed: int | None = None) -> Resolution:
    """"Resolving the Battle": the chance of AV against DV, its outcome odds, and a d100 when asked for."""
    odds = _odds_cached(attack) if attack.table is None else _odds(attack)
    roll, result, seed = _roll(odds.chance, attack, face, seed)
    if roll is None:
        return odds
    step = Step("RULINGS 1", f"d100 rolled {roll.total}: {result}", roll.total)
    return replace(odds, roll=roll, outcome=result, seed=seed, steps=odds.steps + (step,))


def _odds(attack: Attack) -> Resolution:
    _check_one_defence(attack)
    av, steps = to_hit.adjusted_av(attack.av, attack.adjustments)
    dv, reading, dv_steps = _defence(attack)
    steps += dv_steps
    pct = trt_chance(av, dv, attack.method, attack.table)
    steps.append(Step("RULINGS 4", f"Task Resolution ({attack.method}) of AV {av} against DV {dv}", pct))
    top = to_hit.heroic_max_roll(pct, attack.heroic)
    low = to_hit.bumble_min_roll(pct, attack.bumble)
    steps.append(Step("RULINGS 6", f"Heroic on 1..{top}, Bumble on {low}..100 (none when 0 / 101)", top))
    odds = to_hit.outcomes(pct, attack.heroic, attack.bumble)
    return Resolution(av, dv, pct, top, low, odds, reading, None, None, None, tuple(steps))


# Callers ask the same few hundred questions over and over (a VTT's party against its foes); the answer
# without a roll depends on nothing else, so it is worked out once. Caller tables are not hashable.
_odds_cached = lru_cache(maxsize=4096)(_odds)


def _check_one_defence(attack: Attack) -> None:
    if attack.dv is not None and attack.shot is not None:
        raise Contradiction("give either `dv` (melee) or `ranged`, not both", ("ranged",))
    if attack.dv is None and attack.shot is None:
        raise Contradiction("give either `dv` (melee) or `ranged`", ("dv",))


def _defence(attack: Attack) -> tuple[int, rng_rules.RangeResult | None, list[Step]]:
    adj = attack.adjustments
    if attack.shot is None:
        assert attack.dv is not None
        own, steps = to_hit.defence_value(attack.dv, adj)
        dv, more = to_hit.penalised_dv(own, adj)
        return dv, None, steps + more
    shot = attack.shot
    reading = rng_rules.range_of(shot.weapon, shot.distance, shot.strength, shot.elevation, shot.thrown,
                                 ("ranged",))
    steps = list(reading.steps)
    own = shot.target.own_defence
    if own is not None:
        own, reuse = to_hit.defence_value(own, adj)
        steps += reuse
    base, ranged_steps = rng_rules.ranged_dv(shot.target, reading.dv_modifier, own)
    dv, more = to_hit.penalised_dv(base, adj)
    return dv, reading, steps + ranged_steps + more


def _roll(pct: int, attack: Attack, face: int | None, seed: int | None
          ) -> tuple[dice.Roll | None, str | None, int | None]:
    if face is None and seed is None:
        return None, None, None
    if face is not None:
        roll = dice.d100(face=face)
    else:
        generator, seed = dice.seeded(seed)
        roll = dice.d100(generator)
    return roll, to_hit.outcome(roll.total, pct, attack.heroic, attack.bumble), seed
