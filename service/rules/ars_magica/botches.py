"""Combat botches (*Combat Botch Result Table*): which entry a botch reads (option `botch_index`: a stress
die whose 0 counts 10 and cannot botch, the highest entry at or below it; several botches keep the worst,
option `multiple_botches`) and the mechanical effects the round engine applies (option `botch_effects`)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.rules.ars_magica import tables
from service.rules.ars_magica.fatigue import fatigue_roll
from service.rules.ars_magica.work import Round
from service.rules.dice import DiceSource

TABLES = {"attack": "botch-attack-defence", "defence": "botch-attack-defence", "damage": "botch-damage-soak",
          "soak": "botch-damage-soak"}
MAX_CHAIN = 64


def roll_index(dice: DiceSource, combatant: str | None) -> int:
    """One botch-table die: a stress die whose 0 counts 10 and never botches (2..10 or 2^m x 2..10)."""
    face, supplied = dice.take("botch_index", 10, combatant, first=0)
    faces, every, multiplier = [face], [supplied], 1
    while face == 1 and len(faces) <= MAX_CHAIN:
        multiplier *= 2
        face, supplied = dice.take("botch_index", 10, combatant, first=0)
        faces.append(face)
        every.append(supplied)
    value = multiplier * (10 if face == 0 else face)
    dice.record("botch_index", "1d10", faces, value, all(every), combatant)
    return value


def entry(table: str, value: int) -> Mapping[str, Any]:
    """The highest entry of the table at or below `value` (80+ for everything from 80)."""
    rows = tables.rows(table)
    return max((row for row in rows if row["index"] <= value), key=lambda row: row["index"], default=rows[0])


def effects_of(row: Mapping[str, Any], roll: str) -> Mapping[str, Any]:
    """An entry's effects for this roll (damage/soak entries differ when striking or soaking)."""
    if "effects" in row:
        return row["effects"]
    return row["striking" if roll == "damage" else "soaking"]


def botch(work: Round, who: str, roll: str, botches: int, opponent: str | None,
          self_damage: Callable[[str, str | None], None]) -> None:
    """A botched `roll` (attack, defence, damage, soak) of `who`: the table entry (worst of one die per
    botch) and its mechanical effects; `self_damage(who, opponent)` resolves "against own soak" entries."""
    if work.options["botch_effects"] == "miss_only":
        work.emit("botched", combatant=who, roll=roll, botches=botches, index=None, entry=None)
        return
    value = max(roll_index(work.dice, who) for _ in range(botches))
    row = entry(TABLES[roll], value)
    work.emit("botched", combatant=who, roll=roll, botches=botches, index=value, entry=row["index"],
              summary=row["summary"])
    apply(work, who, effects_of(row, roll), opponent, self_damage)


def apply(work: Round, who: str, effects: Mapping[str, Any], opponent: str | None,
          self_damage: Callable[[str, str | None], None]) -> None:
    """The mechanical effects of one botch entry; anything else is narrative."""
    rounds = effects.get("rounds", 1)
    for kind in ("attack", "defence", "damage"):
        if kind in effects:
            work.add_effect(who, kind, effects[kind], rounds)
    if "skip_attack" in effects:
        work.add_effect(who, "skip_attack", 1, effects["skip_attack"])
    if "lose_initiative" in effects:
        work.add_effect(who, "lose_initiative", 1, effects["lose_initiative"])
    if "opponent_attack" in effects:
        work.add_effect(who, "opponent_attack", effects["opponent_attack"], rounds)
    _body(work, who, effects)
    _gear(work, who, effects)
    if effects.get("self_damage"):
        self_damage(who, opponent)
    if "fatigue_roll" in effects:
        fatigue_roll(work, who, effects["fatigue_roll"], "botch")


def _body(work: Round, who: str, effects: Mapping[str, Any]) -> None:
    work.lose(who, body=effects.get("body_levels", 0), fatigue=effects.get("fatigue_levels", 0), cause="botch")
    for flag, ladder, name in (("unconscious", "fatigue", "unconscious"), ("incapacitated", "body", "incapacitated"),
                               ("dead", "body", "dead")):
        if effects.get(flag):
            work.set_level(who, ladder, name, "botch")


def _gear(work: Round, who: str, effects: Mapping[str, Any]) -> None:
    person = work.people[who]
    work.changed(who)
    for name, change in (effects.get("characteristics") or {}).items():
        person["characteristics"][name] = max(-10, person["characteristics"][name] + change)
    if effects.get("weapon_broken"):
        person["weapon"] = {"name": "broken", "init": 0, "attack": 0, "defence": 0, "damage": 0, "missile": False,
                            "range": "touch"}
    if "protection" in effects:
        from service.rules.ars_magica.totals import protection_of
        current = protection_of(person["armor"], work.options["armor_pack"], ("armor",))
        change = effects["protection"]
        person["armor"] = {"protection": 0 if change == "destroyed" else max(0, current + change)}
