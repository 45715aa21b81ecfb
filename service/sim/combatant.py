"""One combatant of a matchup as plain integers: what the engine needs from the encounter-state format.

The duel rules (`service.rules.tactical.duel`) read and check the matchup for both simulators; this
module only turns a checked combatant into numbers: initiative modifiers and tie-breaks, the attributes
behind POT, wounds and pain, each weapon's AV / parry DV / DB / grip, the Dodge DV and the armor layers
(outermost first, DR and wear durability), and where the fight finds him (status, wounds, pain).
"""
from __future__ import annotations

from dataclasses import dataclass

from service.rules.tactical.combat_state import Combatant, Weapon as StateWeapon

GRIPS = {"one-handed": (1, 2), "hurled": (1, 2), "hand-and-a-half": (3, 4), "two-handed": (1, 1)}
STATUS_CODES = {"standing": 0, "unconscious": 1, "collapsed": 2, "dead": 3}


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
    status: int
    pain: int  # stun-by-pain penalty as first taken (RULINGS 14)
    pain_age: int  # segments it has waned already
    weapons: tuple[Weapon, ...]
    armor: tuple[Layer, ...]


def from_combatant(c: Combatant) -> Fighter:
    """The numbers of one combatant the duel rules have checked."""
    return Fighter(
        name=c.id, init_mod=c.mod("AWA") + c.mod("HRT"), agl=c.attribute("AGL"), hrt=c.attribute("HRT"),
        pres=c.attribute("P-RES"), strength=c.attribute("STR"), msta=c.attribute("mSTA"),
        cnd=c.attribute("CND"), dodge_dv=c.dodge_dv, free_dodges=c.free_dodges, actions=c.actions,
        wounds=c.wounds, status=STATUS_CODES[c.status], pain=c.pain_initial, pain_age=c.pain_age,
        weapons=tuple(_weapon(w) for w in c.weapons),
        armor=tuple(Layer(a.type, a.dr, a.durability) for a in c.armor),
    )


def _weapon(weapon: StateWeapon) -> Weapon:
    pot_num, pot_den = GRIPS[weapon.grip]
    return Weapon(weapon.name, weapon.av, weapon.parry, weapon.db, pot_num, pot_den,
                  weapon.edge in ("edged", "pointed"))
