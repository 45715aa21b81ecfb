"""Task rolls, Defense by state and hit locations (*Flurry Procedure › Resolution of Attacks*, *Facing*,
*Wound Effects*, HIT LOCATIONS, ACTION PENALTY BY PACE)."""
from __future__ import annotations

from functools import cache
from typing import Any, Mapping

from service.rules.errors import RulesError
from service.rules.war_and_combat.tables import cached

STATES = ("normal", "turned", "pinned", "flank", "flank_undefended", "rear", "defenceless", "unaware", "fallen",
          "crawling", "stunned", "immobile", "unconscious")
PACES = ("none", "creep", "crawl", "walk", "jog", "run", "sprint", "swim", "jump", "dive", "swing")
GENERAL = ("head", "arm", "chest", "belly", "leg")
SPECIFIC = ("head", "chest", "belly", "left_arm", "right_arm", "left_leg", "right_leg")
LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")


def need(tl: int, bonus: int, tie_succeeds: bool) -> int:
    """Smallest 3d6 total that succeeds: the total must beat the TL (or equal it with `tie_succeeds`)
    (*Resolution of Attacks*, "beat the target level")."""
    return tl - bonus + (0 if tie_succeeds else 1)


def succeeds(total: int, tl: int, tie_succeeds: bool) -> bool:
    """Whether a task total succeeds against its TL (*Resolution of Attacks*)."""
    return total >= tl if tie_succeeds else total > tl


def base_defence(fighter_rank: int, agl_mod: int) -> int:
    """Defense = 10 + fighter rank + agility modifier (*Resolution of Attacks*)."""
    return 10 + fighter_rank + agl_mod


def defence(fighter_rank: int, agl_mod: int, state: str, options: Mapping[str, Any], modifier: int = 0) -> int:
    """The Defense a defender offers in `state` (*Zones of Danger*, *Maneuver Tactics*, *Facing*, *Running Out
    of Actions*, *Wound Effects › Stumble?/Stun/Disabled/Knockout*), plus a caller's modifier."""
    normal = base_defence(fighter_rank, agl_mod)
    if state == "normal":
        value = normal
    elif state in ("turned", "pinned"):
        value = normal - 1
    elif state == "flank":
        value = (10 + fighter_rank // 2 + agl_mod if options["flank_defence"] == "half_fighter_rank"
                 else normal // 2)
    elif state in ("flank_undefended", "rear", "defenceless", "unaware"):
        value = options["no_defence_def"]
    elif state in ("fallen", "crawling"):
        value = 5 + fighter_rank
    elif state == "stunned":
        value = 5 + fighter_rank // 2
    elif state in ("immobile", "unconscious"):
        value = 3
    else:
        raise RulesError(f"unknown defender state {state!r}", "state")
    return value + modifier


def actions_per_flurry(fighter_rank: int) -> int:
    """Actions in a flurry: 2, and one more for every fifth fighter rank (*Maneuver Tactics › Actions*)."""
    return 2 + fighter_rank // 5


def pace_penalty(pace: str, options: Mapping[str, Any]) -> int:
    """Action penalty of a pace for every skill roll made while moving (ACTION PENALTY BY PACE); paces the
    table does not list take option `unlisted_pace_penalty`."""
    if pace == "none":
        return 0
    for row in cached("pace"):
        if row["pace"] == pace:
            return row["action_penalty"] if row["action_penalty"] is not None else options["unlisted_pace_penalty"]
    raise RulesError(f"unknown pace {pace!r}", "pace")


def general_location(total: int) -> str:
    """The general location a 3d6 location roll strikes (HIT LOCATIONS, MISSILE HIT LOCATIONS)."""
    for row in cached("hit_location"):
        if row["min"] <= total <= row["max"]:
            return row["location"]
    raise RulesError(f"a 3d6 total is 3..18, not {total}", "location")


@cache
def location_counts() -> dict[str, int]:
    """How many of the 216 location rolls land on each general location (HIT LOCATIONS; shared, read-only)."""
    from service.rules.war_and_combat.exact import THREE_D6
    out = {name: 0 for name in GENERAL}
    for total, count in THREE_D6.items():
        out[general_location(total)] += count
    return out


def general_of(specific: str) -> str:
    """The general location of a specific one (`left_arm` -> `arm`) (HIT LOCATIONS)."""
    return specific.split("_", 1)[1] if "_" in specific else specific


def specific_of(general: str, side: int | None) -> str:
    """A specific location: limbs take a side (1 = left, 2 = right) (*Resolution of Attacks*, side of limb)."""
    if general in ("arm", "leg"):
        return f"{'left' if side == 1 else 'right'}_{general}"
    return general
