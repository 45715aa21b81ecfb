"""Combat totals (*Common totals*, MELEE TOTALS), weapon & shield skills (WEAPON SKILLS), two weapons
(*Two weapons*) and the missile rate (MISSILE RATE TABLE)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from service.rules.ars_magica import tables
from service.rules.errors import UnknownName
from service.rules.trace import Step

CHARACTERISTICS = ("int", "per", "str", "stm", "pre", "com", "dex", "qik")
ABILITIES = ("weapon", "dodge", "athletics", "ride", "brawl")
MELEE = "Common totals: MELEE TOTALS"


@dataclass(frozen=True)
class Weapon:
    """A weapon's bonuses (ArM4 statistics; the starter pack is invented, option `weapon_pack`)."""

    name: str | None = None
    init: int = 0
    attack: int = 0
    defence: int = 0
    damage: int = 0
    missile: bool = False
    range: str = "reach"

    def as_dict(self) -> dict[str, Any]:
        """The weapon as JSON."""
        return {"name": self.name, "init": self.init, "attack": self.attack, "defence": self.defence,
                "damage": self.damage, "missile": self.missile, "range": self.range}


UNARMED = Weapon("unarmed", range="touch")


@dataclass(frozen=True)
class Fighter:
    """What the totals are made of: characteristics, Size, abilities, gear, Enc and current penalties."""

    characteristics: Mapping[str, int] = field(default_factory=dict)
    size: int = 0
    abilities: Mapping[str, int] = field(default_factory=dict)
    weapon: Weapon = Weapon()
    protection: int = 0
    shield: int = 0
    encumbrance: int = 0
    wound_penalty: int = 0
    fatigue_penalty: int = 0
    mounted: bool = False

    def char(self, name: str) -> int:
        """One characteristic (0 when not given)."""
        return int(self.characteristics.get(name, 0))

    def ability(self, name: str) -> int:
        """One ability (0 when not given)."""
        return int(self.abilities.get(name, 0))


@dataclass(frozen=True)
class Totals:
    """The six totals, the penalty applied to the first four, and how each was reached."""

    initiative: int
    attack: int
    defence: int
    damage: int
    dodge: int
    soak: int
    penalty: int
    steps: tuple[Step, ...]


def weapon_of(value: Any, pack: Mapping[str, Mapping[str, Any]], path: tuple) -> Weapon:
    """A weapon given as stats or as a name in the weapon pack (option `weapon_pack`)."""
    if value is None:
        return Weapon()
    if isinstance(value, str):
        if value not in pack:
            raise UnknownName(f"no weapon {value!r} in the weapon pack", path)
        row = pack[value]
        return Weapon(value, row.get("init", 0), row.get("attack", 0), row.get("defence", 0), row.get("damage", 0),
                      bool(row.get("missile", False)), row.get("range", "reach"))
    return Weapon(value.get("name"), value.get("init", 0), value.get("attack", 0), value.get("defence", 0),
                  value.get("damage", 0), bool(value.get("missile", False)), value.get("range", "reach"))


def protection_of(value: Any, pack: Mapping[str, Mapping[str, Any]], path: tuple) -> int:
    """Armor protection given as `{protection}` or as a name in the armor pack (option `armor_pack`)."""
    if value is None:
        return 0
    if isinstance(value, str):
        if value not in pack:
            raise UnknownName(f"no armor {value!r} in the armor pack", path)
        return int(pack[value]["protection"])
    return int(value.get("protection", 0))


def totals(f: Fighter, options: Mapping[str, Any]) -> Totals:
    """The MELEE TOTALS of `f` with its weapon: mounted fighters cap weapon skill at Ride and have Enc 0
    (*Mounted combat*); penalties (<= 0) are added to Initiative, Attack, Defence and Dodge (option
    `penalties_apply`)."""
    enc = 0 if f.mounted else abs(f.encumbrance)
    skill = min(f.ability("weapon"), f.ability("ride")) if f.mounted else f.ability("weapon")
    pen = f.wound_penalty + f.fatigue_penalty if options["penalties_apply"] else 0
    w = f.weapon
    aim_name = "per" if w.missile and options["missile_attack_characteristic"] == "per" else "dex"
    aim = f.char(aim_name)
    guard = {"best": max(w.defence, f.char("qik")), "weapon": w.defence,
             "quickness": f.char("qik")}[options["defence_uses"]]
    size_sign = -1 if options["defence_size_sign"] == "subtract" else 1
    initiative = f.char("qik") + skill + w.init - enc + pen
    attack = aim + skill + w.attack + pen
    defence = skill + guard + size_sign * f.size - enc + f.shield + pen
    damage = skill + w.damage + (0 if w.missile else f.char("str") + max(f.size, 0))
    dodge = f.char("qik") + f.ability("dodge") - f.size - enc + pen
    soak = f.char("stm") + f.size + f.protection
    steps = (Step(MELEE, f"Initiative: Qik + skill {skill} + weapon init - Enc {enc} + penalty {pen}", initiative),
             Step(MELEE, f"Attack: {aim_name.title()} + skill + weapon attack + penalty", attack),
             Step(MELEE, f"Defence: skill + {options['defence_uses']} guard {guard} "
                         f"{'-' if size_sign < 0 else '+'} Size - Enc + shield {f.shield} + penalty", defence),
             Step(MELEE, "Damage: skill + weapon damage" + ("" if w.missile else " + Str + positive Size"), damage),
             Step(MELEE, "Dodge: Qik + Dodge - Size - Enc + penalty", dodge),
             Step(MELEE, f"Soak: Stm + Size + protection {f.protection}", soak))
    return Totals(initiative, attack, defence, damage, dodge, soak, pen, steps)


def shield_skill(skill: int) -> int:
    """The other of weapon / weapon & shield skill works at half the skill, rounded down (WEAPON SKILLS)."""
    return skill // 2


def two_weapon_adjustments(mode: str | None, weapon: Weapon, off_hand: Weapon, ambidextrous: bool) -> dict[str, int] | None:
    """*Two weapons*: -1 good hand, -3 off hand (none when ambidextrous); attacking with `weapon` while
    defending with `off_hand` adds half the off hand's attack bonus to the attack roll and half the
    weapon's defence bonus to the defence roll, both rounded up."""
    if mode is None:
        return None
    both = mode == "attack_and_defend"
    return {"attack_bonus": -(-off_hand.attack // 2) if both else 0,
            "defence_bonus": -(-weapon.defence // 2) if both else 0,
            "main_penalty": 0 if ambidextrous else -1, "off_penalty": 0 if ambidextrous else -3}


def missile_rate(initiative: int) -> dict[str, int | None]:
    """MISSILE RATE TABLE: how often each missile phase fires (every N rounds; None never) by base
    initiative (the Initiative total)."""
    for row in tables.rows("missile-rate"):
        if (row["min"] is None or initiative >= row["min"]) and (row["max"] is None or initiative <= row["max"]):
            return {"first_phase_every": row["first_phase_every"], "second_phase_every": row["second_phase_every"]}
    raise AssertionError("the missile rate table covers every initiative")


def fires(rate: dict[str, int | None], phase: str, round_number: int, first_round: int) -> bool:
    """Whether a shooter fires in `phase` of round `round_number`, counting from his first round of
    shooting (option `missile_schedule_start`: rounds 1, 4, 7... or 1, 3, 5...)."""
    every = rate[f"{phase}_phase_every"]
    return every is not None and (round_number - first_round) % every == 0
