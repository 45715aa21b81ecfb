"""The Move and Post-Melee Move phases of a round: walking toward the declared target, the Maneuver contest
that lets an engaged figure leave, and engagement (rules document §8; seed *2) Move Phase*,
*4) Post Melee Move Phase*)."""
from __future__ import annotations

from typing import Any

from service.rules.runequest_house import geometry, percentile, status
from service.rules.runequest_house.round.state import Round


def move_phase(work: Round, order: list[str], phase: str) -> None:
    """Move toward the declared target, MOV x (1 + move actions) metres [INF]; a figure that starts the
    Move phase engaged goes a third as far unless it wins a Maneuver contest (*Maneuver*); coming next to
    an enemy ends the Move phase's movement (engagement); braced figures stay in the Post-Melee Move."""
    for ident in order:
        who, decl = work.people[ident], work.declared[ident]
        moves = [a for a in decl["actions"] if a["type"] == "move"]
        if not moves or not status.can_fight(who) or (phase == "post_melee" and decl["braced"]):
            continue
        if who["prone"]:
            if phase == "move":
                who["prone"] = False
                work.emit("moved", combatant=ident, phase=phase, metres=0, stood_up=True, position=who["position"])
            continue
        k = 1 + sum(a["move_actions"] for a in moves)
        if phase == "post_melee" and decl["abort"] == "movement":
            k += 1
        metres = who["mov"] * k
        target_id = next((a["target"] for a in moves if a["target"]), None)
        leaving = phase == "move" and who["engaged_with"] and target_id not in who["engaged_with"]
        if leaving and not maneuver(work, who, work.people[who["engaged_with"][0]]):
            metres = 0
        walk(work, who, target_id, metres, phase)


def maneuver(work: Round, mover: dict[str, Any], foe: dict[str, Any]) -> bool:
    """A contest of Maneuver (+5% per metre of basic MOV above the other); the higher degree wins."""
    a_skill = mover["skills"]["maneuver"] + 5 * max(0, mover["mov"] - foe["mov"])
    b_skill = foe["skills"]["maneuver"] + 5 * max(0, foe["mov"] - mover["mov"])
    a = work.dice.roll("maneuver", 1, 100, combatant=mover["id"]).total
    b = work.dice.roll("maneuver", 1, 100, combatant=foe["id"]).total
    a_degree = percentile.bands(a_skill, work.options).degree(a)
    b_degree = percentile.bands(b_skill, work.options).degree(b)
    won = percentile.better(a_degree, b_degree)
    work.emit("maneuver_contest", combatant=mover["id"], opponent=foe["id"], roll=a, degree=a_degree,
              opponent_roll=b, opponent_degree=b_degree, winner=mover["id"] if won else (
                  foe["id"] if percentile.better(b_degree, a_degree) else None))
    if won:
        _disengage(work, mover, foe)
    return won


def walk(work: Round, who: dict[str, Any], target_id: str | None, metres: int, phase: str) -> None:
    """Step hex by hex toward the target, at most `metres`, around occupied hexes; in the Move phase the
    walk stops on engagement (*2) Move Phase*). Without positions the figure simply covers the distance."""
    start = dict(who["position"]) if who["position"] else None
    target = work.people.get(target_id) if target_id else None
    moved = 0
    if start and target and target["position"]:
        taken = {(c["position"]["q"], c["position"]["r"]) for c in work.people.values()
                 if c["position"] and c["id"] != who["id"] and status.status(c) != "dead"}
        while moved < metres and geometry.distance(who["position"], target["position"]) > 1:
            nxt = geometry.step_toward(who["position"], target["position"], taken)
            if nxt is None:
                break
            who["position"], moved = nxt, moved + 1
            if phase == "move" and _engage(work, who):
                break
    else:
        moved = metres
    work.emit("moved", combatant=who["id"], phase=phase, metres=moved, position=who["position"])


def _engage(work: Round, who: dict[str, Any]) -> bool:
    """Engagement (*2) Move Phase*): within reach of an enemy who declared a melee attack."""
    engaged = False
    for other in work.people.values():
        if other["side"] == who["side"] or other["id"] == who["id"] or not status.can_fight(other):
            continue
        attack = next((a for a in work.declared.get(other["id"], {"actions": []})["actions"]
                       if a["type"] == "attack"), None)
        if attack is None:
            continue
        d = geometry.distance(who["position"], other["position"])
        if d is not None and d <= geometry.reach(other["weapons"][attack["weapon"]]):
            mark_engaged(work, who, other)
            engaged = True
    return engaged


def mark_engaged(work: Round, a: dict[str, Any], b: dict[str, Any]) -> None:
    """Two figures become engaged with each other (*2) Move Phase*), once."""
    if b["id"] in a["engaged_with"]:
        return
    a["engaged_with"] = sorted({*a["engaged_with"], b["id"]})
    b["engaged_with"] = sorted({*b["engaged_with"], a["id"]})
    work.emit("engaged", combatant=a["id"], opponent=b["id"])


def _disengage(work: Round, a: dict[str, Any], b: dict[str, Any]) -> None:
    a["engaged_with"] = [i for i in a["engaged_with"] if i != b["id"]]
    b["engaged_with"] = [i for i in b["engaged_with"] if i != a["id"]]
