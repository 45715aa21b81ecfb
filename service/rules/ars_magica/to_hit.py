"""Chance to hit: a melee attack roll against a defence roll or total (*3. Melee*, OTHER MODIFIERS,
*Combat considerations*), or a missile against its ease factor (*2. First Missiles*, MISSILE FIRE TABLE),
with exceptional blows and botch odds, exactly; and the same rolled with a DiceSource."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service.rules import memo
from service.rules.ars_magica import stress, tables
from service.rules.ars_magica.stress import Rolled
from service.rules.dice import DiceSource
from service.rules.trace import Step, fmt

MELEE = "3. Melee"
FIRE = "2. First Missiles: MISSILE FIRE TABLE"
ATTACK_MODIFIERS = {"high_ground": 3, "side": 1, "behind": 3, "mounted_vs_foot": 3, "all_out": 3}
DEFENCE_MODIFIERS = {"high_ground": 3, "mounted_vs_foot": 3, "desperate": 6, "hold_ground": -2}
NO_ATTACK_MODIFIERS = Step("OTHER MODIFIERS", "attack modifiers none", 0)  # steps are frozen: shared safely
NO_DEFENCE_MODIFIERS = Step("Combat considerations", "defence modifiers none", 0)


@dataclass(frozen=True)
class Missile:
    """A shot as the MISSILE FIRE TABLE sees it."""

    distance_yd: Fraction
    spell: bool = False
    obscured: bool = False
    target_movement: str = "still"
    target_qik: int = 0
    target_size: int = 0
    target_dodge: int | None = None
    shield_defence: int = 0
    into_melee: bool = False


@dataclass(frozen=True)
class Odds:
    """Exclusive outcome probabilities, the headline chance, botch odds and the trace."""

    probabilities: dict[str, Fraction]
    chance: Fraction
    botch: dict[str, Fraction]
    steps: list[Step] = field(default_factory=list)


def attack_modifier(flags: Mapping[str, Any]) -> tuple[int, list[Step]]:
    """OTHER MODIFIERS and *All-out attack* on the attack total (darkness -1..-3)."""
    if not any(flags.values()):  # the usual question: no modifier at all
        return -int(flags.get("darkness", 0)), [NO_ATTACK_MODIFIERS]
    total, used = 0, []
    for name, bonus in ATTACK_MODIFIERS.items():
        if flags.get(name):
            total += bonus
            used.append(name)
    darkness = flags.get("darkness", 0)
    if darkness:
        used.append("darkness")
    total -= int(darkness)
    return total, [Step("OTHER MODIFIERS", f"attack modifiers {used or 'none'}", total)]


def defence_modifier(flags: Mapping[str, Any]) -> tuple[int, list[Step]]:
    """OTHER MODIFIERS, *Desperate defense* (+6) and *Hold ground* (-2) on the defence total."""
    if not any(flags.values()):
        return 0, [NO_DEFENCE_MODIFIERS]
    total, used = 0, []
    for name, bonus in DEFENCE_MODIFIERS.items():
        if flags.get(name):
            total += bonus
            used.append(name)
    return total, [Step("Combat considerations", f"defence modifiers {used or 'none'}", total)]


def defence_roll(defence: int, mode: str, botch_dice: int) -> stress.Roll:
    """The defence side of *3. Melee*: a roll (total + stress; a botch counts 0), the bare total (a later
    attack), or the die alone (attacked from surprise: no defence score, OTHER MODIFIERS)."""
    if mode == "total":
        return stress.fixed(defence)
    return stress.stress_roll(0 if mode == "surprised" else defence, botch_dice, botched_value=0)


def melee_odds(attack: int, defence: int, mode: str, botch_dice: Mapping[str, int],
               options: Mapping[str, Any]) -> Odds:
    """P(miss, hit, exceptional) of attack roll vs defence (*3. Melee*): a hit beats the defence (ties to
    option `attack_tie`), exceptional when the margin reaches option `exceptional_margin`; a botched attack
    misses. A pure function of its arguments, so answers are remembered."""
    return _melee_odds(attack, defence, mode, botch_dice["attack"], botch_dice["defence"], options["attack_tie"],
                       options["exceptional_margin"])


@memo.bounded
def _melee_odds(attack: int, defence: int, mode: str, botch_a: int, botch_d: int, tie: str, margin: int) -> Odds:
    a = stress.stress_roll(attack, botch_a)
    d = defence_roll(defence, mode, botch_d)
    landed = stress.greater(a, d, -1 if tie == "attacker" else 0)
    exceptional = stress.greater(a, d, margin - 1)
    probs = {"miss": 1 - landed, "hit": landed - exceptional, "exceptional": exceptional}
    botch = {"attack": stress.botch_chance(botch_a),
             "defence": Fraction(0) if mode == "total" else stress.botch_chance(botch_d)}
    steps = [Step(MELEE, f"attack {attack} + stress vs defence {defence} ({mode}); hits {fmt(landed)}", landed),
             Step(MELEE, f"exceptional when the margin is at least {margin}", exceptional)]
    return Odds(probs, landed, botch, steps)


def ease_factor(shot: Missile) -> tuple[int, list[Step]]:
    """The MISSILE FIRE TABLE: base 6 plus each modifier (spell targeting uses its own column for the two
    nearest bands)."""
    table = tables.load("missile-fire")
    band = next(b for b in table["distance"] if b["max_yd"] is None or shot.distance_yd <= b["max_yd"])
    parts = {"base": table["base"], "distance": band["spell_modifier" if shot.spell else "modifier"],
             "obscured": table["obscured"] if shot.obscured else 0,
             "movement": table["target_movement"][shot.target_movement]
             + (shot.target_qik if shot.target_movement == "sprinting" else 0),
             "size": -shot.target_size, "dodging": shot.target_dodge or 0, "shield": shot.shield_defence,
             "into_melee": table["into_melee"] if shot.into_melee else 0}
    ef = sum(parts.values())
    return ef, [Step(FIRE, f"{name} {value:+d}", value) for name, value in parts.items() if value] + [
        Step(FIRE, "ease factor", ef)]


def missile_odds(attack: int, ef: int, into_melee: bool, botch_dice: int, options: Mapping[str, Any]) -> Odds:
    """P(miss, friend, hit, exceptional) of a shot (*2. First Missiles*): hit iff roll >= EF; exceptional
    at EF + option `missile_exceptional_margin`; into a melee, a roll that misses only by the +3 hits a
    friend. Remembered like `melee_odds`."""
    return _missile_odds(attack, ef, into_melee, botch_dice, options["missile_exceptional_margin"])


@memo.bounded
def _missile_odds(attack: int, ef: int, into_melee: bool, botch_dice: int, margin: int) -> Odds:
    a = stress.stress_roll(attack, botch_dice)
    hit = stress.at_least(a, ef)
    exceptional = stress.at_least(a, ef + margin)
    friend = stress.at_least(a, ef - 3) - hit if into_melee else Fraction(0)
    probs = {"miss": 1 - hit - friend, "friend": friend, "hit": hit - exceptional, "exceptional": exceptional}
    steps = [Step(FIRE, f"attack {attack} + stress >= ease factor {ef}", hit)]
    return Odds(probs, hit, {"attack": stress.botch_chance(botch_dice), "defence": Fraction(0)}, steps)


@dataclass(frozen=True)
class Swing:
    """One attack as rolled: both rolls (0 when botched), botches, margin and outcome."""

    attack_roll: int
    defence_roll: int | None
    attack_botches: int
    defence_botches: int
    margin: int
    outcome: str
    attack_die: Rolled
    defence_die: Rolled | None


def roll_melee(attack: int, defence: int, mode: str, botch_dice: Mapping[str, int], options: Mapping[str, Any],
               dice: DiceSource, combatant: str | None = None, defender: str | None = None,
               roles: tuple[str, str, str, str] = ("attack", "attack_botch", "defence", "defence_botch")) -> Swing:
    """Roll one melee attack (*3. Melee*): stress dice for both sides (not the defence in `total` mode)."""
    a = stress.roll_stress(dice, roles[0], botch_dice["attack"], roles[1], combatant)
    d = None
    if mode == "total":
        d_roll = defence
    else:
        d = stress.roll_stress(dice, roles[2], botch_dice["defence"], roles[3], defender)
        d_roll = d.total(0 if mode == "surprised" else defence)
    a_roll = a.total(attack)
    margin = a_roll - d_roll
    beat = margin >= 0 if options["attack_tie"] == "attacker" else margin > 0
    outcome = "miss" if a.botched or not beat else (
        "exceptional" if margin >= options["exceptional_margin"] else "hit")
    return Swing(a_roll, d_roll, a.botches, d.botches if d else 0, margin, outcome, a, d)


def roll_missile(attack: int, ef: int, into_melee: bool, botch_dice: int, options: Mapping[str, Any],
                 dice: DiceSource, combatant: str | None = None,
                 roles: tuple[str, str] = ("attack", "attack_botch")) -> Swing:
    """Roll one shot against its ease factor (*2. First Missiles*)."""
    a = stress.roll_stress(dice, roles[0], botch_dice, roles[1], combatant)
    a_roll = a.total(attack)
    if a.botched or a_roll < ef - (3 if into_melee else 0):
        outcome = "miss"
    elif a_roll < ef:
        outcome = "friend"
    else:
        outcome = "exceptional" if a_roll >= ef + options["missile_exceptional_margin"] else "hit"
    return Swing(a_roll, None, a.botches, 0, a_roll - ef, outcome, a, None)
