"""Which smoting matchups the vectorised duel plays, and each duellist's fixed figures as numpy arrays.

Covered: any number of combatants on two or more sides, each with attack dice, fresh (no ranks lost beyond what the
arrays carry, no flags, no held die, no live defence pool); every rule option at its default except
`COVERED`, which the engine implements, and `IRRELEVANT`, which nothing in a simulated fight reads (the duel policy
puts every fighter InContact in one zone, engaged with every enemy: no range, moves, holds or surprise). Anything
else goes to the resolver loop.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from service.rules.smoting import tables
from service.rules.smoting.combatant import action_dice
from service.rules.smoting.damage import soak_pool
from service.rules.smoting.fighters import ATTRIBUTES
from service.rules.smoting.options import OPTIONS

COVERED = ("max_rounds", "duel_ai", "tie_break", "take_stun", "massive_kia", "success_min", "explode",
           "stun_recovery", "one_die_stun", "group_dice_to",
           "crossover_every", "ooa_domain", "use_ones", "defence_die", "burn_die", "min_attack_dice", "dodge_floor",
           "negative_rank_penalty", "soak_attributes", "closing_trigger", "action_dice_base",
           "injury_location_map", "injury_effects")
IRRELEVANT = ("range_penalty_per_zone", "thrown_max_zones", "fired_max_zones", "advantage_dice", "metres_per_zone",
              "seconds_per_round", "opportunity_attacks", "heavy_armor_move_penalty", "mental_soak_attributes",
              "armor_resist_pack", "shield_pack", "weapon_pack", "optional_locations", "hold_break",
              "surprise_closing")
DEFENCES = ("none", "parry", "dodge", "block")


def accepts(matchup: Any) -> bool:
    """Whether the vectorised duel plays this parsed matchup exactly as the resolver loop would."""
    people = matchup.combatants
    if len({who["side"] for who in people}) < 2 or matchup.surprise:
        return False
    for name, spec in OPTIONS.items():
        if name not in COVERED and name not in IRRELEVANT and matchup.options[name] != spec.default:
            return False
    return all(_fresh(who) for who in people)


def _fresh(who: dict[str, Any]) -> bool:
    return (who["xposures"]["attack"] >= 1 and not any(who["flags"].values()) and who["held_die"] is None
            and who["defence_pool"] is None)


def defence_of(who: dict[str, Any], options: dict[str, Any]) -> str:
    """The duel policy's defence (`Duel.declare`): parry, then dodge, then block; none when reckless."""
    if options["duel_ai"] == "reckless":
        return "none"
    return next((k for k in ("parry", "dodge", "block") if who["xposures"][k] > 0), "none")


@dataclass
class Figures:
    """Every fighter's fixed numbers, index 0 the first combatant of the matchup."""

    ids: list[str]
    sides: list[str]          # each fighter's side
    side: np.ndarray          # each fighter's side as an index (sides in matchup order)
    attack: np.ndarray        # attack Xposure (+ group dice under `group_dice_to: attack_dice`)
    defence: np.ndarray       # index into DEFENCES
    defence_dice: np.ndarray  # the Xposure of that defence
    rank: np.ndarray          # real ranks with group levels, [domain (physical, mental), fighter]
    threshold: np.ndarray     # physical T
    lost: np.ndarray          # starting losses, shape (2, 2): physical, mental
    crossover: np.ndarray     # starting crossover counters, shape (2, 2)
    heroic: np.ndarray
    pc: np.ndarray
    strength: np.ndarray
    damage_dice: np.ndarray
    speed: np.ndarray
    fired: np.ndarray
    armor: np.ndarray
    shield: np.ndarray
    soak: np.ndarray
    body: np.ndarray          # BODY level (finishing off)
    levels: np.ndarray        # every attribute level (injury saves), shape (2, len(ATTRIBUTES))
    action_dice: list[dict[str, Any]]
    burn_each_round: list[int]


def figures(matchup: Any) -> Figures:
    """The numbers the engine reads from every combatant (seed *Status*, *Ranks.*, *Soak Rolls*)."""
    o, people = matchup.options, matchup.combatants
    groups = [tables.groups()[who["group"]] for who in people]

    def arr(values: list, dtype: Any = np.int64) -> np.ndarray:
        return np.array(values, dtype=dtype)
    return Figures(
        ids=[w["id"] for w in people], sides=[w["side"] for w in people],
        side=arr([list(dict.fromkeys(w["side"] for w in people)).index(w["side"]) for w in people]),
        attack=arr([w["xposures"]["attack"] + (g["dice"] if o["group_dice_to"] == "attack_dice" else 0)
                    for w, g in zip(people, groups)]),
        defence=arr([DEFENCES.index(defence_of(w, o)) for w in people]),
        defence_dice=arr([w["xposures"][defence_of(w, o)] if defence_of(w, o) != "none" else 0 for w in people]),
        rank=arr([[w[f"{d}_rank"] + g[d] for w, g in zip(people, groups)] for d in ("physical", "mental")]),
        threshold=arr([w["physical_rank"] + g["physical"] + w["bonus_physical"] for w, g in zip(people, groups)]),
        lost=arr([[w["lost_physical"], w["lost_mental"]] for w in people]),
        crossover=arr([[w["crossover_physical"], w["crossover_mental"]] for w in people]),
        heroic=arr([w["heroic"] for w in people], bool), pc=arr([w["pc"] for w in people], bool),
        strength=arr([w["attributes"]["str"] for w in people]),
        damage_dice=arr([w["weapon"]["damage_dice"] for w in people]),
        speed=arr([w["weapon"]["speed"] for w in people]),
        fired=arr([w["weapon"]["kind"] == "fired" for w in people], bool),
        armor=arr([w["armor_resist"] for w in people]),
        shield=arr([(w["shield"] or {}).get("block_factor", 0) for w in people]),
        soak=arr([soak_pool(w["attributes"], o["soak_attributes"]) for w in people]),
        body=arr([w["attributes"]["bod"] for w in people]),
        levels=arr([[w["attributes"][a] for a in ATTRIBUTES] for w in people]),
        action_dice=[action_dice(w["action_dice_modifier"], w["group"], o) for w in people],
        burn_each_round=[w["burn_each_round"] for w in people])
