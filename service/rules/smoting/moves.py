"""Movement inside a round: zone moves, battle and trivial moves, withdrawing, bottlenecks and
opportunity attacks (seed *Types of Movement*, *Move rolls*, *Bottlenecks*, *Status*; smoting.md 7)."""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.smoting import fighters, strikes
from service.rules.smoting.board import Board
from service.rules.smoting.movement import FREE_MOVE_DICE


def move_pool(board: Board, who: str) -> int:
    """Movement dice + AGL, +1 running, -2 stunned, - negative ranks (seed *Move rolls*)."""
    me = board.fighters[who]
    n = me["movement_dice"] + me["attributes"]["agl"] + int(me["flags"]["running"]) - 2 * int(me["flags"]["stunned"])
    n -= board.options["negative_rank_penalty"] * max(0, -fighters.remaining(me, "physical"))
    return max(n, 1) if me["movement_dice"] >= 1 else 0


def disengage(board: Board, who: str) -> None:
    """Leave every InContact group: `who` and any foe left without enemies become Alone (seed *Status*)."""
    me = board.fighters[who]
    for other in me["engaged_with"]:
        them = board.fighters[other]
        them["engaged_with"] = [x for x in them["engaged_with"] if x != who]
        if not any(board.enemies(other, x) for x in them["engaged_with"]):
            them["status"], them["engaged_with"] = "alone", []
    me["status"], me["engaged_with"] = "alone", []


def engage(board: Board, who: str, target: str) -> None:
    """Join the target's melee: both InContact, each in the other's group (seed *Status*)."""
    for a, b in ((who, target), (target, who)):
        f = board.fighters[a]
        if b not in f["engaged_with"]:
            f["engaged_with"].append(b)
        if f["status"] in ("alone", "boundary"):
            f["status"] = "in_contact"


def opportunity(board: Board, who: str) -> None:
    """Leaving InContact by a move: each engaged enemy holding a die of 2+ spends its lowest and strikes
    once (option `opportunity_attacks`; the seed's heading is empty)."""
    if board.options["opportunity_attacks"] == "none":
        return
    for other in list(board.fighters[who]["engaged_with"]):
        hand = board.hand(other)
        die = hand.lowest_non_one()
        if die is None or not board.active(other) or not board.enemies(who, other) or not board.active(who):
            continue
        hand.take(die)
        board.emit("opportunity_attack", combatant=other, target=who, die=die)
        strikes.strike(board, other, who, 0, {})


def battle_roll(board: Board, who: str) -> bool:
    """A battle or trivial move: rolled only below 4 dice, one success needed (seed *Move rolls*)."""
    n = move_pool(board, who)
    if n >= FREE_MOVE_DICE:
        return True
    _, got = board.pool("move", n, who)
    return got >= 1


def move(board: Board, who: str, plan: Mapping[str, Any]) -> None:
    """A declared move (seed *Types of Movement*)."""
    me, kind, to = board.fighters[who], plan.get("kind", "zone"), plan.get("to")
    if kind == "battle":
        ok = battle_roll(board, who)
        if ok and to in board.fighters and board.active(to):
            engage(board, who, to)
        board.emit("moved", combatant=who, kind="battle", to=to, result="done" if ok else "failed")
        return
    if kind == "trivial":
        ok = me["status"] == "alone" and battle_roll(board, who)
        board.emit("moved", combatant=who, kind="trivial", to=to, result="done" if ok else "failed")
        return
    _zone_move(board, who, to)


def _zone_move(board: Board, who: str, to: str | None) -> None:
    me = board.fighters[who]
    if me["status"] in ("in_contact", "in_close"):
        opportunity(board, who)
        if not board.active(who):
            return
        disengage(board, who)
    if not _passable(board, me["zone"], to):
        board.emit("moved", combatant=who, kind="zone", to=to, result="blocked")
        return
    _, got = board.pool("move", move_pool(board, who), who)
    result = "arrive" if got >= 2 else "boundary" if got == 1 else "stay"
    if result == "arrive":
        board.crossings[frozenset((me["zone"], to))] = board.crossings.get(frozenset((me["zone"], to)), 0) + 1
        me["zone"], me["status"] = to, "alone"
    elif result == "boundary":
        me["status"] = "boundary"
    board.emit("moved", combatant=who, kind="zone", to=to, result=result, successes=got)


def _passable(board: Board, here: str | None, to: str | None) -> bool:
    """Adjacent zones, and a bottleneck's capacity not used up this round (seed *Bottlenecks*)."""
    if not board.zones:
        return True
    if here not in board.zones or to not in board.zones[here]["adjacent"]:
        return False
    for a, b in ((here, to), (to, here)):
        neck = board.zones[a].get("bottleneck")
        if neck and neck["to"] == b and board.crossings.get(frozenset((a, b)), 0) >= neck["capacity"]:
            return False
    return True


def withdraw(board: Board, who: str) -> None:
    """Withdraw: leave InContact safely, Alone (seed *Status*)."""
    disengage(board, who)
    board.emit("moved", combatant=who, kind="withdraw", to=None, result="done")
