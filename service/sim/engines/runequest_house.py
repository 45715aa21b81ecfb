"""Vectorised fights of `runequest-house` (rules document §9): the round resolver's melee under the duel
policy, one numpy array per quantity across all fights of a chunk, any number of figures on any number of
sides.

It plays exactly what `service.rules.runequest_house.round` does for the duel policy (each figure attacks the
first foe able to fight at the round's start and parries, or dodges; a prone figure stands up instead of
attacking; attacks in strike-rank order, those on one SR and DEX simultaneous; a defender's one defence meets
the first attack on him in the round, later ones none) for the matchups `accepts` covers: figures without
positions, a melee first weapon, default rule options (except `max_rounds` and `duel_declaration`). Other
matchups go through the resolver loop. `tests/unit/sim/test_runequest_house_engine.py` holds it against the
loop (win shares, rounds, statuses, damage, falls, fumbles).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.runequest_house import armor, percentile, stats, status
from service.rules.runequest_house.damage import blow
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.options import OPTIONS, fraction
from service.rules.runequest_house.pack import LIMBS, LOCATIONS
from service.rules.runequest_house.round import PARRY_DEGREE  # noqa: F401 - same vocabulary
from service.rules.runequest_house.to_hit import SHIELDS
from service.sim.cost import LOOP_CHUNK, Rates
from service.sim.stopping import checkpoint

# CPU microseconds of a chunk (service.sim.cost): this vectorised duel, and the ruleset's resolver loop
# (every combatant declares and acts each round; targets are looked up among all the others).
RATES = Rates((1000.0, 2000.0), (600.0, 300.0), (1.0, 1.0, 0.1))
LOOP_RATES = Rates(LOOP_CHUNK, (0.0, 0.0), (200.0, 80.0, 0.02))
FREE_OPTIONS = ("max_rounds", "duel_declaration")
LOC = {name: i for i, name in enumerate(LOCATIONS)}
VITAL = np.array([name in ("head", "chest", "abdomen") for name in LOCATIONS])
LIMB = np.array([name in LIMBS for name in LOCATIONS])
FALLS = np.array([name in ("right_leg", "left_leg", "abdomen", "chest") for name in LOCATIONS])
FUMBLE, FAILURE, SUCCESS, SPECIAL, CRITICAL = range(5)


def accepts(matchup: Any) -> bool:
    """Whether this engine plays the matchup exactly as the resolver loop would."""
    people = matchup.combatants
    if len({who["side"] for who in people}) < 2:
        return False
    for name, spec in OPTIONS.items():
        if name not in FREE_OPTIONS and matchup.options[name] != spec.default:
            return False
    for who in people:
        if who["position"] is not None or who["prone"] or who["conditions"] or who["holding"] \
                or status.status(who) != "standing":
            return False
        if who["weapons"][0]["kind"] != "melee" or _fallback(who) not in (0, None):
            return False
    return True


def _fallback(who: dict[str, Any]) -> int | None:
    """The weapon that parries when there is no usable shield (round.defences.parry_item)."""
    return next((i for i, w in enumerate(who["weapons"]) if w["parry"] > 0 and w["kind"] == "melee"), None)


@dataclass
class Fighter:
    """One duellist's fixed figures (python scalars) taken from the parsed matchup."""

    ident: str
    side: str
    dex: int
    siz: int
    str: int
    sr: int
    attack: int
    fumble_multiplier: int
    weapon_type: str
    weapon_dice: tuple
    weapon_constant: int
    bonus_dice: tuple
    bonus_constant: int
    bonus_max: int
    max_critical: int
    hands: int
    defence: str
    shield: dict | None
    shield_parry_bands: percentile.Bands | None
    weapon_parry_bands: percentile.Bands | None
    weapon_bladed: tuple
    dodge_bands: percentile.Bands
    armor: np.ndarray
    location_max: np.ndarray
    location_hp: np.ndarray
    hp: int
    has_fallback: bool
    weapon_ap: int


def _fighter(who: dict[str, Any], flexible: bool, options: dict[str, Any]) -> Fighter:
    """A figure's fixed figures against a foe whose weapon is `flexible` (a flail spoils a shield's parry)."""
    chars, weapon = who["characteristics"], who["weapons"][0]
    bonus = stats.damage_bonus(chars["str"], chars["siz"], options)
    base, db = parse(weapon["damage"]), parse(bonus)
    can_parry = who["shield"] is not None or any(w["parry"] > 0 for w in who["weapons"])
    defence = "dodge" if options["duel_declaration"] == "attack_dodge" or not can_parry else "parry"
    shield_bands = None
    if who["shield"]:
        name = "buckler" if who["shield"]["size"] == "buckler" else f"{who['shield']['size']}_shield"
        skill = who["shield"]["parry"]
        if flexible and name in SHIELDS and name != "buckler":
            skill = percentile.effective(skill, [], [fraction("3/4")])
        shield_bands = percentile.bands(skill, options)
    fallback = _fallback(who)
    full = stats.location_hp(stats.hit_points(chars["con"], chars["siz"]), options)
    return Fighter(
        who["id"], who["side"], chars["dex"], chars["siz"], chars["str"],
        stats.melee_sr(chars["dex"], chars["siz"], weapon["sr"], options), weapon["attack"],
        2 if weapon["flexible"] else 1, weapon["type"], base.dice, base.constant, db.dice, db.constant,
        db.maximum(), blow(weapon["damage"], weapon["type"], bonus, "critical_max", options).constant,
        weapon["hands"], defence, who["shield"], shield_bands,
        None if fallback is None else percentile.bands(who["weapons"][0]["parry"], options),
        (weapon["bladed"], weapon["hafted"], weapon["long_hafted"]),
        percentile.bands(who["skills"]["dodge"], options),
        np.array([armor.layered(who["armor"].get(loc, []), who["protection"], options).ap for loc in LOCATIONS]),
        np.array([full[loc] for loc in LOCATIONS]), np.array([who["location_hp"][loc] for loc in LOCATIONS]),
        who["hp"], fallback is not None, weapon["ap"])


class Fights:
    """Every changing quantity of the chunk's fights, one array per duellist."""

    def __init__(self, fighters: list[Fighter], n: int):
        self.hp = [np.full(n, f.hp) for f in fighters]
        self.loc = [np.tile(f.location_hp, (n, 1)) for f in fighters]
        self.dying = [np.zeros(n, bool) for _ in fighters]
        self.prone = [np.zeros(n, bool) for _ in fighters]
        self.shield_ap = [np.full(n, f.shield["ap"] if f.shield else 0) for f in fighters]
        self.weapon_ap = [np.full(n, f.weapon_ap) for f in fighters]

    def keep(self, rows: np.ndarray) -> Fights:
        """The fights `rows` only (a new object; the arrays are copies)."""
        out = Fights.__new__(Fights)
        for name in ("hp", "loc", "dying", "prone", "shield_ap", "weapon_ap"):
            setattr(out, name, [values[rows] for values in getattr(self, name)])
        return out

    def able(self, i: int, fighter: Fighter) -> np.ndarray:
        """can_fight: alive, not dying, head, chest and abdomen up, weapon arm(s) up."""
        loc = self.loc[i]
        ok = (self.hp[i] > 0) & ~self.dying[i] & (loc[:, LOC["head"]] > 0) & (loc[:, LOC["chest"]] > 0) \
            & (loc[:, LOC["abdomen"]] > 0) & (loc[:, LOC["right_arm"]] > 0)
        if fighter.hands == 2:
            ok &= loc[:, LOC["left_arm"]] > 0
        return ok

    def statuses(self, i: int, fighter: Fighter) -> np.ndarray:
        """status.status as codes: 0 dead, 1 dying, 2 unconscious, 3 incapacitated, 4 disarmed, 5 prone, 6 standing."""
        loc = self.loc[i]
        arms = loc[:, LOC["right_arm"]] > 0
        if fighter.hands == 2:
            arms &= loc[:, LOC["left_arm"]] > 0
        out = np.where(self.prone[i], 5, 6)
        out = np.where(~arms, 4, out)
        out = np.where((loc[:, LOC["chest"]] <= 0) | (loc[:, LOC["abdomen"]] <= 0), 3, out)
        out = np.where(loc[:, LOC["head"]] <= 0, 2, out)
        out = np.where(self.dying[i], 1, out)
        return np.where(self.hp[i] <= 0, 0, out)


STATUS_NAMES = ("dead", "dying", "unconscious", "incapacitated", "disarmed", "prone", "standing")


def _degree(face: np.ndarray, bands: Any) -> np.ndarray:
    critical, special, success, fumble = bands
    out = np.where(face <= success, SUCCESS, np.where(face >= fumble, FUMBLE, FAILURE))
    out = np.where(face <= special, SPECIAL, out)
    return np.where(face <= critical, CRITICAL, out)


def _bands_array(bands: percentile.Bands) -> tuple[int, int, int, int]:
    return bands.critical, bands.special, bands.success, bands.fumble_from


def _roll(rng: np.random.Generator, dice: tuple, constant: int, n: int) -> np.ndarray:
    total = np.full(n, constant)
    for sign, count, sides in dice:
        total = total + sign * rng.integers(1, sides + 1, size=(n, count)).sum(axis=1)
    return total


def simulate(matchup: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` fights of an accepted matchup; the tally `service.sim.rounds.play` would return."""
    options = matchup.options
    people = matchup.combatants
    k = len(people)
    flex = [bool(who["weapons"][0]["flexible"]) for who in people]
    against = [[_fighter(who, flexible, options) for flexible in (False, True)] for who in people]
    fighters = [against[i][0] for i in range(k)]
    names = list(dict.fromkeys(who["side"] for who in people))
    side = np.array([names.index(who["side"]) for who in people])
    n, cap = trials, options["max_rounds"]
    fights = Fights(fighters, n)
    melee_rows = options["melee_locations"]
    location_of_face = np.array([0] + [LOC[next(r["location"] for r in melee_rows if r["min"] <= face <= r["max"])]
                                       for face in range(1, 21)])
    order = sorted(range(k), key=lambda i: (fighters[i].sr, -fighters[i].dex, i))
    turns: list[list[int]] = []  # strike order, those on one SR and DEX together
    for i in order:
        if turns and (fighters[turns[-1][0]].sr, fighters[turns[-1][0]].dex) == (fighters[i].sr, fighters[i].dex):
            turns[-1].append(i)
        else:
            turns.append([i])
    attack_bands = {}
    for i, f in enumerate(fighters):
        for own in (False, True):
            for other in (False, True):
                attack_bands[i, own, other] = _bands_array(percentile.bands(
                    f.attack - 20 * own + 20 * other, options, f.fumble_multiplier))
    dex_bands = {i: {m: _bands_array(percentile.bands(f.dex * m, options)) for m in range(1, 6)}
                 for i, f in enumerate(fighters)}
    rounds = np.zeros(n, int)
    going = _sides_up(fights, fighters, side, len(names)).sum(axis=0) >= 2
    damage = np.zeros((k, len(LOCATIONS)))
    counts = {"parry_ap_lost": 0, "knockback_falls": 0, "fumbles": 0, "criticals": 0}
    ended: list[dict[str, Any]] = []  # tallies of fights already over, dropped from the arrays
    for _ in range(cap):
        checkpoint()
        if not going.any():
            break
        if going.sum() < 0.5 * n:
            ended.append(_tally(fighters, fights.keep(~going), rounds[~going], names, side, None, {}, n - int(going.sum())))
            fights, rounds, n = fights.keep(going), rounds[going], int(going.sum())
            going = np.ones(n, bool)
        rounds += going
        able = [fights.able(i, f) for i, f in enumerate(fighters)]
        target = np.full((k, n), -1)
        for i in range(k):  # duel.Duel.declare: the first foe able to fight
            for j in reversed(range(k)):
                if side[j] != side[i]:
                    target[i] = np.where(able[j], j, target[i])
        declared = [going & able[i] & (target[i] >= 0) for i in range(k)]
        attacks = [declared[i] & ~fights.prone[i] for i in range(k)]
        for i in range(k):  # the move phase: a prone figure's move stands it up
            fights.prone[i] = np.where(declared[i], False, fights.prone[i])
        state = Turn(declared, [np.zeros(n, bool) for _ in range(k)], [np.zeros(n, bool) for _ in range(k)],
                     [np.zeros(n, bool) for _ in range(k)], [np.zeros(n, bool) for _ in range(k)])
        for turn in turns:
            snapshot = [fights.able(i, f) for i, f in enumerate(fighters)]
            for a in turn:
                for t in range(k):
                    if side[t] == side[a]:
                        continue
                    acts = attacks[a] & snapshot[a] & ~state.lost_attack[a] & (target[a] == t) & (fights.hp[t] > 0)
                    if acts.any():
                        state.done[a] |= acts
                        _strike(a, t, acts, (against[a][flex[t]], against[t][flex[a]]), fights, state,
                                attack_bands, dex_bands, location_of_face, damage, counts, rng, n)
        going &= _sides_up(fights, fighters, side, len(names)).sum(axis=0) >= 2
    total = _tally(fighters, fights, rounds, names, side, damage, counts, n)
    for part in ended:
        total = _add(total, part)
    return total


def _add(a: Any, b: Any) -> Any:
    """Two tallies' counts added key by key."""
    if isinstance(a, dict):
        return {key: _add(a[key], b[key]) if key in a and key in b else a.get(key, b.get(key)) for key in {**a, **b}}
    return a + b


@dataclass
class Turn:
    """A round's bookkeeping per figure (arrays over fights): declared, actions lost, attack done, and the
    round's one defence spent (round.defences.defence_for)."""

    declared: list
    lost_attack: list
    lost_defence: list
    done: list
    defended: list


def _sides_up(fights: Fights, fighters: list[Fighter], side: np.ndarray, sides: int) -> np.ndarray:
    """(sides, n): does the side have a figure that can fight."""
    able = [fights.able(i, f) for i, f in enumerate(fighters)]
    return np.array([np.any([able[i] for i in range(len(fighters)) if side[i] == s], axis=0) for s in range(sides)])


def _strike(a: int, t: int, acts: np.ndarray, pair: tuple[Fighter, Fighter], fights: Fights, state: Turn,
            attack_bands: dict, dex_bands: dict, location_of_face: np.ndarray, damage: np.ndarray, counts: dict,
            rng: np.random.Generator, n: int) -> None:
    """One attack of fighter `a` on `t` in every fight where `acts` (round.attacks.attack)."""
    att, tgt = pair
    declared, lost_attack, lost_defence, done = state.declared, state.lost_attack, state.lost_defence, state.done
    own, other = fights.prone[a], fights.prone[t]
    bands = [np.select([own & other, own & ~other, ~own & other], [attack_bands[a, True, True][k],
                       attack_bands[a, True, False][k], attack_bands[a, False, True][k]],
                       attack_bands[a, False, False][k]) for k in range(4)]
    face = rng.integers(1, 101, n)
    degree = _degree(face, bands)
    can_defend = declared[t] & fights.able(t, tgt) & ~lost_defence[t] & ~state.defended[t]
    if tgt.defence == "parry":
        shield_up = (fights.loc[t][:, LOC["left_arm"]] > 0) if tgt.shield else np.zeros(n, bool)
        use_shield = can_defend & shield_up
        use_weapon = can_defend & ~shield_up & tgt.has_fallback
        defended = use_shield | use_weapon
        sb = _bands_array(tgt.shield_parry_bands) if tgt.shield else (0, 0, 0, 101)
        wb = _bands_array(tgt.weapon_parry_bands) if tgt.has_fallback else (0, 0, 0, 101)
        d_bands = [np.where(use_shield, sb[k], wb[k]) for k in range(4)]
    else:
        use_shield = use_weapon = np.zeros(n, bool)
        defended = can_defend
        d_bands = list(_bands_array(tgt.dodge_bands))
    state.defended[t] |= acts & defended
    d_face = rng.integers(1, 101, n)
    d_degree = np.where(defended, _degree(d_face, d_bands), FAILURE)
    rolled_defence = acts & defended
    counts["fumbles"] += int((acts & (degree == FUMBLE)).sum() + (rolled_defence & (d_degree == FUMBLE)).sum())
    counts["criticals"] += int((acts & (degree == CRITICAL)).sum() + (rolled_defence & (d_degree == CRITICAL)).sum())
    defence_fumble = rolled_defence & (d_degree == FUMBLE)
    lost_attack[t] |= defence_fumble & ~done[t]
    lost_defence[t] |= defence_fumble
    lost_defence[a] |= acts & (degree == FUMBLE)
    parry = tgt.defence == "parry"
    if parry:
        parried = acts & defended & (degree >= SUCCESS) & (d_degree >= SUCCESS)
        landed = acts & (degree >= SUCCESS) & ~parried
        bladed, hafted, long_hafted = tgt.weapon_bladed
        needed = CRITICAL if long_hafted else SPECIAL if hafted else SUCCESS
        notched = acts & use_weapon & bladed & (degree == FAILURE) & (d_degree >= max(SUCCESS, needed))
        fights.weapon_ap[a] = np.where(notched, np.maximum(0, fights.weapon_ap[a] - 1), fights.weapon_ap[a])
        through_degree = np.where(parried & (d_degree == CRITICAL), -1, np.where(parried, d_degree, FAILURE))
        hits = (landed | parried) & (through_degree != -1)
        final = np.where(degree == SUCCESS, 1, np.where(degree == SPECIAL, 2, 3))  # hit, special, critical
    else:
        start = np.where(degree == FAILURE, 0, degree - 1)
        shift = np.choose(d_degree, [1, 0, -1, -2, -3])
        result = np.where((start == 0) & (shift <= 0), 0, np.clip(start + shift, 0, 4))
        hits = acts & (degree != FUMBLE) & (result > 0)
        final = result
        through_degree = np.full(n, FAILURE)
    if not hits.any():
        return
    location = location_of_face[rng.integers(1, 21, n)]
    special = (final == 2) | (final == 3)
    base = _roll(rng, att.weapon_dice, att.weapon_constant, n)
    if att.weapon_type == "crush":
        total = base + np.where(special, att.bonus_max, _roll(rng, att.bonus_dice, att.bonus_constant, n))
    else:
        twice = _roll(rng, att.weapon_dice, att.weapon_constant, n)
        total = base + np.where(special, twice, 0) + _roll(rng, att.bonus_dice, att.bonus_constant, n)
    total = np.where(final == 4, att.max_critical, total)
    dealt = np.maximum(0, total)
    critical = final >= 3
    item_ap = np.where(use_shield, fights.shield_ap[t], fights.weapon_ap[t])
    parrying = hits & ((through_degree == SUCCESS) | (through_degree == SPECIAL))
    through = np.where(parrying, np.maximum(0, dealt - item_ap), dealt)
    loss = parrying & (dealt > item_ap) & ((through_degree == SUCCESS) | critical)
    counts["parry_ap_lost"] += int(loss.sum())
    fights.shield_ap[t] = np.where(loss & use_shield, np.maximum(0, fights.shield_ap[t] - 1), fights.shield_ap[t])
    fights.weapon_ap[t] = np.where(loss & ~use_shield, np.maximum(0, fights.weapon_ap[t] - 1), fights.weapon_ap[t])
    armor_ap = np.where(critical, 0, tgt.armor[location])
    to_location = through - np.minimum(armor_ap, through)
    wounded = hits & (to_location > 0)
    rows = np.nonzero(wounded)[0]
    if rows.size:
        where = location[rows]
        amount = to_location[rows]
        maxima = tgt.location_max[where]
        after = fights.loc[t][rows, where] - amount
        severe = amount >= 2 * maxima
        counted = np.where(LIMB[where], np.minimum(amount, 2 * maxima), amount)
        fights.hp[t][rows] -= counted
        fights.loc[t][rows, where] = after
        fights.dying[t][rows] |= VITAL[where] & severe
        fights.prone[t][rows] |= FALLS[where] & (after <= 0)
        np.add.at(damage[t], where, amount)
    impaled = (att.weapon_type == "impale") & (final >= 2) & (to_location > 0)
    doubled = (att.weapon_type == "crush") | (to_location == 0)
    counted_kb = np.where(impaled, 0, np.where(doubled, through * 2, through))
    metres = np.where(counted_kb < tgt.siz, 0, 1 + (counted_kb - tgt.siz) // 10)
    pushed = hits & (metres > 0) & ~fights.prone[t]
    if pushed.any():
        multiple = np.clip(6 - metres, 0, 5)
        face = rng.integers(1, 101, n)
        stays = np.zeros(n, bool)
        for m in range(1, 6):
            stays |= (multiple == m) & (_degree(face, dex_bands[t][m]) >= SUCCESS)
        falls = pushed & ~stays
        fights.prone[t] |= falls
        counts["knockback_falls"] += int(falls.sum())


def _tally(fighters: list[Fighter], fights: Fights, rounds: np.ndarray, names: list[str], side: np.ndarray,
           damage: np.ndarray | None, counts: dict, n: int) -> dict[str, Any]:
    codes = [fights.statuses(i, f) for i, f in enumerate(fighters)]
    up = np.array([np.any([(codes[i] == 5) | (codes[i] == 6) for i in range(len(fighters)) if side[i] == s], axis=0)
                   for s in range(len(names))])
    alone = up.sum(axis=0) == 1
    over = up.sum(axis=0) <= 1
    won = np.bincount(up.argmax(axis=0)[alone], minlength=len(names))
    wins = {name: int(w) for name, w in zip(names, won) if w}
    draws = n - sum(wins.values())
    lengths = np.bincount(rounds, minlength=1)
    details = {key: value for key, value in counts.items() if value}
    for s, name in enumerate(names if damage is not None else ()):
        for j, loc in enumerate(LOCATIONS):
            total = damage[side == s, j].sum()
            if total:
                details[f"location_damage|{name}|{loc}"] = float(total)
    return {"trials": n, "wins": wins, "draws": draws, "capped": int((~over).sum()),
            "rounds": {str(k): int(v) for k, v in enumerate(lengths) if v},
            "status": {f.ident: {STATUS_NAMES[k]: int(v) for k, v in enumerate(np.bincount(codes[i], minlength=7)) if v}
                       for i, f in enumerate(fighters)},
            "details": details}
