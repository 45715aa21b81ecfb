"""Chance to hit: the attack pool against dodge, parry or a live defence pool (seed *Attacks*,
*Defences*, *Maintaining a Defence Pool*, *Cover*, *Running*, *Flying*, *Initiative dice of 1*;
smoting.md section 4).

An attack resolves as a mixture of components (weight, dice rolled, successes a parry takes off): a
dodge changes how many dice are rolled, a parry how many successes are lost. Specials that a dodge
earns outright (more dodge successes than attack dice) are kept apart as `dodged`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from service.rules.errors import Contradiction, RulesError
from service.rules.smoting import pools, tables
from service.rules.trace import Step

MISSILES = ("thrown", "fired")


@dataclass(frozen=True)
class Defence:
    """A declared defence: `kind` none/dodge/parry, a fresh roll of `dice` or a live pool of `pool`."""

    kind: str = "none"
    dice: int | None = None
    pool: int | None = None
    running: bool = False


@dataclass(frozen=True)
class AttackPool:
    """The attack pool after every non-dodge modifier and the floor, and whether its 6s re-roll."""

    dice: int
    explode: bool
    trace: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Mixture:
    """The attack as components (weight, dice rolled, parry successes subtracted) plus outright
    defender specials; `exact` is false when a fresh parry's unbounded sum was truncated."""

    components: list[tuple[Fraction, int, int, bool]]  # weight, dice, parry offset, a miss is specials
    dodged_specials: Fraction
    dodged_miss: Fraction
    exact: bool
    success_min: int
    explode: bool
    defence_dice: int | None = None
    trace: list[Step] = field(default_factory=list)


def attack_pool(body: Mapping[str, Any], options: Mapping[str, Any]) -> AttackPool:
    """Attack dice after cover, running or flying targets, range, advantage, pressure and effort, then the
    `min_attack_dice` floor (seed *Attacks*, *Cover*, *Running*, *Flying*; smoting.md section 4)."""
    kind, zones = body.get("attack_type", "melee"), body.get("range_zones", 0)
    _check_range(kind, zones, options)
    cover, rerolls = tables.cover_dice()[body.get("cover", "none")]
    missile = kind in MISSILES
    parts = [("Attacks", "attack Xposure dice", body["attack_dice"]),
             ("Modifiers ToHit", "other modifiers", body.get("modifiers", 0)),
             ("Cover", f"{body.get('cover', 'none')} cover", -cover),
             ("Running", "running target vs a missile", -int(missile and body.get("target_running", False))),
             ("Flying", "flying target's speed vs a missile", -(body.get("target_flying_speed", 0) if missile else 0)),
             ("Range Modifiers ToHit", "range zones", -options["range_penalty_per_zone"] * zones),
             ("Modifiers ToHit", "advantage", options["advantage_dice"] * bool(body.get("advantage", False))),
             ("Initiative dice of 1", "pressure", -body.get("pressure", 0)),
             ("Initiative dice of 1", "effort", body.get("effort", 0))]
    steps = [Step(rule, detail, value) for rule, detail, value in parts if value]
    dice = max(sum(value for _, _, value in parts), options["min_attack_dice"])
    steps.append(Step("Attacks", "attack dice rolled before any dodge (floor min_attack_dice)", dice))
    return AttackPool(dice, options["explode"] and rerolls, tuple(steps))


def _check_range(kind: str, zones: int, options: Mapping[str, Any]) -> None:
    limit = {"melee": 0, "thrown": options["thrown_max_zones"], "fired": options["fired_max_zones"]}.get(kind)
    if limit is not None and zones > limit:
        raise Contradiction(f"a {kind} attack reaches at most {limit} zone(s)", ("range_zones",))


def defence_dice(defence: Defence, attack_type: str) -> int:
    """A fresh defence roll's dice: fired missiles cost a dodge 2 dice, a running defender 1 (seed
    *Defences*, *Running*)."""
    dice = (defence.dice or 0) - 2 * (defence.kind == "dodge" and attack_type == "fired") - int(defence.running)
    return max(dice, 0)


def mixture(attack: AttackPool, defence: Defence, attack_type: str, options: Mapping[str, Any]) -> Mixture:
    """The attack against its defence, as weighted components (smoting.md section 4, exact sums)."""
    s, n, boom = options["success_min"], attack.dice, attack.explode
    if defence.kind == "none":
        return Mixture([(Fraction(1), n, 0, False)], Fraction(0), Fraction(0), True, s, boom)
    fresh = defence.pool is None
    dice = defence_dice(defence, attack_type) if fresh else None
    outcomes = pools.support(dice, s, options["explode"]) if fresh else [(defence.pool, Fraction(1))]
    if defence.kind == "parry":
        exact = not fresh or not options["explode"] or dice == 0
        return Mixture([(w, n, r, False) for r, w in outcomes], Fraction(0), Fraction(0), exact, s, boom, dice)
    if fresh and options["explode"]:
        below = [(r, w) for r, w in outcomes if r < n]
        equal = pools.exactly(dice, n, s, True)
        above = 1 - sum((w for _, w in below), Fraction(0)) - equal
        outcomes = [*below, (n, equal), (n + 1, above)]  # every r > n behaves alike
    return _dodge(outcomes, n, s, boom, options["dodge_floor"] == "one", dice)


def _dodge(outcomes: list[tuple[int, Fraction]], n: int, s: int, boom: bool, floor: bool,
           dice: int | None) -> Mixture:
    parts, specials, missed = [], Fraction(0), Fraction(0)
    for r, w in outcomes:
        if r < n:
            parts.append((w, n - r, 0, False))
        elif floor:
            parts.append((w, 1, 0, r > n))  # the kept die rolls; surplus dodge successes make a miss specials
        elif r > n:
            specials += w
        else:
            missed += w
    return Mixture(parts, specials, missed, True, s, boom, dice)
