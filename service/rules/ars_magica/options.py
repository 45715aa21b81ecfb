"""Every ruling of the `ars-magica` document a game master may make otherwise, as an option (document §10).

Defaults are the document's; the [CORE] ladders and the invented weapon and armor packs are options whose
value is the whole table (send the whole table to override it).
"""
from __future__ import annotations

from typing import Any

from service.rules.ars_magica import tables
from service.rules.ars_magica.ladders import LADDER, read_ladder
from service.rules.options import OptionSpec

LOCATIONS = ("head", "body", "arm", "leg")
SEVERITIES = ("minor", "major", "grave")
TWO_WEAPON_TOTALS = ("attack", "defence", "initiative", "damage")
WEAPON_STATS = ("init", "attack", "defence", "damage")


_EFFECT = {"type": "string", "minLength": 1, "maxLength": 60}
EFFECTS = {"type": "object", "required": list(LOCATIONS), "additionalProperties": False,
           "properties": {place: {"type": "object", "required": list(SEVERITIES), "additionalProperties": False,
                                  "properties": {s: _EFFECT for s in SEVERITIES}} for place in LOCATIONS}}
_BONUS = {"type": "integer", "minimum": -50, "maximum": 50}
_NAMES = {"type": "string", "maxLength": 40}


def _pack_shape(row: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "minProperties": 1, "maxProperties": 100, "propertyNames": _NAMES,
            "additionalProperties": {"type": "object", "additionalProperties": False, "properties": row}}


WEAPONS = _pack_shape({**{s: _BONUS for s in WEAPON_STATS}, "missile": {"type": "boolean"},
                       "range": {"enum": ["touch", "reach", "close", "missile"]}})
ARMOR = _pack_shape({"protection": _BONUS})
TOTALS = {"type": "array", "maxItems": len(TWO_WEAPON_TOTALS), "uniqueItems": True,
          "items": {"enum": list(TWO_WEAPON_TOTALS)}}


def _effects(value: Any, path: tuple) -> dict[str, dict[str, str]]:
    """Option `exceptional_effects` (`EFFECTS`): {location: {minor, major, grave: effect name}}."""
    return {place: {s: value[place][s] for s in SEVERITIES} for place in LOCATIONS}


def _pack(value: Any, stats: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    out = {}
    for name, row in value.items():
        entry: dict[str, Any] = {s: int(row.get(s, 0)) for s in stats}
        if stats == WEAPON_STATS:
            entry["missile"] = bool(row.get("missile", False))
            entry["range"] = row.get("range", "reach")
        out[str(name)] = entry
    return out


def _weapons(value: Any, path: tuple) -> dict[str, dict[str, Any]]:
    """Option `weapon_pack` (`WEAPONS`): init, attack, defence, damage bonuses by name."""
    return _pack(value, WEAPON_STATS)


def _armor(value: Any, path: tuple) -> dict[str, dict[str, Any]]:
    """Option `armor_pack` (`ARMOR`): protection by name."""
    return _pack(value, ("protection",))


def _subset(value: Any, path: tuple) -> list[str]:
    """Option `two_weapon_penalties_on` (`TOTALS`): distinct total names."""
    return list(value)


def _enum(default: Any, tag: str, summary: str, *choices: Any) -> OptionSpec:
    return OptionSpec(default, tag, summary, "enum", choices=(default, *choices))


OPTIONS: dict[str, OptionSpec] = {
    "botch_dice": OptionSpec(1, "CORE", "Botch dice rolled when a combat stress roll shows 0 (3. Melee).",
                             "int", minimum=0, maximum=10),
    "botched_total": _enum("zero", "DEF", "A botched roll counts as a total of 0 in every comparison."),
    "attack_tie": _enum("defender", "DEF", "Who wins when the attack roll equals the defence roll.", "attacker"),
    "exceptional_margin": OptionSpec(15, "INF", "Attack roll minus defence roll at or above which a blow is "
                                     "exceptional.", "int", minimum=1, maximum=50),
    "missile_exceptional_margin": OptionSpec(10, "INF", "Points over the ease factor at or above which a shot "
                                             "is exceptional.", "int", minimum=1, maximum=50),
    "defence_uses": _enum("best", "DEF", "Defence adds the better of weapon defence bonus and Qik, or one of "
                          "them.", "weapon", "quickness"),
    "defence_size_sign": _enum("subtract", "INF", "Size is subtracted from Defence (the table) or added (the "
                               "prose).", "add"),
    "missile_attack_characteristic": _enum("per", "INF", "Characteristic of a missile attack total.", "dex"),
    "penalties_apply": OptionSpec(True, "CORE", "Wound and fatigue penalties lower Initiative, Attack, Defence "
                                  "and Dodge.", "bool"),
    "spell_tie": _enum("no_fatigue", "DEF", "A casting roll equal to the spell level succeeds without fatigue.",
                       "fatigue"),
    "all_out_doubles": _enum("margin", "INF", "An all-out attack doubles the margin over soak, or the levels.",
                             "levels"),
    "exceptional_effects": OptionSpec(_effects(tables.load("exceptional-blow")["effects"], ()), "DEF",
                                      "Effect of an exceptional blow by location and severity.", reader=_effects,
                                      schema=EFFECTS),
    "body_levels": OptionSpec(read_ladder(tables.rows("body-levels"), ()), "CORE", "The body-level ladder (ArM4).",
                              reader=read_ladder, schema=LADDER),
    "fatigue_levels": OptionSpec(read_ladder(tables.rows("fatigue-levels"), ()), "CORE", "The fatigue-level ladder (ArM4).",
                                 reader=read_ladder, schema=LADDER),
    "armor_pack": OptionSpec(_armor(tables.rows("armor"), ()), "DEF", "Armor by name: protection (invented starter "
                             "values).", reader=_armor, schema=ARMOR),
    "weapon_pack": OptionSpec(_weapons(tables.rows("weapons"), ()), "DEF", "Weapons by name: init, attack, defence, damage "
                              "bonuses (invented starter values).", reader=_weapons, schema=WEAPONS),
    "round_seconds": OptionSpec(6, "DEF", "Length of a combat round in seconds.", "number", minimum=1,
                                maximum=60),
    "movement_halving": _enum("floor", "DEF", "Halved movement is rounded down."),
    "declaration_order": _enum("lowest_initiative_first", "DEF", "Order in which declarations are made.",
                               "highest_initiative_first"),
    "initiative_tie": _enum("higher_total_then_reroll", "DEF", "Initiative contest ties: higher total, then "
                            "a re-roll."),
    "missile_schedule_start": _enum("first_round", "DEF", "Missile-rate schedules count from the first round "
                                    "of shooting."),
    "botch_index": _enum("stress_zero_ten", "INF", "Botch tables are read with a stress die whose 0 counts 10 "
                         "(no botch), the highest entry at or below it."),
    "multiple_botches": _enum("worst", "DEF", "With several botches, the worst (highest) entry applies."),
    "botch_effects": _enum("table", "DEF", "Botches apply the table's mechanical effects, or are plain "
                           "failures.", "miss_only"),
    "desperate_defence_rolls": _enum("each_attack", "DEF", "A desperate defender rolls against each attack, "
                                     "or once.", "once"),
    "ai_stance": _enum("normal", "DEF", "Simulated fighters' stance.", "all_out_when_opponent_hurt",
                       "desperate_when_heavy"),
    "two_weapon_penalties_on": OptionSpec(["attack", "defence"], "DEF", "Totals the two-weapon penalties "
                                          "lower.", reader=_subset, schema=TOTALS),
    "size_adds_levels": OptionSpec(False, "DEF", "A positive Size adds that many extra `hurt` levels to the "
                                   "body ladder.", "bool"),
    "melee_order": _enum("initiative_roll", "DEF", "Melee attacks go in order of initiative rolls, or pair by "
                         "pair.", "group_by_group"),
    "max_rounds": OptionSpec(50, "DEF", "Rounds after which a simulated fight is a draw.", "int", minimum=1,
                             maximum=1000),
}
