"""Every option of `war-and-combat` (rules document §10): each inferred or invented default a game master
may rule otherwise, with its provenance tag and the seed passage it stands for."""
from __future__ import annotations

from typing import Any

from service.rules.options import OptionSpec, read_options

INTENTIONS = ("kill", "subdue", "disarm", "grapple", "tackle", "throw")
TACTICS = ("hold", "press", "retreat", "circle")


_SKEW = {"type": "object", "additionalProperties": False,
         "properties": {key: {"type": "string", "minLength": 1, "maxLength": 20} for key in ("high", "low")}}
_TERM = r"(?:(?:[1-9]|1[0-9]|20)?d(?:[2-9]|[1-9][0-9]|100)|[0-9]{1,3})"
ROUNDS = {"type": "string", "maxLength": 40, "pattern": rf"^[+-]?{_TERM}(?:[+-]{_TERM})*$"}
_WHOLE = {"type": "integer", "minimum": -50, "maximum": 50}
_ROW_NAME = {"type": "string", "minLength": 1, "maxLength": 64}
_ARMOR_ROW = {"type": "object", "required": ["name"], "additionalProperties": False, "properties": {
    "name": _ROW_NAME, "absorption": _WHOLE, "penetration_threshold": _WHOLE, "defence_bonus": _WHOLE,
    "locations": {"type": "string", "minLength": 1, "maxLength": 20}}}
_WEAPON_ROW = {"type": "object", "required": ["name"], "additionalProperties": False, "properties": {
    "name": _ROW_NAME, "impact_mod": _WHOLE, "penetration_value": _WHOLE,
    "damage_type": {"enum": ["blunt", "cut", "pierce"]}, "range": {"type": "integer", "minimum": 0, "maximum": 3},
    "kind": {"enum": ["swung", "thrust", "polearm", "two_handed_sword", "missile"]},
    "impact_cap": {"type": "integer", "minimum": -50, "maximum": 200},
    "base_range_m": {"type": "integer", "minimum": 1, "maximum": 10_000}}}


def pack_shape(row: dict[str, Any]) -> dict[str, Any]:
    """A pack option's shape: "default" (the starter table), or a whole table of 1..100 named rows."""
    return {"anyOf": [{"const": "default"}, {"type": "array", "minItems": 1, "maxItems": 100, "items": row}]}


def _skew(value: Any, path: tuple) -> dict[str, str]:
    """The skew dice option: {"high": expr, "low": expr} (4d6 keep 3 style or plain dice)."""
    return {"high": "4d6k3", "low": "4d6kl3", **value}


def _rounds(value: str, path: tuple) -> str:
    """A number of rounds as a plain dice expression (e.g. "1d6", "2d4+1"): at most 20 dice of 2..100 sides,
    numbers of at most three digits (the shape `ROUNDS` checks it against)."""
    return value


def _pack(value: Any, path: tuple) -> Any:
    """An armor or weapon pack: "default" or its rows (whole numbers as ints)."""
    if value == "default":
        return value
    return [{key: int(item) if isinstance(item, float) else item for key, item in row.items()} for row in value]


def _load_pack(name: str) -> list[dict[str, Any]]:
    from service.rules.war_and_combat.tables import load
    return load(name)


SPECS: dict[str, OptionSpec] = {
    "tie_succeeds": OptionSpec(False, "INF", "A task roll equal to its target level succeeds (default: it must beat it).",
                               "bool"),
    "flank_defence": OptionSpec("half_fighter_rank", "DEF", "What a flank defence halves: the fighter rank "
                                "(10 + FR/2 + AGL) or the whole Defense.", "enum",
                                ("half_fighter_rank", "half_defence")),
    "no_defence_def": OptionSpec(5, "DEF", "Target level of an attack the defender cannot defend (rear, "
                                 "undefended flank, indefensible attack, unaware).", "int", minimum=0, maximum=20),
    "critical_margin_includes_armor_bonus": OptionSpec(True, "DEF", "The critical margin is measured past the "
                                                       "struck location's armor defence bonus.", "bool"),
    "critical_keeps_offset": OptionSpec(True, "DEF", "A critical's extra d6 keep the weapon dice's -(k-1).", "bool"),
    "impact_beyond_table": OptionSpec("extend", "DEF", "Impact caps above 47: extend the dice pattern or stop at "
                                      "9d6-8.", "enum", ("extend", "cap")),
    "size_beyond_table": OptionSpec("extend", "DEF", "Sizes above 36: extend the threshold pattern or keep size "
                                    "36's.", "enum", ("extend", "cap")),
    "innate_absorption": OptionSpec(0, "DEF", "Absorption every target has from its size (a combatant's own "
                                    "value overrides it).", "int", minimum=0, maximum=100),
    "limb_side": OptionSpec("random", "DEF", "Which limb an arm or leg hit strikes: a d2, the limb opposite a "
                            "right-handed attacker's weapon, or the defender's leading limb.", "enum",
                            ("random", "opposite", "front")),
    "evading_defence": OptionSpec("modifier", "DEF", "What an aware, evading target adds to a shot's target "
                                  "level: FR + AGL, or its whole Defense.", "enum", ("modifier", "full")),
    "point_blank_aware_as_melee": OptionSpec(True, "INF", "A point-blank shot at an aware target is rolled "
                                             "against its melee Defense.", "bool"),
    "penalties_apply_to_defence": OptionSpec(False, "DEF", "Wound penalties also lower Defense.", "bool"),
    "penalties_apply_to_initiative": OptionSpec(False, "DEF", "Wound penalties also lower initiative.", "bool"),
    "initiative_tie_break": OptionSpec(["fighter_rank", "agl_mod", "coin"], "DEF", "How equal initiative totals "
                                       "are ordered, key by key.", "ordering", ("fighter_rank", "agl_mod", "coin")),
    "stun_rounds": OptionSpec("1d6", "DOC", "Rounds a stunned fighter takes no action (dice).", "custom",
                              reader=_rounds, schema=ROUNDS),
    "mortal_vital_dying": OptionSpec(True, "DEF", "A mortal wound to head, chest or belly leaves the victim dying "
                                     "(a limb's only destroys the limb).", "bool"),
    "combat_option_column": OptionSpec("by_effective_impact", "DEF", "How a disarm, grapple, subdual, tackle or "
                                       "throw picks its COMBAT OPTIONS column.", "enum", ("by_effective_impact",)),
    "shock_failure_rounds": OptionSpec("1d6", "DEF", "Rounds out after a failed Shock-N check (dice).", "custom",
                                       reader=_rounds, schema=ROUNDS),
    "skew_dice": OptionSpec({"high": "4d6k3", "low": "4d6kl3"}, "DEF", "What the undefined high and low skew dice "
                            "are.", "custom", reader=_skew, schema=_SKEW),
    "sprint_hexes": OptionSpec(10, "DEF", "Hexes a round at a sprint.", "int", minimum=1, maximum=30),
    "creep_hexes": OptionSpec(2, "DEF", "Hexes a round at a creep.", "int", minimum=1, maximum=30),
    "balance_tl": OptionSpec(10, "DEF", "Target level of the agility roll for exceeding a terrain's max pace.",
                             "int", minimum=-50, maximum=100),
    "pass_through_base_tl": OptionSpec(10, "DEF", "Base target level of a pass-through.", "int", minimum=-50,
                                       maximum=100),
    "pass_through_per_hex": OptionSpec(2, "DEF", "Target level added per danger hex crossed in a pass-through.",
                                       "int", minimum=0, maximum=20),
    "swipe_tl": OptionSpec(10, "DEF", "Target level of an outsider's roll to swipe safely into a flurry.", "int",
                           minimum=-50, maximum=100),
    "shock_checks": OptionSpec(False, "DEF", "Shock checks (named, never defined by the seed; true is refused).",
                               "enum", (False,)),
    "morale_checks": OptionSpec(False, "DEF", "Morale checks (named, never defined by the seed; true is refused).",
                                "enum", (False,)),
    "hit_swap_rule": OptionSpec("defender_if_able", "INF", "Who attacks after a hit: the defender when able, "
                                "always the defender, or never.", "enum", ("defender_if_able", "always", "never")),
    "indefensible_attack_cost": OptionSpec(1, "DEF", "Actions an indefensible attack on an actionless fighter "
                                           "costs.", "int", minimum=0, maximum=2),
    "tactic_winner_moves": OptionSpec(True, "DEF", "The fighter with more hits in a flurry moves the net tactic "
                                      "one hex.", "bool"),
    "off_arm_penalty": OptionSpec(-3, "DEF", "Attack modifier with the off arm when the weapon arm is lost.", "int",
                                  minimum=-10, maximum=0),
    "impact_below_table": OptionSpec("none", "DEF", "Impact caps below -7: no impact, or the flat point.", "enum",
                                     ("none", "one_point")),
    "unlisted_pace_penalty": OptionSpec(0, "DEF", "Action penalty of paces the table does not list (creep, crawl, "
                                        "swim).", "int", minimum=-10, maximum=0),
    "flurry_initiative_tie": OptionSpec("reroll", "DEF", "Equal flurry initiative: roll again, or the higher "
                                        "fighter rank.", "enum", ("reroll", "fighter_rank")),
    "points_rounding": OptionSpec("floor", "DEF", "Rounding of halved movement points.", "enum", ("floor",)),
    "surprise_rule": OptionSpec("no_first_flurry", "DEF", "What surprise does in the first round (the seed leaves "
                                "it empty).", "enum", ("no_first_flurry", "none")),
    "duel_intention": OptionSpec("kill", "DEF", "Intention of simulated fighters.", "enum", INTENTIONS),
    "duel_tactic": OptionSpec("hold", "DEF", "Maneuver tactic of simulated fighters.", "enum", TACTICS),
    "max_rounds": OptionSpec(50, "DEF", "Rounds after which a simulated fight is a draw.", "int", minimum=1,
                             maximum=1000),
    "armor_pack": OptionSpec("default", "DEF", "Armor statistics (the text gives none): the starter pack of "
                             "table `armor`, or a whole table sent in its shape.", "custom", reader=_pack,
                             schema=pack_shape(_ARMOR_ROW)),
    "weapon_pack": OptionSpec("default", "DEF", "Weapon statistics (the text gives none): the starter pack of "
                              "table `weapons`, or a whole table sent in its shape.", "custom",
                              reader=_pack, schema=pack_shape(_WEAPON_ROW)),
}


DEFAULTS: dict[str, Any] = {name: spec.default for name, spec in SPECS.items()}


def read(raw: Any, path: tuple = ("options",)) -> dict[str, Any]:
    """The options of one request: each default, overridden by the caller's checked values (§10). The
    defaults are shared, read-only values: no caller changes an options object in place."""
    if not raw and isinstance(raw, (dict, type(None))):
        return dict(DEFAULTS)
    return read_options(SPECS, raw, path)
