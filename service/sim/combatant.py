"""One combatant of a matchup, read from the encounter-state combatant format into plain integers.

The simulator needs only what a melee exchange uses: initiative modifiers and tie-breaks, the
attributes behind POT, wounds and pain, each weapon's AV / parry DV / DB / grip, the Dodge DV and
the armor layers (outermost first, DR and wear durability).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from service.rules.errors import RulesError
from service.rules.tactical.board import pain_now
from service.rules.tactical.combat_state import Weapon as StateWeapon
from service.rules.tactical.state_io import read_combatant

GRIPS = {"one-handed": (1, 2), "hurled": (1, 2), "hand-and-a-half": (3, 4), "two-handed": (1, 1)}


@dataclass(frozen=True)
class Weapon:
    """A weapon in hand: attack AV, the Parry DV it gives, DB and the grip's share of (mSTA + STR)."""

    name: str
    av: int
    parry: int
    db: int
    pot_num: int
    pot_den: int
    edged: bool


@dataclass(frozen=True)
class Layer:
    """An armor layer: DR as it meets a blow and the durability wear comes off (RULINGS 12)."""

    name: str
    dr: int
    durability: int


@dataclass(frozen=True)
class Fighter:
    """Everything the engine reads about one combatant."""

    name: str
    init_mod: int
    agl: int
    hrt: int
    pres: int
    strength: int
    msta: int
    cnd: int
    dodge_dv: int
    free_dodges: int
    actions: int
    wounds: int
    pain: int
    weapons: tuple[Weapon, ...]
    armor: tuple[Layer, ...]


def read(raw: Mapping[str, Any], path: tuple) -> Fighter:
    """Read one combatant with the encounter-state reader (same checks and defaults as the segment
    resolver); a bad value raises RulesError naming its path from the body root."""
    combatant = read_combatant(raw, path)
    weapons = tuple(_weapon(w, (*path, "weapons", i)) for i, w in enumerate(combatant.weapons))
    return Fighter(
        name=combatant.id, init_mod=combatant.mod("AWA") + combatant.mod("HRT"),
        agl=combatant.attribute("AGL"), hrt=combatant.attribute("HRT"), pres=combatant.attribute("P-RES"),
        strength=combatant.attribute("STR"), msta=combatant.attribute("mSTA"), cnd=combatant.attribute("CND"),
        dodge_dv=combatant.dodge_dv, free_dodges=combatant.free_dodges, actions=combatant.actions,
        wounds=combatant.wounds, pain=pain_now(combatant), weapons=weapons,
        armor=tuple(Layer(a.type, a.dr, a.durability) for a in combatant.armor),
    )


def _weapon(weapon: StateWeapon, path: tuple) -> Weapon:
    if weapon.grip not in GRIPS:
        raise RulesError(f"the simulator plays hand weapons only: grip one of {sorted(GRIPS)}", (*path, "grip"))
    pot_num, pot_den = GRIPS[weapon.grip]
    return Weapon(weapon.name, weapon.av, weapon.parry, weapon.db, pot_num, pot_den,
                  weapon.edge in ("edged", "pointed"))
