"""Declared actions for one Combat Segment, read and checked against the encounter.

Seed: "Declarations: Character Actions", "Acting Out of Turn: Wait Actions", "A Word about Defenses",
"Opportunity Actions" and "Reprisal". A combatant may declare one action per action it has this CS;
with fewer declarations than actions the last one is repeated (Referee ruling). An attack names its
target, or a `target_policy` that picks the foe when the action resolves (see `segment.strike_target`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.tactical.body_check_declaration import BodyCheckSpec, read_body_check
from service.rules.tactical.combat_state import ATTACKS, Combatant, EncounterState

ACTIONS = ("attack", "charge", "fire", "move", "defend", "wait", "other", "body-check")
DEFENCES = ("best", "dodge", "parry", "none")
REPRISALS = ("attack", "disengage", "none")
TARGET_POLICIES = ("declared", "first-standing", "random-standing")
STRIKES = ("attack", "charge", "fire", "body-check")
MAX_DECLARATIONS = 400
MAX_DAYS_COCKED = 365
CROSSBOWS = ("light-crossbow", "heavy-crossbow")
PLAIN_FIELDS = frozenset(("combatant", "action", "target", "target_policy", "weapon"))  # the usual declaration


@dataclass(frozen=True)
class Dice:
    """Dice the caller rolled at the table for this combatant, used in order before any are rolled."""

    initiative: int | None = None
    d100: tuple[int, ...] = ()


@dataclass(frozen=True)
class Combination:
    """A second weapon joined to a melee attack ("Attack, Defense & Mixed Combinations", F38)."""

    weapon: int
    sl: int
    mode: str = "in-concert"


@dataclass(frozen=True)
class Intimidate:
    """A Presence attack joined to a melee blow ("Demoralizing Attacks, Intimidating Foes", F41): the
    attacker's Presence AV and Intimidate SL, and the DV the target resists with before his bonuses."""

    presence_av: int
    sl: int
    target_dv: int


@dataclass(frozen=True)
class Declaration:
    """One declared action: what, against whom, with which weapon, moving where and how fast."""

    combatant: str
    action: str
    target: str | None = None
    target_policy: str = "declared"
    weapon: int = 0
    attack: str | None = None
    to: tuple[float, float] | None = None
    rate: float = 1.0
    defence: str = "best"
    reprisal: str = "attack"
    opportunity: bool = False
    actions: int | None = None
    surprise: Mapping[str, Any] | None = None
    dice: Dice = field(default_factory=Dice)
    note: str = ""
    duration: int = 1
    combination: Combination | None = None
    intimidate: Intimidate | None = None
    body_check: BodyCheckSpec | None = None
    days_cocked: int = 0


def read_declarations(state: EncounterState, raw: Any, path: tuple = ("declarations",)) -> list[Declaration]:
    """Check a list of declarations against `state` (unknown combatants, weapons and targets refused)."""
    if not isinstance(raw, list) or len(raw) > MAX_DECLARATIONS:
        raise RulesError(f"declarations must be a list of at most {MAX_DECLARATIONS}", path)
    people = roster(state)
    return [read_declaration(state, item, (*path, i), people) for i, item in enumerate(raw)]


def roster(state: EncounterState) -> dict[str, Combatant]:
    """The encounter's combatants by id (the first of an id wins, as `EncounterState.get` finds it)."""
    people: dict[str, Combatant] = {}
    for combatant in state.combatants:
        people.setdefault(combatant.id, combatant)
    return people


def read_declaration(state: EncounterState, raw: Any, path: tuple,
                     people: Mapping[str, Combatant] | None = None) -> Declaration:
    """One declaration, e.g. {"combatant": "a", "action": "attack", "target": "b", "weapon": 0};
    `people` is `roster(state)` when the caller already made it."""
    if not isinstance(raw, Mapping):
        raise RulesError("a declaration must be an object", path)
    if people is None:
        people = roster(state)
    who = _combatant(people, raw.get("combatant"), (*path, "combatant"))
    action = raw.get("action", "attack")
    if action not in ACTIONS:
        raise RulesError(f"action must be one of {list(ACTIONS)}", (*path, "action"))
    target = raw.get("target")
    policy = _choice(raw, "target_policy", path, "declared", TARGET_POLICIES)
    if target is not None:
        _combatant(people, target, (*path, "target"))
        if target == who:
            raise Contradiction("a combatant cannot target himself", (*path, "target"))
    elif action in STRIKES and policy == "declared":
        raise Contradiction(f"a {action} needs a target (or a target_policy)", (*path, "target"))
    weapon = _weapon(people, who, raw.get("weapon", 0), (*path, "weapon"))
    if raw.keys() <= PLAIN_FIELDS and action != "body-check":
        return Declaration(who, action, target, policy, weapon)  # nothing else sent: every other field's default
    return Declaration(
        combatant=who, action=action, target=target, target_policy=policy, weapon=weapon,
        attack=_choice(raw, "attack", path, None, ATTACKS), to=_point(raw.get("to"), (*path, "to")),
        rate=_rate(raw.get("rate", 1), (*path, "rate")),
        defence=_choice(raw, "defence", path, "best", DEFENCES),
        reprisal=_choice(raw, "reprisal", path, "attack", REPRISALS),
        opportunity=_flag(raw, "opportunity", path), actions=_actions(raw.get("actions"), (*path, "actions")),
        surprise=_surprise(state, raw.get("surprise"), (*path, "surprise")), dice=_dice(raw.get("dice"), path),
        note=str(raw.get("note", ""))[:200], duration=_duration(raw.get("duration", 1), (*path, "duration")),
        combination=_combination(people, who, raw, weapon, path), intimidate=_intimidate(raw, path),
        body_check=read_body_check(raw, path), days_cocked=_days_cocked(people[who], raw, weapon, path),
    )


def _days_cocked(person: Combatant, raw: Mapping[str, Any], weapon: int, path: tuple) -> int:
    """A `fire` with a crossbow kept cocked `days_cocked` full days before: -1 POT a day (RULINGS 25)."""
    days = raw.get("days_cocked", 0)
    where = (*path, "days_cocked")
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_DAYS_COCKED:
        raise RulesError(f"days_cocked must be an integer 0..{MAX_DAYS_COCKED}", where)
    if days and (raw.get("action", "attack") != "fire" or person.weapons[weapon].ranged not in CROSSBOWS):
        raise Contradiction("days_cocked goes with a fire declaration of a crossbow", where)
    return days


def _melee_only(raw: Mapping[str, Any], key: str, path: tuple) -> None:
    if raw.get("action", "attack") not in ("attack", "charge"):
        raise Contradiction(f"{key} goes with a melee attack or charge", (*path, key))


def _combination(people: Mapping[str, Combatant], who: str, raw: Mapping[str, Any], lead: int, path: tuple
                 ) -> Combination | None:
    value = raw.get("combination")
    if value is None:
        return None
    where = (*path, "combination")
    if not isinstance(value, Mapping) or set(value) - {"weapon", "sl", "mode"}:
        raise RulesError("combination must be {weapon, sl, mode}", where)
    _melee_only(raw, "combination", path)
    second = _weapon(people, who, value.get("weapon"), (*where, "weapon"))
    if second == lead or people[who].weapons[second].ranged is not None:
        raise Contradiction("the combination's weapon must be another melee weapon in hand", (*where, "weapon"))
    if not _number(value.get("sl"), 1000, integral=True) or value["sl"] < 0:
        raise RulesError("sl must be the Combination SL, 0..1000", (*where, "sl"))
    mode = value.get("mode", "in-concert")
    if mode not in ("in-concert", "separate"):
        raise RulesError("mode must be in-concert or separate", (*where, "mode"))
    return Combination(second, value["sl"], mode)


def _intimidate(raw: Mapping[str, Any], path: tuple) -> Intimidate | None:
    value = raw.get("intimidate")
    if value is None:
        return None
    where = (*path, "intimidate")
    if not isinstance(value, Mapping) or set(value) - {"presence_av", "sl", "target_dv"}:
        raise RulesError("intimidate must be {presence_av, sl, target_dv}", where)
    _melee_only(raw, "intimidate", path)
    for key in ("presence_av", "sl", "target_dv"):
        if not _number(value.get(key), 10_000, integral=True):
            raise RulesError(f"{key} must be an integer", (*where, key))
    return Intimidate(value["presence_av"], value["sl"], value["target_dv"])


def _combatant(people: Mapping[str, Combatant], value: Any, path: tuple) -> str:
    if not isinstance(value, str) or value not in people:
        raise UnknownName(f"no combatant {value!r} in this encounter", path)
    return value


def _weapon(people: Mapping[str, Combatant], who: str, value: Any, path: tuple) -> int:
    weapons = people[who].weapons
    if isinstance(value, str):
        names = [w.name for w in weapons]
        if value in names:
            return names.index(value)
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(weapons):
        return value
    raise UnknownName(f"{who} has no weapon {value!r} (index 0..{len(weapons) - 1} or a name)", path)


def _choice(raw: Mapping[str, Any], key: str, path: tuple, default: Any, choices: tuple[str, ...]) -> Any:
    value = raw.get(key, default)
    if value is not default and value not in choices:
        raise RulesError(f"{key} must be one of {list(choices)}", (*path, key))
    return value


def _flag(raw: Mapping[str, Any], key: str, path: tuple) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise RulesError(f"{key} must be true or false", (*path, key))
    return value


def _point(value: Any, path: tuple) -> tuple[float, float] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(_number(value.get(k), 1e6) for k in ("x", "y")):
        raise RulesError("to must be {x, y} in feet", path)
    return float(value["x"]), float(value["y"])


def _rate(value: Any, path: tuple) -> float:
    if value not in (0, 0.25, 0.5, 0.75, 1):
        raise RulesError("rate must be 0, 0.25, 0.5, 0.75 or 1 (the quarter rates)", path)
    return float(value)


def _actions(value: Any, path: tuple) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
        raise RulesError("actions must be an integer 0..10", path)
    return value


def _duration(value: Any, path: tuple) -> int:
    if not _number(value, 1000, integral=True) or value < 1:
        raise RulesError("duration must be a whole number of actions, 1..1000", path)
    return int(value)


def _surprise(state: EncounterState, value: Any, path: tuple) -> Mapping[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RulesError("surprise must be an object", path)
    for key in ("chance", "target_chance"):
        if not _number(value.get(key), 1000, integral=True):
            raise RulesError(f"{key} must be an integer chance", (*path, key))
    for key in ("target_dv", "roll", "target_roll"):
        if value.get(key) is not None and not _number(value.get(key), 1000, integral=True):
            raise RulesError(f"{key} must be an integer", (*path, key))
    for key in ("roll", "target_roll"):
        if value.get(key) is not None and not 1 <= value[key] <= 100:
            raise RulesError(f"{key} must be a d100 face 1..100", (*path, key))
    return dict(value)


def _dice(value: Any, path: tuple) -> Dice:
    if value is None:
        return Dice()
    if not isinstance(value, Mapping):
        raise RulesError("dice must be an object", (*path, "dice"))
    initiative = value.get("initiative")
    if initiative is not None and not (_number(initiative, 10, integral=True) and initiative >= 1):
        raise RulesError("initiative must be a d10 face 1..10", (*path, "dice", "initiative"))
    faces = value.get("d100", [])
    if not isinstance(faces, list) or len(faces) > 100 or not all(
            _number(f, 100, integral=True) and f >= 1 for f in faces):
        raise RulesError("d100 must be a list of faces 1..100", (*path, "dice", "d100"))
    return Dice(initiative, tuple(faces))


def _number(value: Any, bound: float, integral: bool = False) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if integral and not isinstance(value, int):
        return False
    return -bound <= value <= bound
