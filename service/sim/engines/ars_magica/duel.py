"""The `ars-magica` duel round by round for a whole chunk of fights (engine.Engine.resolve under
duel.Duel.declare): declarations by option `ai_stance`, the initiative contest, attacks in melee order,
the all-out attacker's fatigue roll and next round's stance; finished fights leave the arrays each round."""
from __future__ import annotations

from typing import Any

import numpy as np

from service.rules.ars_magica.melee import MAX_REROLLS
from service.sim.engines.ars_magica.blows import Play, botch, fatigue_roll, land
from service.sim.engines.ars_magica.dice import stress
from service.sim.engines.ars_magica.fights import Fights, heavy_index
from service.sim.engines.ars_magica.figures import duellist, exceptional
from service.sim.engines.ars_magica.tally import Tally
from service.sim.stopping import checkpoint

ATTACK, ALL_OUT, PREPARE, DESPERATE = range(4)
STRIKES = (ATTACK, ALL_OUT)


def simulate(matchup: Any, trials: int, rng: np.random.Generator) -> dict[str, Any]:
    """`trials` duels of an accepted matchup: the tally `service.sim.rounds.play` would return."""
    options = matchup.options
    codes = {"standing": 0}
    people = [duellist(c, options, codes) for c in matchup.combatants]
    head = {level: exceptional(options["exceptional_effects"]["head"][name])
            for level, name in ((1, "minor"), (2, "major"), (3, "grave"))}
    play = Play(Fights(people, options, codes, trials), rng, options, head)
    tally = Tally(people, codes)
    cap, rounds, heavy = int(options["max_rounds"]), 0, heavy_index(options)
    while True:
        checkpoint()
        going = play.fights.able(0) & play.fights.able(1)
        tally.record(play, ~going, rounds, capped=False)
        play.fights.keep(going)
        if not play.fights.size:
            break
        if rounds == cap:
            tally.record(play, np.ones(play.fights.size, bool), rounds, capped=True)
            break
        rounds += 1
        round_(play, heavy)
    tally.counts(play.counts)
    return tally.as_dict(trials)


def declare(play: Play, heavy: int | None) -> np.ndarray:
    """duel._action for both duellists (2, n): attack, or by option `ai_stance` the all-out attack once
    ready / preparing it when the foe is hurt, or desperate defence from the `heavy` body level."""
    f, stance = play.fights, play.options["ai_stance"]
    action = np.full((2, f.size), ATTACK)
    for i in range(2):
        if stance == "all_out_when_opponent_hurt":
            action[i] = np.where(f.ready[i], ALL_OUT, np.where(f.body[1 - i] > 0, PREPARE, ATTACK))
        elif stance == "desperate_when_heavy" and heavy is not None:
            action[i] = np.where(f.body[i] >= heavy, DESPERATE, ATTACK)
    return action


def round_(play: Play, heavy: int | None) -> None:
    """engine.Engine.resolve for fights where both stand: melee, then all-out fatigue, then stances."""
    f = play.fights
    f.new_round()
    action = declare(play, heavy)
    winner = melee(play, action)
    for i in range(2):
        fatigue_roll(play, i, np.flatnonzero(action[i] == ALL_OUT), 6)
    for i in range(2):
        f.ready[i] = (action[i] == PREPARE) & f.able(i)
    details(play, winner)


def initiative(play: Play, total: np.ndarray) -> np.ndarray:
    """phases.initiative_roll: the Initiative total + a stress die without botch dice."""
    return total + stress(play.rng, total.size, 0).value


def melee(play: Play, action: np.ndarray) -> np.ndarray:
    """melee.melee for two duellists; returns the initiative contest's winner (-1: no one attacked)."""
    f = play.fights
    rows = np.flatnonzero(np.isin(action, STRIKES).any(axis=0))
    winner = np.full(f.size, -1)
    if rows.size == 0:
        return winner
    totals = [f.totals(i, rows)["initiative"] for i in range(2)]
    values = [initiative(play, totals[i]) for i in range(2)]
    won = contest(play, rows, totals, values)
    winner[rows] = won
    if play.options["melee_order"] == "group_by_group":
        first = won
    else:
        first = np.where((values[1] > values[0]) | ((values[1] == values[0]) & (totals[1] > totals[0])), 1, 0)
    for slot in range(2):
        for a in range(2):
            mine = rows[(first == a) if slot == 0 else (first != a)]
            mine = mine[np.isin(action[a, mine], STRIKES)]
            mine = mine[f.able(a, mine) & f.able(1 - a, mine) & (f.effect(a, "skip_attack", mine) == 0)]
            strike(play, a, mine, action)
    return winner


def contest(play: Play, rows: np.ndarray, totals: list, values: list) -> np.ndarray:
    """melee._winner: a lost-initiative effect decides; else the higher roll, then total, then re-rolls,
    then the first combatant."""
    f = play.fights
    lost = [f.effect(i, "lose_initiative", rows) > 0 for i in range(2)]
    won = np.where(values[0] != values[1], np.where(values[0] > values[1], 0, 1),
                   np.where(totals[0] > totals[1], 0, 1))
    tied = np.flatnonzero((values[0] == values[1]) & (totals[0] == totals[1]))
    for _ in range(MAX_REROLLS - 1):
        if tied.size == 0:
            break
        again = [initiative(play, totals[i][tied]) for i in range(2)]
        won[tied] = np.where(again[0] > again[1], 0, 1)
        tied = tied[again[0] == again[1]]
    won[tied] = 0
    return np.where(lost[0] != lost[1], np.where(lost[0], 1, 0), won)


def strike(play: Play, a: int, rows: np.ndarray, action: np.ndarray) -> None:
    """melee.strike: attack roll against the defence roll (an all-out attacker's bare total), botches of
    both, then the blow if it landed and the attacker can still act."""
    if rows.size == 0:
        return
    f, t, n, o = play.fights, 1 - a, play.options["botch_dice"], play.options
    all_out = action[a, rows] == ALL_OUT
    attack = f.totals(a, rows)["attack"] + f.effect(a, "attack", rows) + 3 * all_out + f.effect(
        t, "opponent_attack", rows)
    defence = f.totals(t, rows)["defence"] + f.effect(t, "defence", rows) + 6 * (action[t, rows] == DESPERATE)
    rolled = action[t, rows] != ALL_OUT
    att, dfn = stress(play.rng, rows.size, n), stress(play.rng, rows.size, n)
    dfn.botches[~rolled] = 0
    margin = np.where(att.botched, 0, attack + att.value) - np.where(
        rolled, np.where(dfn.botched, 0, defence + dfn.value), defence)
    beat = margin >= 0 if o["attack_tie"] == "attacker" else margin > 0
    hit = ~att.botched & beat
    play.count("attacks", rows.size)
    play.count("stress_rolls", rows.size + rolled.sum())
    botch(play, a, "attack", rows[att.botched], att.botches[att.botched], t)
    botch(play, t, "defence", rows[dfn.botched], dfn.botches[dfn.botched], a)
    landed = hit & f.able(a, rows)
    hits = rows[landed]
    damage = f.totals(a, hits)["damage"] + f.effect(a, "damage", hits)
    brawling = f.people[a].brawling & ~f.broken[a, hits]
    land(play, a, t, hits, damage, margin[landed] >= o["exceptional_margin"], all_out[landed], brawling)


def details(play: Play, winner: np.ndarray) -> None:
    """duel.details for the round: decided rounds (someone lost levels) and those the contest winner won."""
    f = play.fights
    decided = (winner >= 0) & (f.inflicted.sum(axis=0) > 0)
    rows = np.flatnonzero(decided)
    if rows.size:
        w = winner[rows]
        play.count("decided_rounds", rows.size)
        play.count("first_strike_rounds", (f.inflicted[w, rows] > f.inflicted[1 - w, rows]).sum())
