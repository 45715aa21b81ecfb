"""One round: action dice, the countdown, actions and their costs, held actions and the closing die
(seed *Sequence of Play*, *Initiative & Actions*, *The Countdown*, *Actions*, *Action Costs*, *Held
Actions*, *Initiative dice of 1*, *Stun.*, *Surprise*; smoting.md section 8). Every choice the seed leaves
to the game master is an option or a declaration field; a tie the countdown cannot break is settled by a
recorded die (role `tie_break`) or by the state's order (option `tie_break`)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.smoting import combatant as derive
from service.rules.smoting import fighters, moves, pools, strikes
from service.rules.smoting.board import Board

ACTIONS = ("attack", "move", "withdraw", "idle", "held_action")  # entries that count as an action taken
MAX_KEPT = 8


def roll_action_dice(board: Board, ident: str) -> list[int]:
    """Base 4 + modifier (+ group dice), at least 1 (re-rolling a 1), the best 8 kept (seed *Initiative &
    Actions*; option `excess_action_dice`)."""
    me = board.fighters[ident]
    count = derive.action_dice(me["action_dice_modifier"], me["group"], board.options)
    if count["reroll_ones"]:
        faces = [board.dice.take("action", 6, ident)]
        while faces[-1][0] == 1:
            faces.append(board.dice.take("action", 6, ident))
        board.dice.record("action", "1d6", [f for f, _ in faces], faces[-1][0], all(s for _, s in faces), ident)
        return [faces[-1][0]]
    faces = list(pools.plain(board.dice, "action", count["rolled"], ident).dice)
    return sorted(faces, reverse=True)[:MAX_KEPT] if len(faces) > MAX_KEPT else faces


def start(board: Board, declarations: Mapping[str, Mapping[str, Any]], surprise: bool) -> dict[str, list[int]]:
    """Step c: everyone still fighting (and not surprised) rolls; a held die stays held under a `hold`
    declaration, else it rejoins the dice; injury burns apply (seed *Held Actions*, *Injury Table*)."""
    rolled = {}
    for ident in board.order:
        me, hand = board.fighters[ident], board.hand(ident)
        if not board.active(ident) or (surprise and ident in board.surprised):
            continue
        faces = roll_action_dice(board, ident)
        rolled[ident], hand.dice, hand.rolled = list(faces), faces, True
        if me["held_die"] is not None:
            if declarations.get(ident, {}).get("action") == "hold":
                hand.held = me["held_die"]
            else:
                hand.dice.append(me["held_die"])
            me["held_die"] = None
        board.burn(ident, me["burn_each_round"])
        board.emit("action_dice_rolled", combatant=ident, faces=list(faces), held=hand.held)
    return rolled


def pick(board: Board, candidates: list[str]) -> str:
    """The next actor: highest single die, then most dice, then player characters, then option
    `tie_break` (seed *The Countdown*)."""
    hands, people = board.hands, board.fighters

    def key(ident: str) -> tuple[int, int, bool]:
        dice = hands[ident].dice
        return (-max(dice), -len(dice), not people[ident]["pc"])
    keys = {i: key(i) for i in candidates}
    best = min(keys.values())
    return _settle(board, [i for i in candidates if keys[i] == best])


def _leaders(board: Board, watch_closing: bool) -> tuple[list[str], int, bool]:
    """The candidates `pick` would tie on first (every active fighter with a die of 2+ has a say), in the
    state's order, their highest die, and (when `watch_closing`) whether `closing_due` holds: one pass over
    the hands, the countdown's hot loop."""
    people, tied = board.fighters, []
    best_top = best_len = 0
    best_pc = due = False
    no_dice = board.options["closing_trigger"] == "no_dice"
    for ident, hand in board.hands.items():
        dice = hand.dice
        me = people[ident]
        flags = me["flags"]
        if flags["ooa"] or flags["kia"] or flags["crushed"]:  # fighters.active, inlined
            continue
        top = max(dice) if dice else 0
        if watch_closing and not due and hand.rolled and hand.held is None:
            due = not dice or (not no_dice and top < 2)
        if top < 2 or top < best_top:
            continue
        n, pc = len(dice), me["pc"]
        if top == best_top:
            if n < best_len or (n == best_len and best_pc and not pc):
                continue
            if n == best_len and pc == best_pc:
                tied.append(ident)
                continue
        best_top, best_len, best_pc, tied = top, n, pc, [ident]
    return tied, best_top, due


def _settle(board: Board, tied: list[str]) -> str:
    """The last countdown tie-break: option `tie_break` (a recorded die, or the state's order)."""
    if len(tied) == 1 or board.options["tie_break"] == "state_order":
        return tied[0]
    face = pools.plain(board.dice, "tie_break", 1, sides=len(tied)).total
    board.emit("tie_broken", tied=tied, die=face, combatant=tied[face - 1])
    return tied[face - 1]


def closing_due(board: Board) -> bool:
    """Closing is called once a participant holds no die of 2+ (or no die at all: option
    `closing_trigger`); a held die counts (seed *Actions*)."""
    no_dice = board.options["closing_trigger"] == "no_dice"
    people = board.fighters
    for ident, hand in board.hands.items():
        if not hand.rolled or hand.held is not None or not fighters.active(people[ident]):
            continue
        dice = hand.dice
        if not dice or (not no_dice and max(dice) < 2):
            return True
    return False


def _entry(ident: str, die: int | None, action: str, plus_one: bool, pool: int) -> dict[str, Any]:
    return {"combatant": ident, "die": die, "action": action, "plus_one": plus_one, "pool": pool}


def act(board: Board, ident: str, declared: Mapping[str, Any], declarations: Mapping[str, Any]) -> dict[str, Any]:
    """The actor's call: stun recovery, then its declaration's cost and effect (seed *Actions*, *Stun.*)."""
    me, hand, o = board.fighters[ident], board.hand(ident), board.options
    action = declared.get("action", "pass")
    if me["flags"]["stunned"] and o["use_ones"] == "auto" and 1 in hand.dice and o["one_die_stun"] == "remove":
        hand.dice.remove(1)
        me["flags"]["stunned"] = False
        board.emit("stun_removed", combatant=ident, by="one")
    if me["flags"]["stunned"]:
        die = hand.take(hand.top())
        if o["stun_recovery"] == "roll":
            _, got = board.pool("body", max(4 + me["attributes"]["bod"], 1), ident)
            if got < 1:
                return _entry(ident, die, "recover", False, hand.pool)
        me["flags"]["stunned"] = False
        board.emit("stun_removed", combatant=ident, by=o["stun_recovery"])
        if o["stun_recovery"] == "spend":
            return _entry(ident, die, "recover", False, hand.pool)
        hand.dice.append(die)  # a passed BODY roll: the die is used normally
    if action != "attack":
        hand.pool = 0  # a stopped action loses its discard pool (seed *Action Costs*)
    if action == "pass":
        return _entry(ident, hand.take(min(hand.dice)), "pass", False, hand.pool)
    if action == "hold":
        if hand.held is None:
            hand.held = hand.take(hand.top())
            return _entry(ident, hand.held, "hold", False, hand.pool)
        return _entry(ident, hand.take(min(hand.dice)), "hold", False, hand.pool)
    me["defence_pool"] = None  # any action other than discarding ends a live defence (seed *Maintaining ...*)
    die = hand.take(hand.top())
    if action == "attack":
        return attack(board, ident, die, declared, declarations, "attack")
    if action == "move":
        moves.move(board, ident, declared.get("move") or {})
    elif action == "withdraw":
        moves.withdraw(board, ident)
    return _entry(ident, die, action, False, hand.pool)


def attack(board: Board, ident: str, die: int, declared: Mapping[str, Any], declarations: Mapping[str, Any],
           label: str) -> dict[str, Any]:
    """Pay for an attack: the die (+ the discard pool, + one 1 under `use_ones`) must reach the weapon's
    speed, else the die is saved toward it (seed *Action Costs*, *Initiative dice of 1*)."""
    me, hand, o = board.fighters[ident], board.hand(ident), board.options
    total, speed, plus_one = hand.pool + die, me["weapon"]["speed"], False
    if total < speed and o["use_ones"] == "auto" and 1 in hand.dice and total + 1 >= speed:
        hand.dice.remove(1)
        total, plus_one = total + 1, True
    if total < speed:
        hand.pool = total
        return _entry(ident, die, "accumulate" if label == "attack" else label, False, hand.pool)
    hand.pool = 0
    target = declared["target"]
    flags = board.fighters[target]["flags"]
    if board.active(target) or (flags["ooa"] and not flags["kia"]):  # the killed are not hit again
        _strike(board, ident, target, declarations.get(target, {}))
    return _entry(ident, die, label, plus_one, hand.pool)


def _strike(board: Board, ident: str, target: str, their_declaration: Mapping[str, Any]) -> None:
    me, them = board.fighters[ident], board.fighters[target]
    kind = me["weapon"]["kind"]
    distance = _distance(board, me["zone"], them["zone"])
    reach = {"melee": 0, "thrown": board.options["thrown_max_zones"],
             "fired": board.options["fired_max_zones"]}[kind]
    if distance is None or distance > reach:
        board.emit("out_of_reach", combatant=ident, target=target)
        return
    if kind == "melee" and target not in me["engaged_with"] and not me["weapon"]["reach"]:
        if not moves.battle_roll(board, ident):
            board.emit("moved", combatant=ident, kind="battle", to=target, result="failed")
            return
        moves.engage(board, ident, target)
    strikes.strike(board, ident, target, distance, their_declaration)


def _distance(board: Board, here: str | None, there: str | None) -> int | None:
    """Zones between two zones (0 when unplaced or the same), by the adjacency of `state.zones`."""
    if here == there or here is None or there is None or not board.zones:
        return 0
    seen, frontier, steps = {here}, [here], 0
    while frontier:
        steps += 1
        frontier = [n for z in frontier for n in board.zones.get(z, {}).get("adjacent", []) if n not in seen]
        if there in frontier:
            return steps
        seen.update(frontier)
    return None


def release(board: Board, actor: str, declarations: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Held dice of the actor's enemies act right after its action (option `hold_release`; seed *Held
    Actions*): an attack on the hold's target, or nothing without one."""
    out = []
    for ident in board.order:
        hand, me = board.hand(ident), board.fighters[ident]
        if hand.held is None or not board.active(ident) or me["flags"]["stunned"] or not board.enemies(ident, actor):
            continue
        die, hand.held = hand.held, None
        declared = declarations.get(ident, {})
        board.emit("called", combatant=ident, die=die, held=die)
        if declared.get("target"):
            out.append(attack(board, ident, die, declared, declarations, "held_action"))
        else:
            out.append(_entry(ident, die, "held_action", False, hand.pool))
    return out


def play(board: Board, declarations: Mapping[str, Mapping[str, Any]], surprise: bool) -> dict[str, Any]:
    """Steps c-e of smoting.md section 8; returns the round's summary fields."""
    rolled = start(board, declarations, surprise)
    countdown: list[dict[str, Any]] = []
    closing, called_after, closed_by = None, None, "no_candidates"
    if surprise and board.surprised and board.options["surprise_closing"] == "immediate":
        closing, called_after = _close(board, 0)
    while True:
        tied, top, due = _leaders(board, closing is None)
        if due:  # closing_due(board), from the same pass
            closing, called_after = _close(board, len(countdown))
        if not tied:
            if surprise and board.surprised and board.options["surprise_closing"] == "after_surprisers":
                closed_by = "surprise"
            break
        actor = _settle(board, tied)
        if closing is not None and top < closing:
            closed_by = "closing_die"
            break
        board.emit("called", combatant=actor, die=top)
        entry = act(board, actor, declarations.get(actor, {"action": "pass"}), declarations)
        countdown.append(entry)
        if entry["action"] in ACTIONS:
            countdown.extend(release(board, actor, declarations))
    board.emit("round_closed", closed_by=closed_by, closing_die=closing)
    return {"action_dice": rolled, "countdown": countdown, "actions_taken": len(countdown),
            "closing_called_after": called_after, "closing_die": closing, "closed_by": closed_by}


def _close(board: Board, after: int) -> tuple[int, int]:
    """The GM's closing die (role `closing`), rolled once (seed *Actions*)."""
    die = pools.plain(board.dice, "closing", 1).total
    board.emit("closing_called", after=after, die=die)
    return die, after
