"""The Melee phase of a round: actions in strike-rank order, one attack from its roll against the target's
declared defence to the blow that gets through, and what a fumble costs (rules document §8; seed
*3) Melee Phase*)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.runequest_house import geometry, status, to_hit
from service.rules.runequest_house.declarations import FOLLOW_UPS
from service.rules.runequest_house.options import fraction
from service.rules.runequest_house.round.blows import PARRY_DEGREE, landed
from service.rules.runequest_house.round.defences import bladed_parry, defence_for
from service.rules.runequest_house.round.grapples import follow_up
from service.rules.runequest_house.round.state import Round

NO_SITUATION = {"same_weapon_twice": False, "high_ground": False, "mounted": False, "terrain_bonus": 0,
                "prone_attacker": False, "prone_target": False, "target_movement": "none", "point_blank": False,
                "giant_exposed": False, "closed_vs_long": False, "shooter_adjacent": False,
                "high_ground_location": False}


def melee_phase(work: Round, entries: list[dict[str, Any]]) -> None:
    """Resolve in SR order; a figure disabled before its SR loses its remaining actions (those on the
    same SR and DEX act simultaneously)."""
    able_at: dict[tuple[int, int], set[str]] = {}
    seen, able = -1, set()
    for entry in entries:
        key = (entry["sr"], entry["dex"])
        if key not in able_at:
            if seen != work.changes:  # statuses change only through wounds and falls
                able, seen = {i for i, c in work.people.items() if status.can_fight(c)}, work.changes
            able_at[key] = able
        ident, index = entry["combatant"], entry["index"]
        if ident not in able_at[key] or (ident, index) in work.lost:
            continue
        work.done.add((ident, index))
        action = work.declared[ident]["actions"][index]
        if action["type"] == "attack" and action["mode"] in FOLLOW_UPS:
            follow_up(work, work.people[ident], action)
        elif entry["action"] in ("attack", "missile"):
            attack(work, work.people[ident], action, index, entry)


def attack(work: Round, who: dict[str, Any], action: Mapping[str, Any], index: int, entry: Mapping[str, Any]) -> None:
    """One attack: attack roll, the target's declared defence, degrees compared, then location, damage,
    parry, armor, HP and knockback."""
    target = work.people[action["target"]]
    if status.status(target) == "dead":
        return
    grapple = action["mode"] == "grapple"
    weapon = who["weapons"][action["weapon"]]
    distance = geometry.distance(who["position"], target["position"])
    if not grapple and weapon["kind"] == "melee" and distance is not None and distance > geometry.reach(weapon):
        work.emit("attack_rolled", combatant=who["id"], target=target["id"], sr=entry["sr"], roll=None,
                  effective=None, degree=None, out_of_reach=True)
        return
    point_blank = False
    if weapon["kind"] != "melee" and distance is not None and weapon["effective_range_m"]:
        point_blank = distance <= weapon["effective_range_m"] * fraction(work.options["point_blank_fraction"])
    situation = {**NO_SITUATION, "same_weapon_twice": bool(entry["twice"]), "prone_attacker": who["prone"],
                 "prone_target": target["prone"], "point_blank": point_blank,
                 "shooter_adjacent": work.adjacent_at_start[who["id"]] and weapon["kind"] != "melee"}
    base = who["skills"]["grapple"] if grapple else weapon["attack"]
    check = to_hit.attack_check(base, 0, weapon, situation, work.options)
    defence, item = defence_for(work, target, who, weapon, situation, entry["sr"])
    face = work.dice.roll("attack", 1, 100, combatant=who["id"]).total
    degree = check.bands.degree(face)
    work.emit("attack_rolled", combatant=who["id"], target=target["id"], sr=entry["sr"], weapon=weapon["name"],
              mode=action["mode"], roll=face, effective=check.effective, degree=degree)
    d_degree = None
    if defence.type != "none":
        counting = defence.counting_bands()
        d_face = work.dice.roll("defence", 1, 100, combatant=target["id"]).total
        d_degree = counting.degree(d_face) if counting else "failure"
        work.emit("defence_rolled", combatant=target["id"], attacker=who["id"], defence=defence.type,
                  roll=d_face, effective=defence.check.effective if defence.check else None, degree=d_degree)
        if d_degree == "fumble":
            fumbled(work, target)
    result = to_hit.outcome(degree, defence.type, d_degree)
    if degree == "fumble":
        fumbled(work, who, index)
    if defence.type == "dodge" and d_degree in ("success", "special", "critical"):
        work.emit("dodged", combatant=target["id"], attacker=who["id"], degree=d_degree, outcome=result)
    if result in PARRY_DEGREE:
        work.emit("parried", combatant=target["id"], attacker=who["id"], degree=PARRY_DEGREE[result],
                  item=item["name"] if item else None)
    if result in ("fumble", "miss"):
        if defence.type == "parry" and degree == "failure" and d_degree in ("success", "special", "critical"):
            bladed_parry(work, who, weapon, item, d_degree)
        return
    if result == "parried_critical":
        return
    landed(work, who, target, weapon, result, item, grapple, degree)


def fumbled(work: Round, who: dict[str, Any], index: int | None = None) -> None:
    """A fumble without a core table: the fumbler loses its other declared action [DEF `fumble_effect`]."""
    for other in range(2):
        if other != index and (who["id"], other) not in work.done:
            work.lost.add((who["id"], other))
