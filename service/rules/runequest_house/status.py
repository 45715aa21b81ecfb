"""Whether a combatant can still fight, and its status word (rules document §5.5 wound consequences [DEF],
§9 end of a simulated fight)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ARMS = ("right_arm", "left_arm")


def weapon_arms(combatant: Mapping[str, Any], weapon_index: int = 0) -> tuple[str, ...]:
    """The arms a weapon needs: the right for a one-handed weapon, both for a two-handed one."""
    weapons = combatant["weapons"]
    if not weapons:
        return ("right_arm",)
    weapon = weapons[min(weapon_index, len(weapons) - 1)]
    return ARMS if weapon["hands"] == 2 else ("right_arm",)


def status(combatant: Mapping[str, Any]) -> str:
    """dead (total HP at 0), dying (a vital location took twice its HP in one blow), unconscious (head at 0),
    incapacitated (chest or abdomen at 0), disarmed (no usable weapon arm), prone, or standing."""
    loc = combatant["location_hp"]
    if combatant["hp"] <= 0:
        return "dead"
    if "dying" in combatant["conditions"]:
        return "dying"
    if loc["head"] <= 0:
        return "unconscious"
    if loc["chest"] <= 0 or loc["abdomen"] <= 0:
        return "incapacitated"
    if any(loc[arm] <= 0 for arm in weapon_arms(combatant)):
        return "disarmed"
    return "prone" if combatant["prone"] else "standing"


def can_fight(combatant: Mapping[str, Any]) -> bool:
    """Able to act: standing or prone (a prone figure still fights, at a penalty)."""
    return status(combatant) in ("standing", "prone")
