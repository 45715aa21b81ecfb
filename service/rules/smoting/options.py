"""Every ruling of smoting.md section 10 a game master could make otherwise, as a typed option."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.options import OptionSpec
from service.rules.smoting import tables

ATTRIBUTES = ("str", "agl", "dex", "bod", "will", "spirit")
LOCATIONS = ("left_leg", "right_leg", "left_arm", "right_arm", "chest", "head", "neck", "groin")


_NAME = {"type": "string", "maxLength": 64}
NAMES = {"type": "array", "maxItems": 6, "items": {"enum": list(ATTRIBUTES)}}
FACE_MAP = {"type": "object", "required": [str(f) for f in range(1, 7)], "additionalProperties": False,
            "properties": {str(f): {"enum": list(LOCATIONS[:6])} for f in range(1, 7)}}
_KINDS = ("head", "chest", "arm", "leg", "neck", "groin")


def effects_shape() -> dict[str, Any]:
    """Rows "1".."7", each mapping every location kind to a named effect of table injury-effects."""
    cell = {"enum": sorted(tables.load("injury-effects")["effects"])}
    row = {"type": "object", "required": list(_KINDS), "additionalProperties": False,
           "properties": {kind: cell for kind in _KINDS}}
    return {"type": "object", "required": [str(r) for r in range(1, 8)], "additionalProperties": False,
            "properties": {str(r): row for r in range(1, 8)}}


def pack_shape(bound: int) -> dict[str, Any]:
    """1..20 named armours or shields, each with a whole value 0..`bound`."""
    return {"type": "object", "minProperties": 1, "maxProperties": 20, "propertyNames": _NAME,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": bound}}


WEAPONS = {"type": "object", "minProperties": 1, "maxProperties": 40, "propertyNames": _NAME,
           "additionalProperties": {"type": "object", "required": ["damage_dice", "speed", "size"],
                                    "additionalProperties": False, "properties": {
                                        "weapon": _NAME, "damage_dice": {"type": "integer", "minimum": 0, "maximum": 30},
                                        "speed": {"type": "integer", "minimum": 1, "maximum": 12},
                                        "size": {"enum": ["small", "medium", "large"]}}}}


def _names(value: list[str], path: tuple) -> list[str]:
    """Attribute names (`NAMES`), each once."""
    return list(dict.fromkeys(value))


def _face_map(value: Mapping[str, str], path: tuple) -> dict[str, str]:
    """Injury location of each d6 face (`FACE_MAP`)."""
    return dict(value)


def _effects(value: Mapping[str, Mapping[str, str]], path: tuple) -> dict[str, dict[str, str]]:
    """Injury effect by roll and location kind (`effects_shape`)."""
    return {row: dict(cells) for row, cells in value.items()}


def _pack(value: Mapping[str, Any], path: tuple) -> dict[str, int]:
    """Name -> whole value (`pack_shape`)."""
    return {name: int(v) for name, v in value.items()}


def _weapons(value: Mapping[str, Mapping[str, Any]], path: tuple) -> dict[str, dict[str, Any]]:
    """Named weapons (`WEAPONS`): damage dice, speed and size."""
    return {name: {"damage_dice": int(row["damage_dice"]), "speed": int(row["speed"]), "size": row["size"]}
            for name, row in value.items()}


def _enum(default: Any, tag: str, summary: str, *choices: Any) -> OptionSpec:
    return OptionSpec(default, tag, summary, "enum", choices=tuple(choices))


def _int(default: int, tag: str, summary: str, low: int, high: int) -> OptionSpec:
    return OptionSpec(default, tag, summary, "int", minimum=low, maximum=high)


def _bool(default: bool, tag: str, summary: str) -> OptionSpec:
    return OptionSpec(default, tag, summary, "bool")


LOCATION_MAP = tables.load("injury-locations")["faces"]
EFFECT_ROWS = tables.load("injury-effects")["rows"]

OPTIONS: dict[str, OptionSpec] = {
    "success_min": _int(5, "INF", "Lowest d6 face that counts as a success.", 2, 6),
    "explode": _bool(True, "INF", "Every 6 is rolled again and may add successes (all pools)."),
    "min_attack_dice": _int(1, "DOC", "Attack dice left at least after every non-dodge deduction.", 0, 1),
    "dodge_floor": _enum("none", "DEF", "Whether dodge removals keep one attack die.", "none", "one"),
    "contest_tie": _enum("status_quo", "DEF", "Who wins a tied contest.", "status_quo"),
    "action_dice_base": _int(4, "DOC", "Action dice before modifiers.", 1, 8),
    "group_dice_to": _enum("action_dice", "INF", "Where a group's extra dice go.", "action_dice", "attack_dice"),
    "advantage_dice": _int(1, "DEF", "Attack dice for Advantage.", 0, 4),
    "range_penalty_per_zone": _int(1, "DEF", "Attack dice lost per zone of range.", 0, 4),
    "thrown_max_zones": _int(1, "DEF", "Farthest zone a thrown attack reaches.", 0, 10),
    "fired_max_zones": _int(3, "DEF", "Farthest zone a fired attack reaches.", 0, 10),
    "negative_rank_penalty": _int(1, "DEF", "Dice lost per rank below 0.", 0, 3),
    "specials_policy": _enum("damage", "DEF", "What extra successes buy (+2 damage dice each).", "damage"),
    "take_stun": _bool(True, "DEF", "Take a stun instead of a defeat whenever allowed."),
    "massive_kia": _bool(True, "DOC", "Damage above three times the rank kills."),
    "crossover_every": _int(2, "DOC", "Direct rank losses per crossover loss in the other domain.", 2, 4),
    "soak_attributes": OptionSpec(["str", "agl", "dex", "bod"], "INF", "Attributes summed for physical soak.",
                                  reader=_names, schema=NAMES),
    "mental_soak_attributes": OptionSpec(["will", "spirit"], "INF", "Attributes summed for mental soak.",
                                         reader=_names, schema=NAMES),
    "one_die_stun": _enum("remove", "INF", "What spending a 1 on stun does.", "remove", "roll"),
    "stun_recovery": _enum("spend", "DEF", "How a stunned actor uses its die.", "spend", "roll"),
    "ooa_domain": _enum("either", "DEF", "Which domain at 0 puts a normal creature out of action.",
                        "either", "physical"),
    "injury_location_map": OptionSpec(LOCATION_MAP, "DEF", "Injury location of each d6 face.", reader=_face_map,
                                      schema=FACE_MAP),
    "optional_locations": _bool(False, "DOC", "Neck and groin reachable by shifts."),
    "injury_effects": OptionSpec(EFFECT_ROWS, "DEF", "Injury effect by roll and location kind.", reader=_effects,
                                 schema=effects_shape()),
    "armor_resist_pack": OptionSpec({"none": 0, "light": 1, "medium": 2, "heavy": 3}, "DEF",
                                    "Armor Resist of each armor.", reader=_pack, schema=pack_shape(10)),
    "shield_pack": OptionSpec({"small": 0, "large": 1}, "DEF", "Blocking factor of each shield.",
                              reader=_pack, schema=pack_shape(6)),
    "heavy_armor_move_penalty": _int(1, "DEF", "Movement dice lost in heavy armor.", 0, 4),
    "metres_per_zone": OptionSpec(50, "DOC", "Metres across a zone.", "number", minimum=1, maximum=10000),
    "seconds_per_round": OptionSpec(20, "DEF", "Seconds in a round.", "number", minimum=1, maximum=600),
    "opportunity_attacks": _enum("one_free_attack", "DEF", "What leaving InContact by a move risks.",
                                 "one_free_attack", "none"),
    "tie_break": _enum("seeded", "DEF", "Last countdown tie-break: a recorded die, or the state's order.",
                       "seeded", "state_order"),
    "use_ones": _enum("auto", "DEF", "Add a 1 to reach a weapon's speed automatically.", "auto", "never"),
    "defence_die": _enum("lowest_non_one", "DEF", "Which die pays for a defence roll.", "lowest_non_one", "highest"),
    "closing_trigger": _enum("no_die_ge_2", "INF", "When closing is called.", "no_die_ge_2", "no_dice"),
    "surprise_closing": _enum("immediate", "DEF", "When a surprise round closes.", "immediate", "after_surprisers"),
    "bidding": _enum(False, "DOC", "Bidding for actions (optional rule; not offered).", False),
    "lower_closing_die": _enum(False, "DOC", "Lowering the closing die (optional rule; not offered).", False),
    "combine_dice_after_closing": _enum(False, "DOC", "Combining dice after closing (optional rule; not offered).",
                                        False),
    "max_rounds": _int(30, "DEF", "Rounds before a simulated fight is a draw.", 1, 1000),
    "excess_action_dice": _enum("keep_highest", "DEF", "Which dice above 8 are kept.", "keep_highest"),
    "hold_release": _enum("after_enemy_action", "DEF", "When a held die acts.", "after_enemy_action"),
    "hold_break": _enum("margin", "INF", "How much a won break lowers a hold.", "margin", "successes"),
    "duel_ai": _enum("default", "DEF", "Simulated fighters' policy.", "default", "reckless"),
    "weapon_pack": OptionSpec(tables.weapons(), "DEF", "Named weapons.", reader=_weapons, schema=WEAPONS),
    "burn_die": _enum("lowest", "DEF", "Which non-1 action dice a burn turns into 1s.", "lowest", "highest"),
}
