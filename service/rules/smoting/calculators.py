"""The smoting calculators of smoting.md section 12 as pure functions: odds (exact fractions, or flagged
inexact), an optional roll through the caller's `DiceSource`, and the trace. Each answer is a dict whose
`odds` entries are (values, exact) pairs and whose `chance` is (value, exact); the API formats them."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from service.rules.dice import DiceSource
from service.rules.errors import Contradiction, RulesError
from service.rules.smoting import damage as dmg
from service.rules.smoting import injury as inj
from service.rules.smoting import movement as mov
from service.rules.smoting import attack_odds, pools, to_hit
from service.rules.memo import remembered
from service.rules.trace import Step, fmt

KIND_NEED = {"attribute": 1, "battle_move": 1, "zone_move": 2}


def check(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    """Any pool roll: a task, an attribute roll, a zone or battle move (seed *Damage*, *Move rolls*,
    *OoA and KIA*; smoting.md section 12.1)."""
    kind = body.get("kind", "task")
    n = mov.pool(body["dice"], body.get("modifiers", 0), body.get("running", False), body.get("stunned", False))
    boom = o["explode"] if body.get("explode") is None else body["explode"]
    s, need = o["success_min"], KIND_NEED.get(kind, body.get("need", 1))
    opts = {**o, "explode": boom}
    extra: dict[str, Any] = {}
    if kind == "zone_move":
        probs = mov.zone_move(n, opts)
        headline = probs["arrive"]
    elif kind == "battle_move":
        needed, success = mov.battle_move(n, opts)
        probs, headline, extra = {"success": success, "failure": 1 - success}, success, {"roll_needed": needed}
    else:
        headline = pools.at_least(n, need, s, boom)
        probs = {"success": headline, "failure": 1 - headline}
    trace = [Step("Move rolls" if "move" in kind else "Damage", f"pool of {n} dice, {need} success(es) needed", n)]
    roll = None
    if dice is not None and not (kind == "battle_move" and not extra["roll_needed"]):
        faces, got = pools.roll(dice, "pool", n, s, boom)
        pools.refuse_leftovers(dice, "pool", True)
        outcome = _outcome(kind, got, need)
        roll = {"faces": faces, "successes": got, "outcome": outcome}
    elif dice is not None:
        roll = {"faces": [], "successes": 0, "outcome": "success"}
    return {"pool": n, "explode": boom, "chance": (headline, True), "odds": {
        "probabilities": (probs, True), "success_probabilities": (pools.table(n, s, boom), True)},
        "expected_successes": pools.expected(n, s, boom), **extra, "roll": roll,
        "assumptions": ["S1", "S2"], "trace": trace}


def _outcome(kind: str, got: int, need: int) -> str:
    if kind == "zone_move":
        return "arrive" if got >= 2 else "boundary" if got == 1 else "stay"
    return "success" if got >= need else "failure"


def defence_of(body: Mapping[str, Any]) -> to_hit.Defence:
    """The request's defence block (none when surprised: seed *Surprise*)."""
    raw = body.get("defence") or {"type": "none"}
    if body.get("surprised") or raw.get("type", "none") == "none":
        return to_hit.Defence()
    if (raw.get("dice") is None) == (raw.get("pool") is None):
        raise Contradiction("send exactly one of `dice` (a fresh roll) and `pool` (a live pool)", ("defence",))
    return to_hit.Defence(raw["type"], raw.get("dice"), raw.get("pool"), raw.get("running", False))


def hit_odds(body: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[to_hit.AttackPool, to_hit.Defence, to_hit.Mixture]:
    """The attack pool, defence and their mixture (smoting.md section 4)."""
    attack = to_hit.attack_pool(body, o)
    defence = defence_of(body)
    return attack, defence, to_hit.mixture(attack, defence, body.get("attack_type", "melee"), o)


def roll_attack(body: Mapping[str, Any], o: Mapping[str, Any], attack: to_hit.AttackPool,
                defence: to_hit.Defence, dice: DiceSource) -> dict[str, Any]:
    """Roll the defence (a fresh one), then the attack dice left, and net them (seed *Attacks*, *Defences*)."""
    s, kind = o["success_min"], body.get("attack_type", "melee")
    d_faces, d_succ = None, None
    if defence.kind != "none" and defence.pool is None:
        d_faces, d_succ = pools.roll(dice, "defence", to_hit.defence_dice(defence, kind), s, o["explode"])
        pools.refuse_leftovers(dice, "defence", True)
    got = defence.pool if d_succ is None else d_succ
    n, parry = attack.dice, 0
    if defence.kind == "dodge":
        n = max(attack.dice - got, 1 if o["dodge_floor"] == "one" else 0)
    elif defence.kind == "parry":
        parry = got
    faces, a_succ = pools.roll(dice, "attack", n, s, attack.explode)
    pools.refuse_leftovers(dice, "attack", n > 0)
    net = a_succ - parry
    surplus = (defence.kind == "dodge" and got > attack.dice) or (defence.kind == "parry" and parry > a_succ)
    outcome = "hit" if net >= 1 else "defender_specials" if surplus else "miss"
    return {"attack_faces": faces, "attack_successes": a_succ, "defence_faces": d_faces,
            "defence_successes": d_succ if d_succ is not None else (defence.pool if defence.kind != "none" else None),
            "net": net, "extra_successes": max(net - 1, 0), "outcome": outcome}


def hit(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    """Chance to hit against dodge, parry or a live pool (smoting.md section 12.2)."""
    found = _hit(body, o)
    if dice is None:
        return found
    attack, defence, _ = hit_odds(body, o)
    return {**found, "roll": roll_attack(body, o, attack, defence, dice)}


@remembered
def _hit(body: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, Any]:
    """The odds of `hit` (seed *Attacks*, *Defences*)."""
    attack, defence, mix = hit_odds(body, o)
    outcomes, listed, scale, _ = attack_odds.hit_and_extras(mix, 2 * attack.dice + 1)
    extras = {str(k): Fraction(p, 6 ** (2 * scale)) for k, p in enumerate(listed)}
    extras["more"] = outcomes["hit"] - sum(extras.values(), Fraction(0))
    live = defence.pool is not None
    return {"attack_dice": attack.dice, "explode": attack.explode, "defence_dice": mix.defence_dice,
            "defence_applied": defence.pool if live else None,
            "defence_pool_after": max(defence.pool - 1, 0) if live else None,
            "chance": (outcomes["hit"], mix.exact),
            "odds": {"probabilities": (outcomes, mix.exact),
                     "extra_success_probabilities": (extras, mix.exact)},
            "roll": None, "assumptions": ["S1", "S2", "S3", "S6", "S7"],
            "trace": [*attack.trace, *_mix_trace(mix, defence)]}


def _mix_trace(mix: to_hit.Mixture, defence: to_hit.Defence) -> list[Step]:
    if defence.kind == "none":
        return [Step("Attacks", "no defence: one success hits", None)]
    where = "live pool" if defence.pool is not None else f"fresh roll of {mix.defence_dice} dice"
    return [Step("Defences", f"{defence.kind} by {where}", defence.pool)]


def damage_pool(body: Mapping[str, Any], extra: int) -> tuple[int, dmg.Block | None]:
    """Damage dice before a block, and the block (seed *Damage*, *Defences*)."""
    base = dmg.base_pool(body.get("damage_dice", 4), body.get("strength", 0), extra, body.get("bonus_dice", 0),
                         body.get("armor_resist", 0))
    raw = body.get("block")
    if raw is None or body.get("surprised"):
        return base, None
    if (raw.get("dice") is None) == (raw.get("pool") is None):
        raise Contradiction("send exactly one of `dice` (a fresh roll) and `pool` (a live pool)", ("block",))
    return base, dmg.Block(raw.get("dice"), raw.get("pool"), raw.get("factor", 0))


def _target(body: Mapping[str, Any]) -> dict[str, Any]:
    target = {"rank": 1, "bonus_ranks": 0, "heroic": False, "stunned": False, "out_of_action": False, "bod": 0,
              "soak_dice": 0, **(body.get("target") or {})}
    if body.get("soak") and not target["heroic"]:
        raise Contradiction("only a heroic target may soak", ("soak",))
    return target


def damage_odds(body: Mapping[str, Any], o: Mapping[str, Any], extra: int) -> tuple[dict, dict, bool, int]:
    """Bands and the damage table for one number of extra successes (smoting.md section 5)."""
    target = _target(body)
    base, block = damage_pool(body, extra)
    threshold = target["rank"] + target["bonus_ranks"]
    values, exact = attack_odds.damage_cdf(body, o, target, base, block, max(2 * max(base, 0), 3 * threshold))

    def at_most(x: int) -> Fraction:
        return values[x] if x >= 0 else Fraction(0)
    known = block.pool if block is not None and block.pool is not None else 0  # a fresh block: once rolled
    return (dmg.bands(at_most, threshold, body.get("domain", "physical"), o), dmg.damage_table(at_most, max(base, 0)),
            exact, dmg.dice_rolled(base, block, known))


def body_roll_odds(bod: int, o: Mapping[str, Any]) -> Fraction:
    """P(a BODY roll of 4 + BOD dice scores a success) (seed *OoA and KIA*)."""
    return pools.at_least(max(4 + bod, 1), 1, o["success_min"], o["explode"])


def damage(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    """A landed blow's damage: bands, the damage table and an optional roll (smoting.md section 12.3)."""
    found = _damage(body, o)
    if dice is None:
        return found
    return {**found, "roll": roll_damage(body, o, body.get("extra_successes", 0), dice)[0]}


@remembered
def _damage(body: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, Any]:
    """The odds of `damage` (seed *Damage*, *Soak Rolls*, *Damage/Defeat*)."""
    target = _target(body)
    bands, table, exact, pool = damage_odds(body, o, body.get("extra_successes", 0))
    if target["out_of_action"]:
        survive = body_roll_odds(target["bod"], o)
        bands, exact = {"survives": survive, "kia": 1 - survive}, exact
    threshold = target["rank"] + target["bonus_ranks"]
    roll = None
    trace = [Step("Damage (RULINGS 22)", "damage dice rolled: after Armor Resist, a live block's successes and "
                                         "the shield factor", pool),
             Step("Real Ranks vs Bonus Ranks", "threshold T = rank + bonus ranks", threshold)]
    return {"pool": pool, "threshold": threshold, "odds": {"probabilities": (bands, exact),
                                                           "damage_probabilities": (table, exact)},
            "roll": roll, "assumptions": ["S1", "S2", "S10", "S11", "S12", "S13"], "trace": trace}


def roll_damage(body: Mapping[str, Any], o: Mapping[str, Any], extra: int,
                dice: DiceSource) -> tuple[dict[str, Any], int]:
    """Roll block, damage, soak (and BODY for a target already out of action) (seed *Damage*, *Soak Rolls*)."""
    target, s, boom = _target(body), o["success_min"], o["explode"]
    base, block = damage_pool(body, extra)
    blocked = 0
    if block is not None:
        blocked = block.pool if block.pool is not None else pools.roll(dice, "block", block.dice or 0, s, boom)[1]
        pools.refuse_leftovers(dice, "block", block.pool is None)
    n = dmg.dice_rolled(base, block, blocked)
    faces, got = pools.roll(dice, "damage", n, s, boom)
    pools.refuse_leftovers(dice, "damage", n > 0)
    soaked = 0
    if body.get("soak") and got and not body.get("surprised"):
        soaked = pools.roll(dice, "soak", target["soak_dice"], s, boom)[1]
        pools.refuse_leftovers(dice, "soak", True)
    final = max(got - soaked, 0)
    threshold, domain = target["rank"] + target["bonus_ranks"], body.get("domain", "physical")
    band = dmg.band_of(final, threshold, domain, o)
    out = {"damage_pool": n, "damage_faces": faces, "damage": got, "soaked": soaked, "final": final, "band": band,
           "stunned": False, "rank_lost": False, "trauma": band in ("trauma", "killing_blow", "massive"),
           "out_of_action": band in ("killing_blow", "massive", "crushed"), "killed": band == "massive"}
    if target["out_of_action"]:
        alive = pools.roll(dice, "body", max(4 + target["bod"], 1), s, boom)[1] >= 1
        pools.refuse_leftovers(dice, "body", True)
        out.update(band="survives" if alive else "kia", out_of_action=True, killed=not alive, trauma=False)
    elif final >= 1:
        stun = o["take_stun"] and not target["stunned"]
        out.update(stunned=stun, rank_lost=not stun)
    return out, n


def attack(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    """One whole attack: the hit, then the damage band, summed over the extra successes (smoting.md 12.4)."""
    found = _attack(body, o)
    if dice is None:
        return found
    return {**found, "roll": roll_whole_attack(body, o, dice)}


@remembered
def _attack(body: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, Any]:
    """The odds of `attack` (seed *Attacks*, *Damage*): the hit odds by extra successes, then the damage
    bands of each, summed by convolution (`attack_odds`)."""
    atk, defence, mix = hit_odds(body, o)
    outcomes, extras, scale, bounded = attack_odds.hit_and_extras(mix)
    probs = {"defender_specials": outcomes["defender_specials"], "miss": outcomes["miss"]}
    exact = bounded
    if extras:
        target = _target(body)
        base, block = damage_pool(body, 0)
        bands, band_exact = attack_odds.attack_bands(body, o, extras, scale, target, base, block)
        exact = exact and band_exact
        probs.update(bands)
    if not bounded:  # the truncated tail of extra successes: the heaviest damage band takes it
        heaviest = "crushed" if body.get("domain") == "mental" else "massive" if o["massive_kia"] else "killing_blow"
        probs[heaviest] = probs.get(heaviest, Fraction(0)) + 1 - sum(probs.values(), Fraction(0))
    for name in (dmg.MENTAL_BANDS if body.get("domain") == "mental" else dmg.PHYSICAL_BANDS):
        probs.setdefault(name, Fraction(0))
    return {"chance": (outcomes["hit"], mix.exact), "odds": {"probabilities": (probs, exact)}, "roll": None,
            "assumptions": ["S1", "S2", "S3", "S9", "S10", "S11"],
            "trace": [*atk.trace, *_mix_trace(mix, defence),
                      Step("Special Results", "each extra success adds 2 damage dice", None)]}


def roll_whole_attack(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource) -> dict[str, Any]:
    """Roll the attack, then its damage when it hits (seed *Attacks*, *Damage*)."""
    atk, defence, _ = hit_odds(body, o)
    hit_roll = roll_attack(body, o, atk, defence, dice)
    roll = {"attack_successes": hit_roll["attack_successes"], "extra_successes": hit_roll["extra_successes"],
            "damage_pool": None, "damage": None, "band": hit_roll["outcome"], "stunned": False,
            "rank_lost": False, "trauma": False, "out_of_action": False, "killed": False,
            "outcome": hit_roll["outcome"]}
    if hit_roll["outcome"] == "hit":
        landed, pool = roll_damage(body, o, hit_roll["extra_successes"], dice)
        roll.update({k: landed[k] for k in ("band", "stunned", "rank_lost", "trauma", "out_of_action", "killed")},
                    damage_pool=pool, damage=landed["final"])
    return roll


def injury(body: Mapping[str, Any], o: Mapping[str, Any], dice: DiceSource | None) -> dict[str, Any]:
    """Injury location (4d6) and effect (1d6, +1 on a killing blow) (seed *Injury Table*)."""
    faces_p, shifts_p = inj.face_odds()
    roll = None
    if dice is not None:
        faces = dice.roll("location", 4, 6).dice
        pools.refuse_leftovers(dice, "location", True)
        face, shift = inj.deciding_face(faces)
        place = o["injury_location_map"][str(face)]
        effect_roll = dice.roll("effect", 1, 6).total
        pools.refuse_leftovers(dice, "effect", True)
        row, effect = inj.effect(place, effect_roll, body.get("killing_blow", False), o["injury_effects"])
        roll = {"faces": list(faces), "face": face, "location": place, "shift": shift, "effect_roll": row,
                "effect": effect}
    return {"odds": {"face_probabilities": ({str(f): p for f, p in faces_p.items()}, True),
                     "location_probabilities": (inj.location_odds(o["injury_location_map"]), True),
                     "shift_probabilities": ({str(s): p for s, p in shifts_p.items()}, True)},
            "roll": roll, "assumptions": ["S17", "S18"],
            "trace": [Step("Injury Table", "the face shown most decides; ties go to the highest face", None)]}


def movement(body: Mapping[str, Any], o: Mapping[str, Any]) -> dict[str, Any]:
    """Zone and battle move odds and speed conversion (smoting.md section 12.7)."""
    n = mov.pool(body.get("movement_dice", 4) + body.get("agl", 0), body.get("modifiers", 0),
                 body.get("running", False), body.get("stunned", False))
    zone = mov.zone_move(n, o)
    needed, success = mov.battle_move(n, o)
    speeds = mov.speeds(body.get("mr", 1), o)
    return {"pool": n, "zone": zone, "battle": (needed, success), "speeds": speeds,
            "trace": [Step("Move rolls", "movement pool", n),
                      Step("Movement Speeds", f"{body.get('mr', 1)} zone(s) a round", body.get("mr", 1)),
                      Step("The Battlefield", f"{fmt(speeds['metres_per_round'])} metres a round", None)]}
