"""The state of an encounter between Combat Segments: combatants, their wounds, pain, armor and place.

Seed: "Tactical Time & Tactical Situations" (what persists from CS to CS) and "Getting Hit" (wounds,
armor wear, stun by pain). `EncounterState.from_dict` reads the JSON a caller (or the encounter
store) holds and refuses bad values with the path of each; `to_dict` writes the canonical form back,
so `from_dict(to_dict(s)) == s`. The same combatant shape feeds the Monte Carlo simulator.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
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


@dataclass(frozen=True)
class EncounterState:
    """A whole encounter between segments: options, the number of segments resolved, combatants."""

    combatants: tuple[Combatant, ...]
    options: Options = field(default_factory=Options)
    segment: int = 0
    ruleset: str = "tactical"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], path: tuple = ()) -> "EncounterState":
        """Read and check an encounter (RulesError names the first bad field's path)."""
        from service.rules.tactical.state_io import read_state

        return read_state(data, path)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (every field written, defaults included)."""
        from service.rules.tactical.state_io import write_state

        return write_state(self)

    def get(self, combatant_id: str) -> Combatant:
        """The combatant with this id (KeyError when there is none)."""
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise KeyError(combatant_id)

    def with_combatant(self, combatant: Combatant) -> "EncounterState":
        """A copy with one combatant replaced (matched by id)."""
        return replace(self, combatants=tuple(combatant if c.id == combatant.id else c
                                              for c in self.combatants))
