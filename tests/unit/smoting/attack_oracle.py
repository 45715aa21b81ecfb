"""The /attack odds as first written (enumerating every extra-success count, every block result and every
soak result with `Fraction` sums), kept as the test oracle of `service.rules.smoting.attack_odds`.

Self-contained on purpose: it carries its own pool probabilities, so a change to `pools` cannot move the
oracle along with the code under test. Its pool sums are remembered, or the grid of tests would take minutes."""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any, Mapping

from service.rules.smoting import calculators as calc
from service.rules.smoting import damage as dmg
from service.rules.smoting import to_hit

TAIL = Fraction(1, 10**15)
SIX = Fraction(1, 6)


@cache
def exactly(n: int, k: int, success_min: int = 5, explode: bool = True) -> Fraction:
    if n <= 0:
        return Fraction(int(k == 0))
    if k < 0:
        return Fraction(0)
    if not explode:
        p = Fraction(7 - success_min, 6)
        return comb(n, k) * p**k * (1 - p) ** (n - k) if k <= n else Fraction(0)
    final = Fraction(6 - success_min, 5)
    total = Fraction(0)
    for b in range(0, min(n, k) + 1):
        j = k - b
        sixes = comb(j + n - 1, j) * SIX**j * Fraction(5, 6) ** n
        total += comb(n, b) * final**b * (1 - final) ** (n - b) * sixes
    return total


@cache
def at_least(n: int, k: int, s: int, explode: bool) -> Fraction:
    if k <= 0:
        return Fraction(1)
    return at_least(n, k - 1, s, explode) - exactly(n, k - 1, s, explode)  # the first sum, one term at a time


def support(n: int, s: int, explode: bool) -> list[tuple[int, Fraction]]:
    out, left, k = [], Fraction(1), 0
    while left > (0 if not explode or n <= 0 else TAIL):
        p = exactly(n, k, s, explode)
        out.append((k, p))
        left -= p
        k += 1
        if not explode and k > max(n, 0):
            break
    return out


def mixture(attack: to_hit.AttackPool, defence: to_hit.Defence, attack_type: str,
            options: Mapping[str, Any]) -> to_hit.Mixture:
    s, n, boom = options["success_min"], attack.dice, attack.explode
    if defence.kind == "none":
        return to_hit.Mixture([(Fraction(1), n, 0, False)], Fraction(0), Fraction(0), True, s, boom)
    fresh = defence.pool is None
    dice = to_hit.defence_dice(defence, attack_type) if fresh else None
    outcomes = support(dice, s, options["explode"]) if fresh else [(defence.pool, Fraction(1))]
    if defence.kind == "parry":
        exact = not fresh or not options["explode"] or dice == 0
        return to_hit.Mixture([(w, n, r, False) for r, w in outcomes], Fraction(0), Fraction(0), exact, s, boom, dice)
    if fresh and options["explode"]:
        below = [(r, w) for r, w in outcomes if r < n]
        equal = exactly(dice, n, s, True)
        above = 1 - sum((w for _, w in below), Fraction(0)) - equal
        outcomes = [*below, (n, equal), (n + 1, above)]
    return to_hit._dodge(outcomes, n, s, boom, options["dodge_floor"] == "one", dice)


def outcome_odds(mix: to_hit.Mixture) -> dict[str, Fraction]:
    hit, miss, specials = Fraction(0), mix.dodged_miss, mix.dodged_specials
    s, boom = mix.success_min, mix.explode
    for w, m, q, surplus in mix.components:
        hit += w * at_least(m, q + 1, s, boom)
        level = w * exactly(m, q, s, boom)
        if surplus:
            specials += level
        else:
            miss += level
    return {"defender_specials": 1 - hit - miss, "miss": miss, "hit": hit}


def extra_odds(mix: to_hit.Mixture, k: int) -> Fraction:
    return sum((w * exactly(m, q + 1 + k, mix.success_min, mix.explode) for w, m, q, _ in mix.components),
               Fraction(0))


def extra_support(mix: to_hit.Mixture) -> tuple[list[tuple[int, Fraction]], bool]:
    hit = outcome_odds(mix)["hit"]
    out, left, k = [], hit, 0
    bounded = not mix.explode
    while left > (0 if bounded else TAIL) and k < 200:
        p = extra_odds(mix, k)
        out.append((k, p))
        left -= p
        k += 1
        if bounded and left == 0:
            break
    return out, bounded and mix.exact


def pool_mixture(base: int, block: dmg.Block | None, options: Mapping[str, Any]) -> list[tuple[Fraction, int]]:
    if block is None:
        return [(Fraction(1), max(base, 0))]
    room = base - block.factor
    if block.pool is not None:
        return [(Fraction(1), max(room - block.pool, 0))]
    s, boom = options["success_min"], options["explode"]
    parts = [(exactly(block.dice or 0, r, s, boom), room - r) for r in range(max(room, 0))]
    rest = 1 - sum((w for w, _ in parts), Fraction(0))
    return [*parts, (rest, 0)]


def cdf(mix: list[tuple[Fraction, int]], x: int, options: Mapping[str, Any]) -> Fraction:
    if x < 0:
        return Fraction(0)
    s, boom = options["success_min"], options["explode"]
    return sum((w * (1 - at_least(m, x + 1, s, boom)) for w, m in mix if w), Fraction(0))


def final_cdf(mix: list[tuple[Fraction, int]], soak_dice: int, options: Mapping[str, Any]):
    if soak_dice <= 0:
        return lambda x: cdf(mix, x, options)
    soak = support(soak_dice, options["success_min"], options["explode"])
    return lambda x: Fraction(0) if x < 0 else sum((w * cdf(mix, x + r, options) for r, w in soak), Fraction(0))


def band_odds(body: Mapping[str, Any], o: Mapping[str, Any], extra: int) -> tuple[dict[str, Fraction], bool]:
    target = calc._target(body)
    base, block = calc.damage_pool(body, extra)
    soak = target["soak_dice"] if body.get("soak") and not body.get("surprised") else 0
    at_most = final_cdf(pool_mixture(base, block, o), soak, o)
    threshold = target["rank"] + target["bonus_ranks"]
    return dmg.bands(at_most, threshold, body.get("domain", "physical"), o), not (soak and o["explode"])


def attack_odds(body: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Fraction, dict[str, Fraction], bool, bool]:
    """(P(hit), the exclusive outcome odds, whether they are exact, whether P(hit) is exact), as `_attack`
    answered before the convolution rewrite."""
    attack = to_hit.attack_pool(body, o)
    defence = calc.defence_of(body)
    mix = mixture(attack, defence, body.get("attack_type", "melee"), o)
    outcomes = outcome_odds(mix)
    extras, bounded = extra_support(mix)
    probs = {"defender_specials": outcomes["defender_specials"], "miss": outcomes["miss"]}
    exact = bounded
    for k, weight in extras:
        bands, band_exact = band_odds(body, o, k)
        exact = exact and band_exact
        for name, p in bands.items():
            probs[name] = probs.get(name, Fraction(0)) + weight * p
    if not bounded:
        heaviest = "crushed" if body.get("domain") == "mental" else "massive" if o["massive_kia"] else "killing_blow"
        probs[heaviest] = probs.get(heaviest, Fraction(0)) + 1 - sum(probs.values(), Fraction(0))
    for name in (dmg.MENTAL_BANDS if body.get("domain") == "mental" else dmg.PHYSICAL_BANDS):
        probs.setdefault(name, Fraction(0))
    return outcomes["hit"], probs, exact, mix.exact


def hit_extras(body: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The /to-hit outcome odds and extra-success odds (keys "0" .. 2 x attack dice, "more"), as first written."""
    attack = to_hit.attack_pool(body, o)
    mix = mixture(attack, calc.defence_of(body), body.get("attack_type", "melee"), o)
    out = {str(k): extra_odds(mix, k) for k in range(2 * attack.dice + 1)}
    out["more"] = outcome_odds(mix)["hit"] - sum(out.values(), Fraction(0))
    return outcome_odds(mix), out


def damage_odds(body: Mapping[str, Any], o: Mapping[str, Any], extra: int) -> tuple[dict, dict, bool, int]:
    """The /damage bands, damage table, exactness and pool, as first written; the pool counts the dice rolled
    after a live block and the shield factor (RULINGS 22)."""
    target = calc._target(body)
    base, block = calc.damage_pool(body, extra)
    soak = target["soak_dice"] if body.get("soak") and not body.get("surprised") else 0
    at_most = final_cdf(pool_mixture(base, block, o), soak, o)
    threshold = target["rank"] + target["bonus_ranks"]
    return (dmg.bands(at_most, threshold, body.get("domain", "physical"), o), dmg.damage_table(at_most, max(base, 0)),
            not (soak and o["explode"]), max(base - (0 if block is None else block.factor + (block.pool or 0)), 0))
