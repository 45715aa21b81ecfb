"""Before the flurries and after them (rules document §8): standing up, initiative, the movement and the
adjustment phase along a declared path, and who ends up engaged with whom (*Combat Sequence*, *Initiative*,
*Movement*, *Terrain Effects*, *Zones of Danger*, *Engaging an Opponent*)."""
from __future__ import annotations

from typing import Any

from service.rules.war_and_combat import hexes, movement
from service.rules.war_and_combat.round.attacks import shoot
from service.rules.war_and_combat.round.state import Round


def upkeep(work: Round) -> None:
    """Before initiative: a fallen fighter who can stand does so (a quick action of his movement phase)."""
    for ident in work.ids:
        c = work.people[ident]
        if c["fallen"] and work.can_act(ident) and work.cond(ident).bad_legs == 0:
            c["fallen"] = False
            work.moved_points[ident] = 10_000  # standing up takes this round's movement
            work.events.add("moved", combatant=ident, kind="stood_up", to=dict(c["position"]))


def initiative(work: Round) -> tuple[list[str], list[dict[str, Any]]]:
    """3d6 + FR for every fighter still in the fight, highest first; ties by option (*Initiative*)."""
    rolled = []
    for ident in work.ids:
        if work.out(ident):
            continue
        c = work.people[ident]
        r = work.dice.roll("initiative", 3, 6, c["fighter_rank"], combatant=ident)
        total = r.total + (work.penalty(ident) if work.options["penalties_apply_to_initiative"] else 0)
        rolled.append({"combatant": ident, "dice": list(r.dice), "total": total})
        work.events.add("initiative_rolled", combatant=ident, dice=list(r.dice), total=total)
    keys: dict[str, list[Any]] = {e["combatant"]: [e["total"]] for e in rolled}
    for name in work.options["initiative_tie_break"]:
        if name != "coin":
            for ident in keys:
                keys[ident].append(work.people[ident][name])
            continue
        groups: dict[tuple, list[str]] = {}
        for ident in keys:
            groups.setdefault(tuple(keys[ident]), []).append(ident)
        for members in groups.values():
            for ident in members:
                keys[ident].append(work.dice.roll("coin", 1, 6, combatant=ident).total if len(members) > 1 else 0)
    rolled.sort(key=lambda e: [-k for k in keys[e["combatant"]]])
    return [e["combatant"] for e in rolled], rolled


def points(work: Round, ident: str) -> int:
    """Movement points a phase: half the pace's full move (floor), legs permitting (*Movement*)."""
    pace = work.decl.get(ident, {}).get("pace", "walk")
    full = movement.hexes_per_round(pace, work.options)
    mode = work.cond(ident).movement
    full = 0 if mode == "none" else min(full, 2) if mode == "crawl" else full // 2 if mode == "half" else full
    return full // 2


def move_phase(work: Round, ident: str, first: bool) -> None:
    """Movement (first) or adjustment phase of one fighter: walk the declared path with at most half the
    points, stopping on entering a zone; shooters shoot once (*Movement*, *Terrain Effects*, *Ranged
    Strike Procedure*)."""
    d = work.decl.get(ident)
    if d is None or work.out(ident) or ident in work.stunned:
        return
    if d["action"] == "shoot" and work.can_attack(ident):
        shoot(work, ident, d)
    if d["action"] not in ("move", "engage", "shoot") or ident in work.engaged:
        return
    path = d.get("path") or []
    left = points(work, ident) - (work.moved_points.get(ident, 0) if first else 0)
    done = work.path_done.get(ident, 0)
    c = work.people[ident]
    while done < len(path) and left > 0:
        nxt = (path[done]["q"], path[done]["r"])
        if work.occupied(nxt, ident) or hexes.distance(work.pos(ident), nxt) != 1:
            break
        direction = hexes.direction_to(work.pos(ident), nxt)
        front = (direction - c["facing"]) % 6 in (0, 1, 5)
        cost = 1 if front else 2
        if cost > left:
            break
        left -= cost
        if front:
            c["facing"] = direction
        c["position"] = {"q": nxt[0], "r": nxt[1]}
        done += 1
        work.events.add("moved", combatant=ident, kind="step", to=dict(c["position"]), cost=cost,
                        phase="movement" if first else "adjustment")
        if work.threatening(ident, nxt) and first:
            break
    work.path_done[ident] = done


def engagement_groups(work: Round, order: list[str]) -> list[list[str]]:
    """Fighters engaged after movement: an engage declaration whose target is within reach, or a mover
    stopped in a hostile's zone; linked pairs form one group (*Engaging an Opponent*)."""
    pairs = []
    for ident in order:
        d = work.decl.get(ident)
        if d is None or d["action"] != "engage" or not work.can_act(ident):
            continue
        target = d.get("target")
        if target in work.people and not work.out(target) \
                and hexes.distance(work.pos(ident), work.pos(target)) <= work.reach(ident):
            pairs.append((ident, target))
        else:
            other = work.threatening(ident, work.pos(ident))
            if other is not None:
                pairs.append((ident, other))
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    for a, b in pairs:
        parent[root(a)] = root(b)
        work.events.add("engaged", combatant=a, target=b)
    groups: dict[str, list[str]] = {}
    for ident in order:
        if any(ident in p for p in pairs):
            groups.setdefault(root(ident), []).append(ident)
            work.engaged.add(ident)
    work.primary = {a: b for a, b in reversed(pairs)}
    for a, b in pairs:
        work.primary.setdefault(b, a)
    return list(groups.values())
