"""Every ruling of the `ars-magica` document a game master may make otherwise, as an option (document §10).

Defaults are the document's; the [CORE] ladders and the invented weapon and armor packs are options whose
value is the whole table (send the whole table to override it).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.rules.ars_magica import tables
from service.rules.ars_magica.ladders import read_ladder
from service.rules.errors import RulesError
from service.rules.options import OptionSpec, whole

LOCATIONS = ("head", "body", "arm", "leg")
SEVERITIES = ("minor", "major", "grave")
TWO_WEAPON_TOTALS = ("attack", "defence", "initiative", "damage")
WEAPON_STATS = ("init", "attack", "defence", "damage")


def _effects(value: Any, path: tuple) -> dict[str, dict[str, str]]:
    """Option `exceptional_effects`: {location: {minor, major, grave: effect name}} for all four locations."""
    if not isinstance(value, Mapping) or set(value) != set(LOCATIONS):
        raise RulesError(f"must have exactly the locations {list(LOCATIONS)}", path)
    out = {}
    for place in LOCATIONS:
        row = value[place]
        if not isinstance(row, Mapping) or set(row) != set(SEVERITIES) or not all(
                isinstance(row[s], str) and 0 < len(row[s]) <= 60 for s in SEVERITIES):
            raise RulesError("must map minor, major and grave to effect names", (*path, place))
        out[place] = {s: row[s] for s in SEVERITIES}
    return out


def _pack(value: Any, path: tuple, stats: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    if not isinstance(value, Mapping) or not 1 <= len(value) <= 100:
        raise RulesError("must be an object of 1 to 100 named entries", path)
    out = {}
    for name, row in value.items():
        if not isinstance(row, Mapping) or len(name) > 40:
            raise RulesError("each entry is an object", (*path, name))
        entry: dict[str, Any] = {s: whole(row.get(s, 0), (*path, name, s), -50, 50) for s in stats}
        for flag in ("missile",):
            if flag in row and not isinstance(row[flag], bool):
                raise RulesError("must be true or false", (*path, name, flag))
        if stats == WEAPON_STATS:
            entry["missile"] = bool(row.get("missile", False))
            entry["range"] = row.get("range", "reach") if row.get("range") in (
                "touch", "reach", "close", "missile") else "reach"
        out[str(name)] = entry
    return out


def _weapons(value: Any, path: tuple) -> dict[str, dict[str, Any]]:
    return _pack(value, path, WEAPON_STATS)


def _armor(value: Any, path: tuple) -> dict[str, dict[str, Any]]:
    return _pack(value, path, ("protection",))


def _subset(value: Any, path: tuple) -> list[str]:
    if not isinstance(value, list) or any(v not in TWO_WEAPON_TOTALS for v in value) or len(set(value)) != len(value):
        raise RulesError(f"must be distinct names from {list(TWO_WEAPON_TOTALS)}", path)
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
                                      "Effect of an exceptional blow by location and severity.", reader=_effects),
    "body_levels": OptionSpec(read_ladder(tables.rows("body-levels"), ()), "CORE", "The body-level ladder (ArM4).",
                              reader=read_ladder),
    "fatigue_levels": OptionSpec(read_ladder(tables.rows("fatigue-levels"), ()), "CORE", "The fatigue-level ladder (ArM4).",
                                 reader=read_ladder),
    "armor_pack": OptionSpec(_armor(tables.rows("armor"), ()), "DEF", "Armor by name: protection (invented starter "
                             "values).", reader=_armor),
    "weapon_pack": OptionSpec(_weapons(tables.rows("weapons"), ()), "DEF", "Weapons by name: init, attack, defence, damage "
                              "bonuses (invented starter values).", reader=_weapons),
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
                                          "lower.", reader=_subset),
    "size_adds_levels": OptionSpec(False, "DEF", "A positive Size adds that many extra `hurt` levels to the "
                                   "body ladder.", "bool"),
    "melee_order": _enum("initiative_roll", "DEF", "Melee attacks go in order of initiative rolls, or pair by "
                         "pair.", "group_by_group"),
    "max_rounds": OptionSpec(50, "DEF", "Rounds after which a simulated fight is a draw.", "int", minimum=1,
                             maximum=1000),
}
