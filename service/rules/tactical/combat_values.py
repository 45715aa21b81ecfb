"""The values an encounter state is made of: weapons, armor layers, surprise, combatants and the encounter's
options, with the names each field may take (seed: "Tactical Time & Tactical Situations", "Getting Hit").
state_io reads and writes them; combat_state puts them together."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

STATUSES = ("standing", "unconscious", "collapsed", "dead")
SURPRISE_STATES = ("none", "not-surprised", "stunned", "overwhelmed", "shaken")
GRIPS = ("one-handed", "hand-and-a-half", "two-handed", "hurled", "bow", "crossbow", "brawling")
EDGES = ("blunt", "edged", "pointed")
ATTACKS = ("common", "slash", "thrust")
RANGED = ("bow", "short-bow", "sling", "light-crossbow", "heavy-crossbow", "hurled-hilted", "hurled-hafted")
WEIGHT_CLASSES = ("light", "medium-light", "medium", "medium-heavy", "heavy", "very-heavy")
ATTRIBUTES = {"STR": 10, "mSTA": 10, "CND": 10, "AGL": 10, "HRT": 10, "P-RES": 10, "CRD": 10}
MODS = ("AWA", "HRT", "AGL")


@dataclass(frozen=True)
class Weapon:
    """A weapon in hand (seed "Attacking"): its attack AV, the Parry DV it offers, DB and grip."""

    name: str
    av: int
    parry: int
    size: int
    weight_class: int
    db: int
    grip: str = "one-handed"
    edge: str = "edged"
    attack: str = "common"
    ranged: str | None = None
    fixed_pot: int | None = None
    arrowhead_db: int = 0


@dataclass(frozen=True)
class Layer:
    """One worn armor layer or shield, outermost first: DR as it meets a blow and its wear number."""

    type: str
    dr: int
    durability: int


@dataclass(frozen=True)
class Surprise:
    """Where a combatant stands after a Surprise (seed "Surprise!!"): state, CS left and penalty."""

    state: str = "none"
    cs_left: int = 0
    penalty: int = 0
    failed_dv: int = 0


@dataclass(frozen=True)
class Combatant:
    """One combatant between segments: sheet numbers plus everything the fight has changed."""

    id: str
    side: str
    attributes: Mapping[str, int]
    mods: Mapping[str, int]
    dodge_dv: int
    free_dodges: int
    actions: int
    weapons: tuple[Weapon, ...]
    armor: tuple[Layer, ...]
    x: float = 0.0
    y: float = 0.0
    facing: int = 0
    speed_mph: float = 10.0
    status: str = "standing"
    wounds: int = 0
    pain_initial: int = 0
    pain_age: int = 0
    surprise: Surprise = field(default_factory=Surprise)
    aware: bool = True
    clothing_layers: int = 0
    edged_blow_taken: bool = False
    full_pulses: int = 0
    task: str = ""
    task_left: int = 0
    guard_down: tuple[tuple[str, int], ...] = ()  # (attacker, DV lost) in CS `guard_down_segment` (F41)
    guard_down_segment: int = 0

    @property
    def standing(self) -> bool:
        """True while the combatant can still act (seed "Getting Hit: Levels of Wounding")."""
        return self.status == "standing"

    def attribute(self, name: str) -> int:
        """An attribute score (STR, mSTA, CND, AGL, HRT, P-RES, CRD)."""
        return int(self.attributes[name])

    def mod(self, name: str) -> int:
        """An attribute modifier (AWA, HRT, AGL); 0 when the sheet gives none."""
        return int(self.mods.get(name, 0))


@dataclass(frozen=True)
class Options:
    """Rule switches a game master may set per encounter (RULINGS 19: explicit, with defaults)."""

    pulse_move: bool = False
    task_resolution: str = "ratio"
    heroic: bool = True
    heroic_doubles_pot: bool = True
    bumble: bool = True
    armor_wear: bool = True
    reprisals: bool = True
    progression: str = "triangular"
    tie_break: str = "alphabetical"
    knockback_moves: bool = True
    stray_fire: bool = True
