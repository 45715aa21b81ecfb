"""Derived values of a combatant: action dice, soak dice, thresholds, defeats to out of action and the
crossover schedule (seed *Initiative & Actions*, *Soak Rolls*, *Ranks.*, *Real Ranks vs Bonus Ranks*,
*CrossOver Damage*, *OoA and KIA*, *Mobs, Crowds and Hordes*; smoting.md section 12.6)."""
from __future__ import annotations

from typing import Any, Mapping

from service.rules.smoting import tables
from service.rules.smoting.damage import soak_pool

MAX_ACTION_DICE = 8


def action_dice(modifier: int, group: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Dice rolled (base + modifier + group dice), raised to 1 (its 1s re-rolled), at most 8 kept
    (seed *Initiative & Actions*)."""
    extra = tables.groups()[group]["dice"] if options["group_dice_to"] == "action_dice" else 0
    rolled = options["action_dice_base"] + modifier + extra
    return {"rolled": max(rolled, 1), "kept": min(max(rolled, 1), MAX_ACTION_DICE), "reroll_ones": rolled < 1}


def out_of_action_floor(heroic: bool) -> int:
    """Remaining ranks at which a creature is out of action: 0, or -3 for a heroic one (seed *OoA and KIA*)."""
    return -3 if heroic else 0


def defeats_to_ooa(physical: int, mental: int, heroic: bool, every: int, domain: str) -> dict[str, int]:
    """Successive direct single defeats in one domain until out of action, crossover losses in the
    other domain counted (seed *CrossOver Damage*, *OoA and KIA*; option `ooa_domain`)."""
    floor = out_of_action_floor(heroic)

    def count(own: int, other: int, other_counts: bool) -> int:
        lost = 0
        while True:
            lost += 1
            if own - lost <= floor or (other_counts and other - lost // every <= floor):
                return lost
    return {"physical": count(physical, mental, domain == "either"),
            "mental": count(mental, physical, True)}


def crossover_schedule(physical: int, mental: int, heroic: bool, every: int, domain: str) -> list[int]:
    """The direct physical losses, up to out of action, after which a mental rank is lost by crossover."""
    last = defeats_to_ooa(physical, mental, heroic, every, domain)["physical"]
    return [n for n in range(every, last + 1, every)]


def derived(body: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """Every derived value of smoting.md section 12.6 (real ranks, bonuses and losses as sent)."""
    attrs, group = body.get("attributes") or {}, tables.groups()[body.get("group", "none")]
    heroic, every, domain = body.get("heroic", False), options["crossover_every"], options["ooa_domain"]
    phys = body["physical_rank"] + group["physical"] - body.get("lost_physical", 0)
    ment = body["mental_rank"] + group["mental"] - body.get("lost_mental", 0)
    return {
        "action_dice": action_dice(body.get("action_dice_modifier", 0), body.get("group", "none"), options),
        "soak_dice": {"physical": soak_pool(attrs, options["soak_attributes"]) if heroic else 0,
                      "mental": soak_pool(attrs, options["mental_soak_attributes"]) if heroic else 0},
        "movement_pool": body.get("movement_dice", 4) + attrs.get("agl", 0),
        "thresholds": {"physical": body["physical_rank"] + group["physical"] + body.get("bonus_physical", 0),
                       "mental": body["mental_rank"] + group["mental"] + body.get("bonus_mental", 0)},
        "defeats_to_out_of_action": defeats_to_ooa(phys, ment, heroic, every, domain),
        "crossover_mental_losses_at": crossover_schedule(phys, ment, heroic, every, domain),
        "group_bonus": {k: group[k] for k in ("physical", "mental", "dice", "attacks")},
    }
