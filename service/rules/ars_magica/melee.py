"""*3. Melee* in the round engine: initiative contests, the winner pushing the loser back, attacks in order
of initiative rolls, one defence roll per defender (later attacks meet his total), stances (*Combat
considerations*) and two weapons."""
from __future__ import annotations

from typing import Any

from service.rules.ars_magica import botches, to_hit, totals
from service.rules.ars_magica.phases import initiative_roll, land, self_damage
from service.rules.ars_magica.work import Round

MELEE_ACTIONS = ("attack", "all_out_attack")
MAX_REROLLS = 20


def melee(work: Round) -> tuple[list[dict[str, Any]], list[str]]:
    """The melee phase; returns the initiative rolls (contest order) and the order attacks were made."""
    attacks = [i for i in work.order if work.action(i) in MELEE_ACTIONS and work.able(i)
               and work.able(work.declared[i]["target"])]
    taking_part = [i for i in work.order if i in attacks or any(work.declared[a]["target"] == i for a in attacks)]
    rolls = {i: initiative_roll(work, i) for i in taking_part}
    ranked = sorted(rolls.values(), key=lambda r: (-r["value"], -r["total"], work.order.index(r["combatant"])))
    winners = contests(work, attacks, rolls)
    if work.options["melee_order"] == "group_by_group":
        order = [a for w in winners for a in (w, *[x for x in attacks if work.declared[x]["target"] == w
                                                   and work.declared[w]["target"] == x]) if a in attacks]
        order = list(dict.fromkeys(order + attacks))
    else:
        order = [r["combatant"] for r in ranked if r["combatant"] in attacks]
    defended: dict[str, int] = {}
    made = []
    for ident in order:
        hands = ("weapon", "off_hand") if work.declared[ident].get("two_weapons") == "attack_twice" else ("weapon",)
        for hand in hands:
            if work.able(ident) and work.able(work.declared[ident]["target"]) and not work.effect(ident,
                                                                                                  "skip_attack"):
                strike(work, ident, defended, hand)
                made.append(ident)
    return ranked, made


def contests(work: Round, attacks: list[str], rolls: dict[str, dict[str, Any]]) -> list[str]:
    """One initiative contest per engaged pair: the higher roll wins (ties: higher total, then a re-roll,
    option `initiative_tie`; a botch entry can make one lose); the loser is pushed back one yard unless he
    holds ground. Returns the winners in contest order."""
    seen, winners = set(), []
    for a in attacks:
        b = work.declared[a]["target"]
        if frozenset((a, b)) in seen:
            continue
        seen.add(frozenset((a, b)))
        winner = _winner(work, a, b, rolls)
        loser = b if winner == a else a
        work.emit("initiative_contest", combatant=winner, loser=loser, rolls={a: rolls[a]["value"], b: rolls[b]["value"]})
        winners.append(winner)
        if not work.declared.get(loser, {}).get("hold_ground"):
            sign = 1 if work.people[loser]["position_yd"] >= work.people[winner]["position_yd"] else -1
            work.people[loser]["position_yd"] += sign
            work.emit("pushed_back", combatant=loser, by=winner, yards=1, position_yd=work.people[loser]["position_yd"])
    return winners


def _winner(work: Round, a: str, b: str, rolls: dict[str, dict[str, Any]]) -> str:
    lost_a, lost_b = work.effect(a, "lose_initiative") > 0, work.effect(b, "lose_initiative") > 0
    if lost_a != lost_b:
        return b if lost_a else a
    key = {i: (rolls[i]["value"], rolls[i]["total"]) for i in (a, b)}
    for _ in range(MAX_REROLLS):
        if key[a] != key[b]:
            return a if key[a] > key[b] else b
        key = {i: (initiative_roll(work, i)["value"],) for i in (a, b)}
    return a if work.order.index(a) < work.order.index(b) else b


def strike(work: Round, ident: str, defended: dict[str, int], hand: str = "weapon") -> None:
    """One melee attack: attack roll against the target's defence roll (his first of the round) or total;
    `hand` is `off_hand` for the second attack of *Two weapons* (attack twice)."""
    d = work.declared[ident]
    target = d["target"]
    attack = attack_total(work, ident, hand)
    defence, mode = defence_total(work, target, defended)
    n = work.options["botch_dice"]
    swing = to_hit.roll_melee(attack, defence, mode, {"attack": n, "defence": n}, work.options, work.dice, ident,
                              target, ("attack", "botch", "defence", "botch"))
    work.engage(ident, target)
    work.emit("attack_rolled", combatant=ident, target=target, hand=hand, attack_total=attack,
              attack_roll=swing.attack_roll, defence_total=defence, defence_mode=mode, margin=swing.margin,
              outcome=swing.outcome)
    if swing.defence_die is not None:
        work.emit("defence_rolled", combatant=target, attacker=ident, defence_total=defence,
                  defence_roll=swing.defence_roll)
    if swing.attack_botches:
        botches.botch(work, ident, "attack", swing.attack_botches, target, self_damage(work))
    if swing.defence_botches:
        botches.botch(work, target, "defence", swing.defence_botches, ident, self_damage(work))
    if swing.outcome in ("hit", "exceptional") and work.able(ident):
        mine = work.totals(ident, hand)
        weapon = totals.weapon_of(work.people[ident][hand], work.options["weapon_pack"], (hand,))
        damage = mine.damage + work.effect(ident, "damage") + _two_weapon(work, ident, "damage", hand)
        land(work, ident, target, damage, swing.outcome == "exceptional", d["location"],
             d["action"] == "all_out_attack", brawling=weapon.name in ("unarmed", "brawling"))


def attack_total(work: Round, ident: str, hand: str = "weapon") -> int:
    """Attack total + effects + all-out +3 + two-weapon bonus and penalty + the target's "opponent +5"."""
    d = work.declared[ident]
    base = work.totals(ident, hand).attack + work.effect(ident, "attack")
    bonus = 3 if d["action"] == "all_out_attack" else 0
    return base + bonus + _two_weapon(work, ident, "attack", hand) + work.effect(d["target"], "opponent_attack")


def defence_total(work: Round, target: str, defended: dict[str, int]) -> tuple[int, str]:
    """The target's defence total and whether he rolls: one roll a round (desperate defence: against each
    attack, option `desperate_defence_rolls`; two weapons defending twice: two), none in an all-out attack."""
    d = work.declared.get(target, {"action": "none", "hold_ground": False, "two_weapons": None})
    total = work.totals(target).defence + work.effect(target, "defence")
    total += (6 if d["action"] == "desperate_defence" else 0) - (2 if d.get("hold_ground") else 0)
    total += _two_weapon(work, target, "defence")
    allowed = 1
    if d["action"] == "desperate_defence":
        allowed = 10_000 if work.options["desperate_defence_rolls"] == "each_attack" else 1
    if d.get("two_weapons") == "defend_twice":
        allowed = max(allowed, 2)
    if d["action"] == "all_out_attack":
        allowed = 0
    used = defended.get(target, 0)
    defended[target] = used + 1
    return total, "roll" if used < allowed else "total"


def _two_weapon(work: Round, ident: str, total: str, hand: str = "weapon") -> int:
    d = work.declared.get(ident)
    person = work.people[ident]
    if d is None or not d.get("two_weapons") or person["off_hand"] is None:
        return 0
    pack = work.options["weapon_pack"]
    main = totals.weapon_of(person["weapon"], pack, ("weapon",))
    off = totals.weapon_of(person["off_hand"], pack, ("off_hand",))
    adjust = totals.two_weapon_adjustments(d["two_weapons"], main, off, person["ambidextrous"]) or {}
    penalty = 0
    off_hand = hand == "off_hand" or (total == "defence" and d["two_weapons"] == "attack_and_defend")
    if total in work.options["two_weapon_penalties_on"]:
        penalty = adjust["off_penalty"] if off_hand else adjust["main_penalty"]
    bonus = {"attack": adjust["attack_bonus"], "defence": adjust["defence_bonus"]}.get(total, 0)
    return bonus + penalty
