"""Ease-factor rolls (EFs written "6+"), fatigue rolls (*6. Fatigue*) and formulaic casting (*5. Magic*:
*Formulaic spell*, Extra Care, Using Vis, WORDS AND GESTURES TABLE), exactly and rolled."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.rules.ars_magica import stress, tables
from service.rules.ars_magica.stress import Rolled
from service.rules.dice import DiceSource
from service.rules.trace import Step

FATIGUE = "6. Fatigue"
SPELL = "5. Magic: Formulaic spell"


@dataclass(frozen=True)
class Check:
    """What is rolled: total, ease factor (the spell level for a casting), botch dice, kind, trace."""

    kind: str
    total: int
    ease_factor: int
    botch_dice: int
    steps: list[Step] = field(default_factory=list)


def fatigue_total(stamina: int, encumbrance: int, wound_penalty: int, fatigue_penalty: int, heat: int) -> tuple[int, Step]:
    """*6. Fatigue*: Stm - Enc + the wound and fatigue penalties (<= 0) - heat (OTHER MODIFIERS)."""
    total = stamina - abs(encumbrance) + wound_penalty + fatigue_penalty - heat
    return total, Step(FATIGUE, f"Stm {stamina} - Enc {abs(encumbrance)} + penalties "
                                f"{wound_penalty + fatigue_penalty} - heat {heat}", total)


def casting_total(technique: int, form: int, stamina: int, encumbrance: int, careful: bool, concentration: int,
                  vis_pawns: int, voice: str, gesture: str) -> tuple[int, list[Step]]:
    """*Formulaic spell*: Te + Fo + Stm - Enc, + Concentration when cast with extra care, + 5 per pawn of
    vis, + the WORDS AND GESTURES modifiers."""
    words = tables.load("words-and-gestures")
    base = technique + form + stamina - abs(encumbrance)
    care = concentration if careful else 0
    total = base + care + 5 * vis_pawns + words["voice"][voice] + words["gesture"][gesture]
    return total, [Step(SPELL, "Te + Fo + Stm - Enc", base),
                   Step("5. Magic: Extra Care", "Concentration added", care),
                   Step("5. Magic: Using Vis", f"+5 x {vis_pawns} pawns", 5 * vis_pawns),
                   Step("WORDS AND GESTURES TABLE", f"voice {voice}, gesture {gesture}",
                        words["voice"][voice] + words["gesture"][gesture]),
                   Step(SPELL, "casting total", total)]


def casting_botch_dice(base: int, careful: bool, vis_pawns: int) -> int:
    """Botch dice of a casting: one fewer with extra care, one more per pawn of vis, never below 0."""
    return max(0, base - int(careful) + vis_pawns)


def odds(check: Check, options: Mapping[str, Any]) -> tuple[dict[str, Fraction], Fraction]:
    """Exclusive outcome probabilities and P(success). Ease and fatigue: success iff roll >= EF. Formulaic:
    roll >= level succeeds without fatigue (option `spell_tie`), level - 10 <= roll < level succeeds with
    a fatigue level, lower fails; a botch is never a success."""
    roll = stress.stress_roll(check.total, check.botch_dice)
    botch = roll.excluded
    if check.kind != "formulaic":
        success = stress.at_least(roll, check.ease_factor)
        return {"success": success, "failure": 1 - success - botch, "botch": botch}, success
    clean_at = check.ease_factor + (1 if options["spell_tie"] == "fatigue" else 0)
    clean = stress.at_least(roll, clean_at)
    tired = stress.at_least(roll, check.ease_factor - 10) - clean
    return {"success": clean, "success_fatigue": tired, "failure": 1 - clean - tired - botch, "botch": botch}, \
        clean + tired


def outcome(check: Check, rolled: Rolled, options: Mapping[str, Any]) -> tuple[int, str]:
    """The roll (total + die, 0 when botched) and its outcome word."""
    value = rolled.total(check.total)
    if rolled.botched:
        return value, "botch"
    if check.kind != "formulaic":
        return value, "success" if value >= check.ease_factor else "failure"
    clean_at = check.ease_factor + (1 if options["spell_tie"] == "fatigue" else 0)
    if value >= clean_at:
        return value, "success"
    return value, "success_fatigue" if value >= check.ease_factor - 10 else "failure"


def roll_check(check: Check, dice: DiceSource, options: Mapping[str, Any], combatant: str | None = None,
               roles: tuple[str, str] = ("roll", "botch")) -> tuple[int, str, Rolled]:
    """Roll the check's stress die (and botch dice on a 0)."""
    rolled = stress.roll_stress(dice, roles[0], check.botch_dice, roles[1], combatant)
    value, word = outcome(check, rolled, options)
    return value, word, rolled
