"""The target's side of an attack in a round: which declared dodge or parry (or defensive abort) meets it,
what parries, and the damage a bladed parry does to a failed attacking weapon (rules document §8; seed
*Altering Statement of Intent*, *Standard Parry*)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.runequest_house import percentile, status, to_hit
from service.rules.runequest_house.round.state import Round

DEFENCE_BASE = {"modifier": 0, "defensive_abort": False, "double_dodge": False, "opponent_number": 1,
                "same_sr_attacks": 0, "braced": False, "high_ground": False, "two_attackers_same_weapon": False}


def defence_for(work: Round, target: dict[str, Any], attacker: dict[str, Any], weapon: Mapping[str, Any],
                situation: Mapping[str, Any], sr: int | None = None) -> tuple[to_hit.Defence, dict[str, Any] | None]:
    """The target's declared dodge or parry for this attack: one action defends against one attack, two
    against everything (parries: from two sources; dodges: -10% per opponent after the first); else a
    defensive abort of an unused melee action at -20% (*Altering Statement of Intent*)."""
    none = to_hit.Defence("none", None, False)
    decl = work.declared.get(target["id"])
    if decl is None or not status.can_fight(target):
        return none, None
    used = work.defended.setdefault(target["id"], {"parry": [], "dodge": []})
    free = [i for i, a in enumerate(decl["actions"]) if (target["id"], i) not in work.lost]
    abort = False
    for kind in ("parry", "dodge"):
        count = sum(1 for i in free if decl["actions"][i]["type"] == kind)
        sources = list(dict.fromkeys(used[kind]))
        if count == 2 and (kind == "dodge" or attacker["id"] in sources or len(sources) < 2):
            break
        if count == 1 and not used[kind]:
            break
    else:
        unused = [i for i in free if decl["actions"][i]["type"] in ("attack", "missile")
                  and (target["id"], i) not in work.done]
        if decl["abort"] != "defensive" or not unused:
            return none, None
        work.lost.add((target["id"], unused[0]))
        kind, abort = ("parry" if parry_item(work, target, decl) else "dodge"), True
    if kind == "dodge" and decl["braced"]:
        return none, None
    item = parry_item(work, target, decl) if kind == "parry" else None
    if kind == "parry" and item is None:
        return none, None
    used[kind].append(attacker["id"])
    opponents = list(dict.fromkeys(used[kind]))
    defence = {**DEFENCE_BASE, "type": kind, "defensive_abort": abort,
               "skill": item["parry"] if item else target["skills"]["dodge"],
               "item": item["item"] if item else "weapon",
               "double_dodge": kind == "dodge" and not abort, "opponent_number": opponents.index(attacker["id"]) + 1,
               "same_sr_attacks": _same_sr(work, target, kind, sr)}
    return to_hit.defence_check(defence, weapon, situation, work.options), item


def _same_sr(work: Round, target: dict[str, Any], kind: str, sr: int | None) -> int:
    """Attacks already dodged on this SR this round: each costs `same_sr_dodge_penalty` [DEF]."""
    if kind != "dodge" or sr is None:
        return 0
    dodged = work.dodged_on.setdefault(target["id"], [])
    earlier = dodged.count(sr)
    dodged.append(sr)
    return earlier


def parry_item(work: Round, target: dict[str, Any], decl: Mapping[str, Any]) -> dict[str, Any] | None:
    """What parries: the parry action's weapon, else the shield, else the first weapon with a parry %."""
    chosen = next((a["weapon"] for a in decl["actions"] if a["type"] == "parry" and a["weapon"] is not None), None)
    if chosen is not None:
        w = target["weapons"][chosen]
        return {"name": w["name"], "item": "weapon", "parry": w["parry"], "ap": w["ap"], "ref": ("weapon", chosen),
                "bladed": w["bladed"], "hafted": w["hafted"], "long_hafted": w["long_hafted"]}
    if target["shield"] and target["location_hp"]["left_arm"] > 0:
        s = target["shield"]
        name = "buckler" if s["size"] == "buckler" else f"{s['size']}_shield"
        return {"name": name, "item": name, "parry": s["parry"], "ap": s["ap"], "ref": ("shield", 0),
                "bladed": False, "hafted": False, "long_hafted": False}
    for i, w in enumerate(target["weapons"]):
        if w["parry"] > 0 and w["kind"] == "melee":
            return {"name": w["name"], "item": "weapon", "parry": w["parry"], "ap": w["ap"], "ref": ("weapon", i),
                    "bladed": w["bladed"], "hafted": w["hafted"], "long_hafted": w["long_hafted"]}
    return None


def bladed_parry(work: Round, attacker: dict[str, Any], weapon: dict[str, Any], item: Mapping[str, Any] | None,
                 parry_degree: str) -> None:
    """*Standard Parry*: a bladed parry damages a failed attacking weapon; hafted blades need a special,
    long-hafted a critical [DOC]; by `parry_weapon_damage` AP [DEF]."""
    if not item or not item["bladed"]:
        return
    needed = "critical" if item["long_hafted"] else "special" if item["hafted"] else "success"
    if percentile.RANK[parry_degree] < percentile.RANK[needed]:
        return
    loss = work.options["parry_weapon_damage"]
    weapon["ap"] = max(0, weapon["ap"] - loss)
    work.emit("weapon_damaged", combatant=attacker["id"], item=weapon["name"], ap_loss=loss, ap=weapon["ap"])
