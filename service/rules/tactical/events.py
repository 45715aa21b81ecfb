"""What happened in a Combat Segment, as past-tense typed records (no words: a narrator adds those).

Seed: "The Order of Play each CS", "Phases of Play", "Resolving the Battle" and "Getting Hit". Every
event that rolled keeps its dice; every event that computed keeps the trace of rules it used.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from service.rules.dice import Roll
from service.rules.trace import Step


@dataclass(frozen=True)
class Event:
    """Base of every event: `kind` names it in JSON as `type`."""

    kind: ClassVar[str] = "event"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": kind, field: value, ...}, dice and trace steps included."""
        out: dict[str, Any] = {"type": self.kind}
        for name in _names(type(self)):
            value = getattr(self, name)
            out[name] = value if type(value) in _EXACT_SCALARS else _plain(value)
        return out


_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = (str, int, float, bool, type(None))


def _names(cls: type) -> tuple[str, ...]:
    if cls not in _NAMES:
        _NAMES[cls] = tuple(f.name for f in fields(cls))
    return _NAMES[cls]


_EXACT_SCALARS = frozenset(_SCALARS)


def _plain(value: Any) -> Any:
    """A value as JSON-ready data; the exact built-in types are told apart by `type` first (the usual
    case, and cheaper than the `isinstance` chain that still handles subclasses)."""
    kind = type(value)
    if kind in _EXACT_SCALARS:
        return value
    if kind is Step or kind is Roll:
        return value.as_dict()
    if kind is tuple or kind is list:
        return [v if type(v) in _EXACT_SCALARS else v.as_dict() if type(v) is Step or type(v) is Roll
                else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _EXACT_SCALARS else _plain(v) for k, v in value.items()}
    return _plain_subclass(value)


def _plain_subclass(value: Any) -> Any:
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (Roll, Step)):
        return value.as_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class SegmentBegan(Event):
    """A new CS started (its number counts from 1)."""

    kind: ClassVar[str] = "segment_began"
    segment: int


@dataclass(frozen=True)
class SurpriseSprung(Event):
    """An aggressor's Surprise met a target's check (seed "Surprise!!")."""

    kind: ClassVar[str] = "surprise"
    aggressor: str
    target: str
    outcome: str
    duration_cs: int
    penalty: int
    dice: tuple[Roll, ...]
    trace: tuple[Step, ...]


@dataclass(frozen=True)
class InitiativeRolled(Event):
    """The roster for this CS and its action passes (seed "Initiative", RULINGS 17)."""

    kind: ClassVar[str] = "initiative"
    roster: tuple[dict[str, Any], ...]
    passes: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ActionDeclared(Event):
    """A combatant committed to an action in the Declaration phase of a pass."""

    kind: ClassVar[str] = "declared"
    combatant: str
    pass_number: int
    action: str
    target: str | None
    weapon: str | None


@dataclass(frozen=True)
class Moved(Event):
    """A combatant moved (pulse 0 means the CS's movement without Pulse Move)."""

    kind: ClassVar[str] = "moved"
    combatant: str
    pulse: int
    rate: float
    feet: float
    to: dict[str, float]


@dataclass(frozen=True)
class AttackRolled(Event):
    """An attack's d100 against TRT(AV, DV), with the defence the target offered."""

    kind: ClassVar[str] = "attack"
    attacker: str
    defender: str
    mode: str
    weapon: str
    av: int
    dv: int
    defence: str
    chance: int
    outcome: str
    dice: tuple[Roll, ...]
    trace: tuple[Step, ...]


@dataclass(frozen=True)
class BlowLanded(Event):
    """A hit's POT, knock-back and what came through the armor (seed "Getting Hit")."""

    kind: ClassVar[str] = "blow"
    attacker: str
    defender: str
    pot: int
    knockback_feet: int
    pot_through_armor: int
    wounds_inflicted: int
    wounds_total: int
    wound_level: str
    armor_after: tuple[dict[str, Any], ...]
    trace: tuple[Step, ...]


@dataclass(frozen=True)
class BodyChecked(Event):
    """A body check, side-swipe or tackle: the contested roll (F39) and who was bounced how far (F40)."""

    kind: ClassVar[str] = "body_check"
    attacker: str
    defender: str
    maneuver: str
    defence: str
    av: int
    dv: int
    attacker_chance: int
    defender_chance: int
    outcome: str
    bounced: str | None
    bounce_feet: int
    dice: tuple[Roll, ...]
    trace: tuple[Step, ...]


@dataclass(frozen=True)
class CheckRolled(Event):
    """A simple d100 check a combatant made for himself (footing, P-RES, HRT, recovery)."""

    kind: ClassVar[str] = "check"
    combatant: str
    check: str
    av: int
    dv: int
    chance: int
    succeeded: bool
    dice: tuple[Roll, ...]


@dataclass(frozen=True)
class StatusChanged(Event):
    """A combatant's standing changed (unconscious, collapsed, dead) or a penalty began."""

    kind: ClassVar[str] = "status"
    combatant: str
    status: str
    reason: str
    stun_penalty: int = 0


@dataclass(frozen=True)
class TaskWorked(Event):
    """One action spent on an `other` task; `left` actions remain (0: it is done this action)."""

    kind: ClassVar[str] = "task"
    combatant: str
    task: str
    left: int


@dataclass(frozen=True)
class ActionLost(Event):
    """A declared action could not be carried out, and why."""

    kind: ClassVar[str] = "action_lost"
    combatant: str
    reason: str


@dataclass(frozen=True)
class SegmentEnded(Event):
    """The CS ended: who still stands, and the upkeep done (pain and surprise waning)."""

    kind: ClassVar[str] = "segment_ended"
    segment: int
    standing: tuple[str, ...]
    trace: tuple[Step, ...]
