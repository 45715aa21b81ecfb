"""What a fighter's wounds add up to: the action penalty (worst wound per location, locations added),
disabled limbs, unconsciousness, immobility, movement, coup-de-grâce and defeat (*Wound Effects*,
*Wound Severity*, *Coup-de-Grâce*; rules document §8 for defeat)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from service.rules.war_and_combat import task
from service.rules.war_and_combat.damage import PENALTY


class cached_property:
    """`functools.cached_property` without the lock Python 3.11 takes on every first read (a round builds
    dozens of conditions); a Condition is read by one round at a time."""

    def __init__(self, func: Any) -> None:
        self.func, self.__doc__ = func, func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


RANK = {None: 0, "light": 1, "serious": 2, "critical": 3, "mortal": 4}


@dataclass(frozen=True)
class Condition:
    """The standing effects of a list of wounds."""

    worst: dict[str, str | None]
    action_penalty: int
    disabled: frozenset[str]
    impaired: frozenset[str]
    unconscious: bool
    immobile: bool
    mortal: bool
    dying: bool

    @cached_property
    def usable_arms(self) -> tuple[str, ...]:
        """Arms that can still attack and defend: neither impaired (Fumble) nor disabled (*Wound Effects*)."""
        return tuple(a for a in ("right_arm", "left_arm") if a not in self.disabled and a not in self.impaired)

    @cached_property
    def bad_legs(self) -> int:
        """Legs impaired or disabled."""
        return sum(1 for leg in ("left_leg", "right_leg") if leg in self.disabled or leg in self.impaired)

    @cached_property
    def stunning(self) -> bool:
        """A serious wound to the head, chest or belly stuns (*Wound Effects › Stun*: the light threshold
        exceeded; a critical one there knocks out, immobilises or takes both legs instead)."""
        return any(self.worst[v] == "serious" for v in ("head", "chest", "belly"))

    @cached_property
    def coup_de_grace(self) -> bool:
        """Eligible for an automatic killing stroke: three limbs disabled, unconscious or mortally wounded
        (*Coup-de-Grâce*)."""
        return len(self.disabled) >= 3 or self.unconscious or self.mortal

    @cached_property
    def defeated(self) -> bool:
        """Out of the fight for the engine: a mortal wound, unconscious, chest or belly critical (immobile or
        legless), three or more limbs disabled, or no usable arm (rules document §8)."""
        belly = RANK[self.worst["belly"]] >= RANK["critical"]
        return (self.mortal or self.unconscious or self.immobile or belly or len(self.disabled) >= 3
                or not self.usable_arms)

    @cached_property
    def movement(self) -> str:
        """Movement left: none (immobile, unconscious, mortal), crawl (both legs bad), half (one), normal
        (*Wound Effects › Stumble, Disabled*)."""
        if self.immobile or self.unconscious or self.mortal:
            return "none"
        bad = self.bad_legs
        return "crawl" if bad == 2 else "half" if bad == 1 else "normal"


def condition(wounds: Iterable[Mapping[str, Any]], unconscious: bool = False,
              options: Mapping[str, Any] | None = None) -> Condition:
    """Sum up wounds: per location only the worst counts, locations add up; mortal wounds count 0 here and
    leave the victim incapable of action (*Wound Effects*, *Wound Severity*)."""
    worst: dict[str, str | None] = {name: None for name in task.SPECIFIC}
    for wound in wounds:
        where, grade = wound["location"], wound["severity"]
        if grade in RANK and RANK[grade] > RANK[worst[where]]:
            worst[where] = grade
    penalty = sum(PENALTY[g] or 0 for g in worst.values() if g is not None)
    disabled = {limb for limb in task.LIMBS if RANK[worst[limb]] >= RANK["critical"]}
    if RANK[worst["belly"]] >= RANK["critical"]:
        disabled |= {"left_leg", "right_leg"}
    impaired = {limb for limb in task.LIMBS if worst[limb] == "serious"}
    mortal = any(g == "mortal" for g in worst.values())
    vital = any(worst[v] == "mortal" for v in ("head", "chest", "belly"))
    dying = vital and (options is None or options.get("mortal_vital_dying", True))
    return Condition(worst, penalty, frozenset(disabled), frozenset(impaired - disabled),
                     unconscious or worst["head"] == "critical", worst["chest"] == "critical", mortal, dying)


_KNOWN: dict[tuple, Condition] = {}


def known_condition(wounds: Iterable[Mapping[str, Any]], unconscious: bool = False,
                    options: Mapping[str, Any] | None = None) -> Condition:
    """`condition`, kept by what it depends on (each wound's location and severity, unconsciousness, the
    `mortal_vital_dying` option): most fighters share the few sets of wounds a fight produces. The object
    is shared, so its callers only read it."""
    dying = True if options is None else options.get("mortal_vital_dying", True)
    key = (tuple((w["location"], w["severity"]) for w in wounds), unconscious, dying)
    found = _KNOWN.get(key)
    if found is None:
        if len(_KNOWN) > 4096:
            _KNOWN.clear()
        found = _KNOWN[key] = condition(wounds, unconscious, options)
    return found


def defence_state(cond: Condition, fallen: bool = False, stunned: bool = False) -> str:
    """The worst Defense state wounds leave a fighter in (*Wound Effects*: immobile and unconscious 3,
    stunned 5 + FR/2, fallen or crawling 5 + FR)."""
    if cond.unconscious:
        return "unconscious"
    if cond.immobile or cond.mortal:
        return "immobile"
    if stunned:
        return "stunned"
    if cond.bad_legs == 2:
        return "crawling"
    if fallen:
        return "fallen"
    return "normal"


@dataclass(frozen=True)
class Stun:
    """A stun the wounds cause: how many rounds (the `stun_rounds` dice) and the Defense while it lasts."""

    rounds: str
    defence: int | None


def stun_of(cond: Condition, options: Mapping[str, Any], fighter_rank: int | None = None,
            agl_mod: int = 0) -> Stun | None:
    """*Wound Effects › Stun* with RULINGS 21: a serious head, chest or belly wound stuns for `stun_rounds`
    rounds from the hit, at Defense 5 + floor(FR/2) (no agility) unless the wounds leave a worse state; None
    when no wound stuns. The stun is timed, so it is reported beside the Defense, not folded into it."""
    if not cond.stunning:
        return None
    defence = None if fighter_rank is None else wound_defence(cond, fighter_rank, agl_mod, options, stunned=True)
    return Stun(str(options["stun_rounds"]), defence)


def wound_defence(cond: Condition, fighter_rank: int, agl_mod: int, options: Mapping[str, Any],
                  stunned: bool = False) -> int:
    """The Defense wounds alone leave (*Wound Effects*, RULINGS 21): 10 + FR + agility unless unconscious,
    immobile, crawling or fallen on a bad leg; the stunned Defense only while `stunned`. The stun itself is
    timed from the hit (the round resolver counts `stunned_rounds`), so the stateless answer leaves it out."""
    return task.defence(fighter_rank, agl_mod, defence_state(cond, cond.bad_legs > 0, stunned), options)

