"""The Statement of Intent: two actions, their strike ranks and modifiers (rules document §8, §12.8;
seed *1) Statement of Intent*)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.rules.errors import Contradiction, RulesError, UnknownName
from service.rules.runequest_house import stats
from service.rules.trace import Step

TIMED = ("attack", "missile", "cast")


@dataclass(frozen=True)
class Intent:
    """Whether the two actions go together, why not, and each action's SR and modifier."""

    valid: bool
    problems: list[str]
    actions: list[dict[str, Any]]
    trace: list[Step] = field(default_factory=list)


def weapon_sr(weapon: Mapping[str, Any], options: Mapping[str, Any], path: tuple) -> int:
    """A weapon's own SR: given inline, or the weapon pack's by name."""
    if weapon.get("sr") is not None:
        return weapon["sr"]
    known = options["weapon_pack"]["weapons"]
    if weapon.get("name") not in known:
        raise UnknownName(f"weapon {weapon.get('name')!r} has no sr and is not in the weapon pack", (*path, "sr"))
    return known[weapon["name"]]["sr"]


def cast_sr(action: Mapping[str, Any], dex: int, options: Mapping[str, Any], path: tuple) -> int:
    """A spell's own SR: `spell_sr` as given, or `spell_sr_formula` from `magic_points` [CORE]."""
    if action.get("spell_sr") is not None:
        return action["spell_sr"]
    if action.get("magic_points") is None:
        raise Contradiction("a cast needs spell_sr or magic_points", (*path, "spell_sr"))
    return stats.spell_sr(dex, action["magic_points"], options)


def state_intent(dex: int, siz: int, weapons: Sequence[Mapping[str, Any]], actions: Sequence[Mapping[str, Any]],
                 options: Mapping[str, Any], path: tuple = ("actions",)) -> Intent:
    """Each action's SR (melee DEX SR + SIZ SR + weapon SR; missile DEX SR; spells their own SR) and the
    doubled options [DOC]: one weapon twice at -10% each, the second min(SR + 3, 10); two weapons at their
    own SRs; two spells only if their SRs total 10 or less, the second at the sum."""
    problems, out, steps = [], [], []
    allowed = options["intent_actions"]
    for i, action in enumerate(actions):
        if action["type"] not in allowed:
            problems.append(f"action {i}: {action['type']} is not an allowed action ({', '.join(allowed)})")
    for i, action in enumerate(actions):
        where = (*path, i)
        sr, modifier = None, 0
        if action["type"] == "attack":
            index = action.get("weapon")
            if index is None:
                raise Contradiction("an attack names its weapon (an index into weapons)", (*where, "weapon"))
            if not 0 <= index < len(weapons):
                raise Contradiction(f"no weapon {index} (the combatant has {len(weapons)})", (*where, "weapon"))
            sr = stats.melee_sr(dex, siz, weapon_sr(weapons[index], options, ("combatant", "weapons", index)), options)
        elif action["type"] == "missile":
            sr = stats.dex_sr(dex, options)
        elif action["type"] == "cast":
            sr = cast_sr(action, dex, options, where)
        out.append({"type": action["type"], "sr": sr, "modifier": modifier})
    types = [a["type"] for a in actions]
    if types == ["attack", "attack"] and actions[0].get("weapon") == actions[1].get("weapon"):
        first = out[0]["sr"]
        out[0]["modifier"] = out[1]["modifier"] = -10
        out[1]["sr"] = stats.second_attack_sr(first)
        steps.append(Step("1) Statement of Intent", f"one weapon twice: -10% each, SRs {first} and {out[1]['sr']}",
                          out[1]["sr"]))
    if types == ["cast", "cast"]:
        total = out[0]["sr"] + out[1]["sr"]
        out[1]["sr"] = total
        steps.append(Step("1) Statement of Intent", f"two spells: the second goes off on SR {total}", total))
        if total > 10:
            problems.append(f"two spells need {total} SR, more than 10")
    for i, item in enumerate(out):
        if item["sr"] is not None:
            steps.append(Step("3) Melee Phase", f"action {i} ({item['type']}) on SR {item['sr']}", item["sr"]))
    return Intent(not problems, problems, out, steps)
