"""The flurries of an engagement group (rules document §8): flurry initiative, whom each fighter strikes,
who attacks next, running out of actions, and the maneuver after a pair's flurry (*Flurry Procedure*,
*Flurry Initiative*, *Defensive Responses*, *Running Out of Actions*, *Maneuver Tactics*)."""
from __future__ import annotations

from typing import Any

from service.rules.war_and_combat import hexes, task
from service.rules.war_and_combat.round.attacks import strike
from service.rules.war_and_combat.round.state import Round


def flurry_initiative(work: Round, group: list[str]) -> list[str]:
    """3d6 + FR each at the start of a flurry, highest first; ties rolled again or by FR (*Flurry
    Initiative*)."""
    totals = {}
    for ident in group:
        totals[ident] = work.dice.roll("flurry_initiative", 3, 6, work.people[ident]["fighter_rank"],
                                       combatant=ident).total
    for _ in range(10):
        values = list(totals.values())
        tied = [i for i in group if values.count(totals[i]) > 1]
        if not tied or work.options["flurry_initiative_tie"] != "reroll":
            break
        for ident in tied:
            totals[ident] = work.dice.roll("flurry_initiative", 3, 6, work.people[ident]["fighter_rank"],
                                           combatant=ident).total
    return sorted(group, key=lambda i: (-totals[i], -work.people[i]["fighter_rank"], group.index(i)))


def target_of(work: Round, ident: str, group: list[str]) -> str | None:
    """Whom a fighter strikes: his declared target when in the flurry and standing, else the one he is
    engaged with, else the nearest standing foe in reach."""
    d = work.decl.get(ident, {})
    for choice in (d.get("target"), work.primary.get(ident)):
        if choice in group and work.hostile(ident, choice) and not work.out(choice) \
                and hexes.distance(work.pos(ident), work.pos(choice)) <= max(work.reach(ident), 1):
            return choice
    foes = [o for o in group if work.hostile(ident, o) and not work.out(o)
            and hexes.distance(work.pos(ident), work.pos(o)) <= max(work.reach(ident), 1)]
    return min(foes, key=lambda o: hexes.distance(work.pos(ident), work.pos(o))) if foes else None


def flurry(work: Round, group: list[str], rank: dict[str, int]) -> None:
    """One flurry of an engagement group: attacks alternate on misses, the attacker keeps the initiative
    after a hit unless the defender can respond, a fighter out of actions ends his part and may take an
    indefensible blow (*Flurry Procedure*, *Defensive Responses*, *Running Out of Actions*)."""
    seq = flurry_initiative(work, group)
    turned = set()
    for ident in seq:
        c = work.people[ident]
        work.flurry_actions[ident] = (0 if not work.can_attack(ident) or ident in work.surprised else
                                      max(0, task.actions_per_flurry(c["fighter_rank"]) - c["actions_lost"]))
        target = target_of(work, ident, group)
        if target is not None and work.can_act(ident) and \
                hexes.side_of(c["facing"], work.pos(ident), work.pos(target)) != "front":
            c["facing"] = hexes.direction_to(work.pos(ident), work.pos(target))
            turned.add(ident)
    record: dict[str, Any] = {"combatants": seq, "actions": {i: work.flurry_actions[i] for i in seq},
                              "attacks": []}
    work.flurries.append(record)
    work.events.add("flurry_started", combatants=seq, actions=dict(record["actions"]))
    hits: dict[str, int] = {i: 0 for i in seq}
    done: set[str] = set()
    attacker = next((i for i in seq if work.flurry_actions[i] > 0 and target_of(work, i, group)), None)
    guard = 0
    while attacker is not None and guard < 500:
        guard += 1
        target = target_of(work, attacker, group)
        if target is None or attacker in done:
            done.add(attacker)
            attacker = next_attacker(work, seq, group, done)
            continue
        if work.flurry_actions[attacker] == 0 or not work.can_attack(attacker):
            # running out of actions: an opponent with two or more left may strike one indefensible blow
            cost = work.options["indefensible_attack_cost"]
            if work.flurry_actions.get(target, 0) >= 2 and work.can_attack(target) \
                    and target_of(work, target, group) == attacker:
                work.flurry_actions[target] -= min(cost, work.flurry_actions[target])
                if strike(work, target, attacker, group, turned, record, indefensible=True):
                    hits[target] += 1
            done.add(attacker)
            if len(seq) == 2:
                break  # a pair's flurry ends there
            attacker = next_attacker(work, seq, group, done)
            continue
        work.flurry_actions[attacker] -= 1
        lost_before = work.people[target]["actions_lost"]
        landed = strike(work, attacker, target, group, turned, record)
        if landed:
            hits[attacker] += 1
        if work.out(target):
            if target_of(work, attacker, group) is None:
                done.add(attacker)
                attacker = next_attacker(work, seq, group, done)
            continue
        if not landed:
            attacker = target if target not in done else attacker
            continue
        rule = work.options["hit_swap_rule"]
        able = (work.flurry_actions.get(target, 0) > 0 and work.can_attack(target)
                and not work.people[target]["fallen"] and target not in done)
        if rule == "always" and able or rule == "defender_if_able" and able and \
                work.people[target]["actions_lost"] == lost_before:
            attacker = target
    work.events.add("flurry_ended", combatants=seq, hits=hits)
    if work.options["tactic_winner_moves"] and len(seq) == 2:
        maneuver(work, seq, hits)


def next_attacker(work: Round, seq: list[str], group: list[str], done: set[str]) -> str | None:
    """The next fighter in flurry-initiative order who still has actions and a foe in reach."""
    for ident in seq:
        if ident not in done and work.flurry_actions.get(ident, 0) > 0 and work.can_attack(ident) \
                and target_of(work, ident, group) is not None:
            return ident
    return None


def maneuver(work: Round, pair: list[str], hits: dict[str, int]) -> None:
    """The net maneuver after a flurry: the fighter with more hits presses his foe back one hex (and
    follows), or retreats one hex (*Maneuver Tactics*)."""
    a, b = pair
    if hits[a] == hits[b]:
        return
    winner, loser = (a, b) if hits[a] > hits[b] else (b, a)
    tactic = work.decl.get(winner, {}).get("tactic", "hold")
    if work.out(winner) or tactic not in ("press", "retreat"):
        return
    if tactic == "press" and not work.out(loser):
        away = hexes.direction_to(work.pos(winner), work.pos(loser))
        spot = hexes.step(work.pos(loser), away)
        if not work.occupied(spot, loser):
            old = work.pos(loser)
            work.people[loser]["position"] = {"q": spot[0], "r": spot[1]}
            work.people[winner]["position"] = {"q": old[0], "r": old[1]}
            work.events.add("moved", combatant=loser, kind="pressed", to=dict(work.people[loser]["position"]))
            work.events.add("moved", combatant=winner, kind="press", to=dict(work.people[winner]["position"]))
    elif tactic == "retreat":
        away = hexes.direction_to(work.pos(loser), work.pos(winner))
        spot = hexes.step(work.pos(winner), away)
        if not work.occupied(spot, winner):
            work.people[winner]["position"] = {"q": spot[0], "r": spot[1]}
            work.events.add("moved", combatant=winner, kind="retreat", to=dict(work.people[winner]["position"]))
