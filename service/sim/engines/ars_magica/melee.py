"""One round's declarations and melee for a whole chunk of fights of any size (duel.Duel.declare and
melee.melee): each able fighter's target and stance, initiative rolls, the contest of each engaged pair, the
attack order (option `melee_order`) and every strike in it, with one defence roll per defender a round."""
from __future__ import annotations

import numpy as np

from service.rules.ars_magica.melee import MAX_REROLLS
from service.sim.engines.ars_magica.blows import Play, botch, land
from service.sim.engines.ars_magica.dice import stress
from service.sim.engines.ars_magica.fights import Cells, add

NONE, ATTACK, ALL_OUT, PREPARE, DESPERATE = range(-1, 4)
EACH_ATTACK = 10_000  # defence rolls a desperate defender makes a round (option desperate_defence_rolls)


def declare(play: Play, heavy: int | None) -> tuple[np.ndarray, np.ndarray]:
    """duel.Duel.declare for every fighter (N, n): the first able foe he is engaged with, else the first
    able foe; his action by option `ai_stance` (-1 for no declaration, target -1)."""
    f, r = play.fights, play.fights.roster
    able = f.acts
    foes = able.T[None, :, :] & (r.side[:, None] != r.side[None, :])[:, None, :]  # (N, n, N)
    engaged = foes & f.engaged
    target = np.where(engaged.any(axis=2), engaged.argmax(axis=2), foes.argmax(axis=2))
    declared = able & foes.any(axis=2)
    action = np.full(target.shape, ATTACK)
    stance = play.options["ai_stance"]
    if stance == "all_out_when_opponent_hurt":
        hurt = np.take_along_axis(f.body, target, axis=0) > 0
        action = np.where(f.ready, ALL_OUT, np.where(hurt, PREPARE, ATTACK))
    elif stance == "desperate_when_heavy" and heavy is not None:
        action = np.where(f.body >= heavy, DESPERATE, ATTACK)
    return np.where(declared, target, -1), np.where(declared, action, NONE)


def initiative(play: Play, total: np.ndarray) -> np.ndarray:
    """phases.initiative_roll: the Initiative total + a stress die without botch dice."""
    return total + stress(play.rng, total.size, 0).value.reshape(total.shape)


def melee(play: Play, target: np.ndarray, action: np.ndarray) -> np.ndarray:
    """melee.melee: initiative, contests and every attack in order; returns the first contest's winner
    (-1 where no one attacks), whom duel.details credits with the round."""
    f = play.fights
    attacks = (action == ATTACK) | (action == ALL_OUT)
    first = np.where(attacks.any(axis=0), attacks.argmax(axis=0), -1)
    going = np.flatnonzero(first >= 0)
    winner = np.full(f.size, -1)
    if going.size == 0:
        return winner
    totals = f.initiative(f.everyone(going))
    values = initiative(play, totals)
    sub = target[:, going], action[:, going], attacks[:, going]
    wins = contests(play, going, totals, values, *sub)
    winner[going] = np.take_along_axis(wins, first[None, going], axis=0)[0]
    if play.options["melee_order"] == "group_by_group":
        order = pair_order(wins, sub[0], sub[2])
    else:
        order = roll_order(values, totals, sub[2])
    defended = np.zeros((f.roster.count, going.size), np.int64)
    span = np.arange(going.size)
    for slot in range(order.shape[0]):
        on = sub[2].take(order[slot] * going.size + span)
        if not on.any():
            break
        a = f.cells(order[slot][on], going[on])
        t = f.cells(target.take(a.at), a.rows)
        ready = f.able(a) & f.able(t)
        if "skip_attack" in f.current:
            ready &= f.effect(a, "skip_attack") == 0
        strike(play, a[ready], t[ready], span[on][ready], action, defended)
    return winner


def contests(play: Play, rows: np.ndarray, totals: np.ndarray, values: np.ndarray, target: np.ndarray,
             action: np.ndarray, attacks: np.ndarray) -> np.ndarray:
    """melee.contests / _winner for the pair of every attacker and his target (N, n winner index; -1 for no
    attacker): a lost-initiative effect decides, else the higher roll, then total, then re-rolls of both,
    then the fighter listed first."""
    f = play.fights
    a = np.arange(target.shape[0])[:, None]
    t = np.maximum(target, 0)
    key = (values, totals)
    theirs = (np.take_along_axis(values, t, axis=0), np.take_along_axis(totals, t, axis=0))
    won = np.where(key[0] != theirs[0], key[0] > theirs[0], key[1] > theirs[1])
    tied = np.nonzero(attacks & (key[0] == theirs[0]) & (key[1] == theirs[1]))
    for _ in range(MAX_REROLLS - 1):
        if tied[0].size == 0:
            break
        mine = initiative(play, np.zeros(tied[0].size, np.int64))
        other = initiative(play, np.zeros(tied[0].size, np.int64))
        won[tied] = mine > other
        again = mine == other
        tied = (tied[0][again], tied[1][again])
    won[tied] = a[tied[0], 0] < t[tied]
    lost = np.broadcast_to(f.effect(f.everyone(rows), "lose_initiative") > 0, t.shape)
    lost_t = np.take_along_axis(lost, t, axis=0)
    won = np.where(lost != lost_t, lost_t, won)
    return np.where(attacks, np.where(won, a, t), -1)


def roll_order(values: np.ndarray, totals: np.ndarray, attacks: np.ndarray) -> np.ndarray:
    """Option `melee_order` initiative_roll: attackers by roll, then total, then matchup order (N, n)."""
    n = values.shape[0]
    if np.abs(values).max() < 2**40 and np.abs(totals).max() < 2**10 and n < 2**10:  # all but never
        key = ((values + 2**40) << 21) + ((totals + 2**10) << 10) + (2**10 - 1 - np.arange(n)[:, None])
        return np.argsort(np.where(attacks, -key, 1).T, axis=-1).T
    keys = (np.broadcast_to(np.arange(n)[:, None], values.shape).T, -totals.T, -values.T, ~attacks.T)
    return np.lexsort(keys, axis=-1).T


def pair_order(wins: np.ndarray, target: np.ndarray, attacks: np.ndarray) -> np.ndarray:
    """Option `melee_order` group_by_group: contest by contest (pairs in attacker order, each pair once),
    its winner then, if the two attack each other, the loser; then any attacker left, in matchup order."""
    n, m = wins.shape
    cols = np.arange(m)
    a = np.arange(n)[:, None]
    t = np.maximum(target, 0)
    back = np.take_along_axis(t, t, axis=0) == a
    repeat = attacks & back & (t < a) & np.take_along_axis(attacks, t, axis=0)  # the pair had its contest
    w = np.where(attacks & ~repeat, wins, -1)
    wt = np.where(w >= 0, t[np.maximum(w, 0), cols], 0)
    mutual = (w >= 0) & (t[wt, cols] == w) & attacks[wt, cols]
    seq = np.concatenate([np.stack([w, np.where(mutual, wt, -1)], axis=1).reshape(2 * n, m),
                          np.where(attacks, a, -1)])
    seq = np.where((seq >= 0) & attacks[np.maximum(seq, 0), cols], seq, -1)
    place = np.full((n, m), 3 * n)
    for k in range(seq.shape[0] - 1, -1, -1):
        on = seq[k] >= 0
        place[seq[k][on], cols[on]] = k
    return np.argsort(place, axis=0, kind="stable")


def strike(play: Play, a: Cells, t: Cells, sub: np.ndarray, action: np.ndarray, defended: np.ndarray) -> None:
    """melee.strike: attack roll against the defence roll (the defender's first of the round) or his bare
    total (later attacks, an all-out attacker), botches of both, then the blow if it landed and the attacker
    can still act. `sub` are the fights' columns in `defended`."""
    if a.size == 0:
        return
    f, o, n = play.fights, play.options, play.options["botch_dice"]
    mine, theirs = action.take(a.at), action.take(t.at)
    all_out = mine == ALL_OUT
    attack = f.attack(a) + f.effect(a, "attack") + 3 * all_out + f.effect(t, "opponent_attack")
    defence = f.defence(t) + f.effect(t, "defence") + 6 * (theirs == DESPERATE)
    allowed = np.where(theirs == ALL_OUT, 0, np.where(
        (theirs == DESPERATE) & (o["desperate_defence_rolls"] == "each_attack"), EACH_ATTACK, 1))
    slot = t.who * defended.shape[1] + sub
    rolled = defended.take(slot) < allowed
    add(defended, slot, 1)
    att, dfn = stress(play.rng, a.size, n), stress(play.rng, a.size, n)
    dfn.botches[~rolled] = 0
    margin = np.where(att.botched, 0, attack + att.value) - np.where(
        rolled, np.where(dfn.botched, 0, defence + dfn.value), defence)
    beat = margin >= 0 if o["attack_tie"] == "attacker" else margin > 0
    hit = ~att.botched & beat
    f.engage(a, t)
    play.count("attacks", a.size)
    play.count("stress_rolls", a.size + rolled.sum())
    botch(play, a[att.botched], "attack", att.botches[att.botched])
    botch(play, t[dfn.botched], "defence", dfn.botches[dfn.botched])
    landed = hit & f.able(a)
    a, t = a[landed], t[landed]
    damage = f.damage(a) + f.effect(a, "damage")
    land(play, a, t, damage, margin[landed] >= o["exceptional_margin"], all_out[landed], f.brawling(a))
