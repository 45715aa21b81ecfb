"""Exact odds of one whole attack, from the attack pool to the damage band (seed *Attacks*, *Defences*,
*Special Results*, *Damage*, *Soak Rolls*, *Damage/Defeat*; smoting.md sections 4, 5 and 12.4).

Every probability here is an integer over a power of 6 (a die's 5 non-6 endings cancel the 5s), so each
distribution is kept as integer numerators over one common 6**L and only the answers become fractions.
Pools grow one die at a time: a die's generating function is ((s-1) + (6-s)x) / (6 - x) with re-rolls and
((s-1) + (7-s)x) / 6 without, so adding a die to a distribution is one pass over its success counts. A
block is folded in the same pass (see `_blocked_pools`), and the damage bands of every extra-success count
are summed before the soak is applied, so the work grows with pool sizes times success counts, never
with the product of the attack's, block's and soak's outcomes.

The answers are the very fractions of summing over every outcome: the same truncation of unbounded sums
(extra successes of an exploding attack, results of an exploding soak: smoting.md section 2) is kept.
"""
from __future__ import annotations

from fractions import Fraction
from math import log
from typing import Any, Mapping

from service.rules.smoting import pools
from service.rules.smoting.to_hit import Mixture

MAX_EXTRAS = 200  # extra-success counts summed at most (the tail beyond is given to the heaviest band)
_TAIL_INVERSE = 10**15  # pools.TAIL == 1 / _TAIL_INVERSE


def times_die(row: list[int], success_min: int, explode: bool) -> list[int]:
    """The success counts of a pool with one die more: `row` times a die's generating function, cut at the
    row's length (the numerators stay over the row's own power of 6, which must be large enough)."""
    out = [0] * len(row)
    keep = success_min - 1
    if explode:
        top, previous, carried = 6 - success_min, 0, 0
        for d, value in enumerate(row):
            carried = (keep * value + top * previous + carried) // 6
            out[d] = carried
            previous = value
    else:
        top, previous = 7 - success_min, 0
        for d, value in enumerate(row):
            out[d] = (keep * value + top * previous) // 6
            previous = value
    return out


def pool_rows(most: int, length: int, scale: int, success_min: int, explode: bool) -> list[list[int]]:
    """Row m (m = 0 .. `most`): 6**scale * P(a pool of m dice scores exactly d), d < `length`
    (seed *Damage*; scale >= most + length keeps every division exact)."""
    row = [6**scale] + [0] * (length - 1)
    rows = [row]
    for _ in range(most):
        row = times_die(row, success_min, explode)
        rows.append(row)
    return rows


def _prefix(row: list[int]) -> list[int]:
    out, total = [], 0
    for value in row:
        total += value
        out.append(total)
    return out


def _exponent(fraction: Fraction) -> int:
    """The least e with 6**e * fraction an integer (every denominator here divides a power of 6)."""
    den = fraction.denominator
    twos = (den & -den).bit_length() - 1
    rest = den >> twos
    threes = round(log(rest, 3)) if rest > 1 else 0  # a float guess, put right below
    while threes and 3**threes > rest:
        threes -= 1
    while 3**threes < rest:
        threes += 1
    if 3**threes != rest:
        raise ValueError(f"{fraction} is not over a power of 6")
    return max(twos, threes)


def _scaled(fraction: Fraction, scale: int) -> int:
    return fraction.numerator * (6**scale // fraction.denominator)


def hit_and_extras(mix: Mixture, count: int | None = None) -> tuple[dict[str, Fraction], list[int], int, bool]:
    """{defender_specials, miss, hit} of the attack, then 6**(2 scale) * P(hit with exactly k extra
    successes) for k = 0, 1, ... until the hit mass left is below the tail bound (all of it when the attack
    cannot explode; at most MAX_EXTRAS) or, given `count`, for k < count; the scale, and whether that list
    is the whole of the hit (seed *Special Results*; smoting.md section 4)."""
    s, boom, parts = mix.success_min, mix.explode, mix.components
    most = max((m for _, m, _, _ in parts), default=0)
    length = max((q for _, _, q, _ in parts), default=0) + 1 + max(MAX_EXTRAS, count or 0)
    scale = max([most + length, *(_exponent(w) for w, _, _, _ in parts),
                 _exponent(mix.dodged_miss), _exponent(mix.dodged_specials)])
    rows = pool_rows(most, length, scale, s, boom)
    cumulative = {m: _prefix(rows[m]) for m in {m for _, m, _, _ in parts}}
    one = 6**scale
    weights = [(_scaled(w, scale), m, q, surplus) for w, m, q, surplus in parts]
    hit = miss = 0
    for w, m, q, surplus in weights:
        hit += w * (one - cumulative[m][q])
        if not surplus:
            miss += w * rows[m][q]
    miss += _scaled(mix.dodged_miss, scale) * one
    whole = one * one
    specials = whole - hit - miss  # whatever is left, as the outcome odds define it
    bounded = not boom
    extras, left, k = [], hit, 0
    if count is not None:
        extras = [sum(w * rows[m][q + 1 + k] for w, m, q, _ in weights) for k in range(count)]
    while count is None and (left > 0 if bounded else left * _TAIL_INVERSE > whole) and k < MAX_EXTRAS:
        p = sum(w * rows[m][q + 1 + k] for w, m, q, _ in weights)
        extras.append(p)
        left -= p
        k += 1
        if bounded and left == 0:
            break
    outcomes = {"defender_specials": Fraction(specials, whole), "miss": Fraction(miss, whole),
                "hit": Fraction(hit, whole)}
    return outcomes, extras, scale, bounded and mix.exact


def _blocked_pools(rooms: list[int], length: int, scale: int, block: list[int] | None, success_min: int,
                   explode: bool) -> dict[int, list[int]]:
    """For each room r: 6**scale * P(damage <= d), d < `length`, of a damage pool of max(r - B, 0) dice,
    B the block successes (6**scale * P(B = b) in `block`; None: no block roll). Grown a die at a time:
    with Q(M) the damage of max(M - B, 0) dice, Q(M + 1) = die * (Q(M) - P(B > M)) + P(B > M), since the
    block results above M leave no die either way (seed *Defences*, Block)."""
    wanted = set(rooms)
    one = 6**scale
    row = [one] + [0] * (length - 1)
    above = one  # P(B > M) for the M being grown (starts at P(B >= 0))
    out = {}
    for size in range(max(max(rooms), 0) + 1):
        if size in wanted:
            out[size] = _prefix(row)
        if block is not None:
            above -= block[size] if size < len(block) else 0
        else:
            above = 0
        row[0] -= above
        row = times_die(row, success_min, explode)
        row[0] += above
    zero = _prefix([one] + [0] * (length - 1))
    return {room: out.get(room, zero) if room > 0 else zero for room in rooms}


def _rooms(bases: list[int], block: Any) -> tuple[list[int], int | None]:
    """Damage dice before the block roll for each base pool, and the block's fresh dice (None: no block
    roll; a live block pool and the shield's factor simply remove dice) (seed *Defences*, Block)."""
    if block is None:
        return [max(base, 0) for base in bases], None
    if block.pool is not None:
        return [max(base - block.factor - block.pool, 0) for base in bases], None
    return [base - block.factor for base in bases], block.dice or 0


def _soak(target: Mapping[str, Any], body: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[int, list]:
    soak_dice = target["soak_dice"] if body.get("soak") and not body.get("surprised") else 0
    if soak_dice <= 0:
        return 0, [(0, Fraction(1))]
    return soak_dice, pools.support(soak_dice, o["success_min"], o["explode"])


def _damage_columns(bases: list[int], block: Any, length: int, soak: list, o: Mapping[str, Any]
                    ) -> tuple[list[list[int]], list[tuple[int, int]], int]:
    """Per base pool, 6**scale * P(damage <= d) for d < `length` after the block; the soak weights over
    the same 6**scale; the scale."""
    s, boom = o["success_min"], o["explode"]
    rooms, block_dice = _rooms(bases, block)
    most = max(max(rooms), 0)
    scale = max([(block_dice or 0) + most + length, *(_exponent(w) for _, w in soak)])
    block_row = None if block_dice is None else pool_rows(block_dice, most + 1, scale, s, boom)[block_dice]
    at_most = _blocked_pools(rooms, length, scale, block_row, s, boom)
    return [at_most[room] for room in rooms], [(r, _scaled(w, scale)) for r, w in soak], scale


def damage_cdf(body: Mapping[str, Any], o: Mapping[str, Any], target: Mapping[str, Any], base: int, block: Any,
               upto: int) -> tuple[list[Fraction], bool]:
    """P(final damage <= x) for x = 0 .. `upto` of a damage pool of `base` dice against the block and the
    soak, and whether exact (an exploding soak's sum is truncated) (seed *Damage*, *Defences* (Block),
    *Soak Rolls*; smoting.md section 5)."""
    soak_dice, soak = _soak(target, body, o)
    length = upto + max(r for r, _ in soak) + 1
    (column,), weights, scale = _damage_columns([base], block, length, soak, o)
    whole = 6 ** (2 * scale)
    return ([Fraction(sum(w * column[x + r] for r, w in weights), whole) for x in range(upto + 1)],
            not (soak_dice and o["explode"]))


def attack_bands(body: Mapping[str, Any], o: Mapping[str, Any], extras: list[int], extras_scale: int,
                 target: Mapping[str, Any], base: int, block: Any) -> tuple[dict[str, Fraction], bool]:
    """Σ_k P(hit with k extras) x P(band | damage pool of `base` + 2k dice), per damage band, and whether
    they are exact (an exploding soak's sum is truncated) (seed *Damage*, *Defences* (Block), *Soak Rolls*,
    *Damage/Defeat*, *Mental Effects*; smoting.md section 5)."""
    soak_dice, soak = _soak(target, body, o)
    threshold = target["rank"] + target["bonus_ranks"]
    points = (0, threshold, 2 * threshold, 3 * threshold)
    length = points[-1] + max(r for r, _ in soak) + 1
    columns, weights, scale = _damage_columns([base + 2 * k for k in range(len(extras))], block, length, soak, o)
    needed = sorted({x + r for x in points for r, _ in soak})
    summed = {y: 0 for y in needed}  # Σ_k P(k extras) * P(damage <= y | k)
    for p, column in zip(extras, columns):
        if p:
            for y in needed:
                summed[y] += p * column[y]
    final = {x: sum(w * summed[x + r] for r, w in weights) for x in points}  # after soak
    whole = 6 ** (2 * extras_scale + 2 * scale)
    total = sum(extras) * 6 ** (2 * scale)  # P(hit) as listed, over `whole`
    zero, one, two, three = (final[x] for x in points)
    if body.get("domain", "physical") == "mental":
        found = {"no_damage": zero, "defeat": one - zero, "panicked": two - one, "crushed": total - two}
    else:
        massive = total - three if o["massive_kia"] else 0
        found = {"no_damage": zero, "defeat": one - zero, "trauma": two - one,
                 "killing_blow": total - two - massive, "massive": massive}
    return {name: Fraction(value, whole) for name, value in found.items()}, not (soak_dice and o["explode"])
