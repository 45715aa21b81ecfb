"""One attack inside a round: the defence, the attack roll, damage, soak, stun, rank loss, crossover,
trauma and injuries, out of action and KIA (seed *Attacks*, *Defences*, *Maintaining a Defence Pool*,
*Damage*, *Soak Rolls*, *Stun.*, *Damage/Defeat*, *CrossOver Damage*, *OoA and KIA*, *Injury Table*)."""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.smoting import damage as dmg
from service.rules.smoting import fighters, pools
from service.rules.smoting import injury as inj
from service.rules.smoting.board import Board

MISSILES = ("thrown", "fired")


def attack_dice(board: Board, who: str, target: str, distance: int) -> int:
    """Attack Xposure + group dice (option `group_dice_to`) - running missile target - range - negative
    ranks, floored by `min_attack_dice` (seed *Attacks*, *Running*, *Range Modifiers ToHit*)."""
    me, them, o = board.fighters[who], board.fighters[target], board.options
    kind = me["weapon"]["kind"]
    n = me["xposures"]["attack"] + (fighters.group_of(me)["dice"] if o["group_dice_to"] == "attack_dice" else 0)
    n -= int(kind in MISSILES and them["flags"]["running"]) + o["range_penalty_per_zone"] * distance
    n -= o["negative_rank_penalty"] * max(0, -fighters.remaining(me, "physical"))
    return max(n, o["min_attack_dice"])


def _base_pool(me: Mapping[str, Any], them: Mapping[str, Any], extra: int) -> int:
    """The damage dice before a block, by the calculators' own rule (a small weapon in close: 2 dice less)."""
    close_small = me["status"] == "in_close" and me["weapon"]["size"] == "small"
    return dmg.base_pool(me["weapon"]["damage_dice"], me["attributes"]["str"], extra, -2 * close_small,
                         them["armor_resist"])


def _block(board: Board, target: str, successes: int | None) -> dmg.Block | None:
    """The block a blow meets (RULINGS 22: its successes and the shield's factor come off the dice)."""
    if successes is None or target in board.surprised:
        return None
    return dmg.Block(pool=successes, factor=(board.fighters[target]["shield"] or {}).get("block_factor", 0))


def _defence(board: Board, target: str, kind: str, declared: Mapping[str, Any], attacker_speed_gap: bool,
             missile: str) -> int | None:
    """The defence successes applied (None: no defence): a live pool of the declared type, else a fresh
    roll paid with a non-1 die (options `defence_die`; declaration `defend_if`)."""
    me, hand = board.fighters[target], board.hand(target)
    if kind == "none" or target in board.surprised or me["flags"]["stunned"] or not board.active(target):
        return None
    live = me["defence_pool"]
    if live and live["type"] == kind:
        used = live["successes"]
        me["defence_pool"] = {"type": kind, "successes": used - 1} if used > 1 else None
        return used
    spare = [d for d in hand.dice if d >= 2]
    if not spare or (declared.get("defend_if") == "spare" and len(spare) < 2 and not attacker_speed_gap):
        return None
    if me["xposures"][kind] <= 0:
        return None
    hand.take(min(spare) if board.options["defence_die"] == "lowest_non_one" else max(spare))
    n = me["xposures"][kind] - int(me["flags"]["running"]) - 2 * (kind == "dodge" and missile == "fired")
    faces, got = board.pool("defence", max(n, 0), target)
    board.emit("defence_rolled", combatant=target, defence=kind, faces=faces, successes=got)
    me["defence_pool"] = {"type": kind, "successes": got - 1} if got > 1 else None
    return got


def strike(board: Board, who: str, target: str, distance: int, declared: Mapping[str, Any]) -> None:
    """One attack of `who` on `target` (smoting.md section 4 and 5, in the round)."""
    me, them, o = board.fighters[who], board.fighters[target], board.options
    n = attack_dice(board, who, target, distance)
    kind = declared.get("defence", "none")
    hand = board.hand(target)
    cannot_reach = max(hand.dice, default=0) + hand.pool + int(1 in hand.dice) < them["weapon"]["speed"]
    used = _defence(board, target, kind, declared, cannot_reach, me["weapon"]["kind"])
    dodge, parry, block = (used if kind == name else None for name in ("dodge", "parry", "block"))
    rolled = max(n - (dodge or 0), 1 if (dodge and o["dodge_floor"] == "one") else 0)
    faces, got = board.pool("attack", rolled, who)
    net = got - (parry or 0)
    board.emit("attack_rolled", combatant=who, target=target, dice=rolled, faces=faces, successes=got, net=net)
    if net < 1:
        return
    board.emit("hit", combatant=who, target=target, extra_successes=net - 1)
    if them["flags"]["ooa"]:
        _finish_off(board, target)
        return
    pool = dmg.dice_rolled(_base_pool(me, them, net - 1), _block(board, target, block), block or 0)
    faces, damage = board.pool("damage", pool, who)
    board.emit("damage_rolled", combatant=who, target=target, dice=pool, faces=faces, damage=damage)
    damage -= _soak(board, target, damage, declared)
    land(board, who, target, damage)


def _finish_off(board: Board, target: str) -> None:
    """A hit on a creature already out of action: BODY roll or killed (seed *OoA and KIA*)."""
    them = board.fighters[target]
    _, got = board.pool("body", max(4 + them["attributes"]["bod"], 1), target)
    if got < 1:
        them["flags"]["kia"] = True
        board.emit("killed", combatant=target, cause="hit_while_out_of_action")


def _soak(board: Board, target: str, damage: int, declared: Mapping[str, Any]) -> int:
    """Heroic soak, paid with a 1 or by burning a die (seed *Soak Rolls*; declaration `soak`: auto soaks
    when a 1 is at hand or the damage exceeds T)."""
    them, hand = board.fighters[target], board.hand(target)
    policy = declared.get("soak", "auto")
    n = dmg.soak_pool(them["attributes"], board.options["soak_attributes"])
    if (damage < 1 or not them["heroic"] or target in board.surprised or policy == "never" or n <= 0
            or not hand.dice):
        return 0
    over = damage > fighters.threshold(them, "physical")
    if policy == "auto" and 1 not in hand.dice and not over:
        return 0
    if 1 in hand.dice:
        hand.dice.remove(1)
    else:
        board.burn(target, 1)
    faces, got = board.pool("soak", n, target)
    board.emit("soaked", combatant=target, dice=n, faces=faces, soaked=min(got, damage))
    return min(got, damage)


def land(board: Board, who: str, target: str, damage: int) -> None:
    """Final damage against T: stun or a defeat, trauma, killing blow, massive (seed *Damage/Defeat*)."""
    them, o = board.fighters[target], board.options
    t = fighters.threshold(them, "physical")
    band = dmg.band_of(damage, t, "physical", o)
    if band == "no_damage":
        return
    if band == "massive":
        them["flags"]["kia"] = True
        board.emit("killed", combatant=target, cause="massive", damage=damage)
        return
    if o["take_stun"] and not them["flags"]["stunned"]:
        stun(board, target)
    else:
        lose(board, target, "physical", 1, "defeat")
    if band in ("trauma", "killing_blow"):
        board.emit("trauma", combatant=target, damage=damage, killing_blow=band == "killing_blow")
        if band == "killing_blow":
            them["flags"]["ooa"] = True
            board.emit("out_of_action", combatant=target, cause="killing_blow")
        injure(board, who, target, band == "killing_blow")
    check_out(board, target)


def stun(board: Board, target: str) -> None:
    """Stunned: every pending pool (discard pool, held die, defence pool) is lost (seed *Stun.*)."""
    them = board.fighters[target]
    them["flags"]["stunned"] = True
    them["held_die"], them["defence_pool"] = None, None
    board.hand(target).pool = 0
    board.emit("stunned", combatant=target)


def lose(board: Board, target: str, domain: str, count: int, cause: str) -> None:
    """Direct rank losses and the crossover they cause (every `crossover_every`-th loss costs a rank of
    the other domain, which causes no further crossover) (seed *CrossOver Damage*)."""
    them, every = board.fighters[target], board.options["crossover_every"]
    other = "mental" if domain == "physical" else "physical"
    for _ in range(count):
        them[f"lost_{domain}"] += 1
        board.emit("rank_lost", combatant=target, domain=domain, cause=cause)
        them[f"crossover_{domain}"] += 1
        if them[f"crossover_{domain}"] >= every:
            them[f"crossover_{domain}"] = 0
            them[f"lost_{other}"] += 1
            board.emit("crossover", combatant=target, domain=other)


def injure(board: Board, who: str, target: str, killing_blow: bool) -> None:
    """Roll location and effect and apply the effect's losses, burns and saves (seed *Injury Table*)."""
    o, them = board.options, board.fighters[target]
    faces = pools.plain(board.dice, "location", 4, who).dice
    face, shift = inj.deciding_face(faces)
    place = o["injury_location_map"][str(face)]
    row, effect = inj.effect(place, pools.plain(board.dice, "effect", 1, who).total, killing_blow,
                             o["injury_effects"])
    board.emit("injury", combatant=target, faces=list(faces), location=place, shift=shift, effect_roll=row,
               effect=effect)
    data = inj.effect_data(effect)
    for domain in ("physical", "mental"):
        if data[domain]:
            lose(board, target, domain, data[domain], effect)
    board.burn(target, data["burn"])
    if data.get("discard_all"):
        board.hand(target).dice.clear()
    save = data.get("save")
    if save and not them["flags"]["ooa"]:
        _, got = board.pool("body", max(4 + them["attributes"][save["attribute"]] + save["dice"], 1), target)
        if got < 1:
            them["flags"]["ooa"] = True
            board.emit("out_of_action", combatant=target, cause=effect)


def check_out(board: Board, target: str) -> None:
    """Out of action at 0 remaining ranks (-3 heroic) in the physical domain, or either (option
    `ooa_domain`) (seed *OoA and KIA*)."""
    them = board.fighters[target]
    if them["flags"]["ooa"] or them["flags"]["kia"]:
        return
    floor = -3 if them["heroic"] else 0
    domains = ("physical", "mental") if board.options["ooa_domain"] == "either" else ("physical",)
    if any(fighters.remaining(them, d) <= floor for d in domains):
        them["flags"]["ooa"] = True
        board.emit("out_of_action", combatant=target, cause="ranks")
