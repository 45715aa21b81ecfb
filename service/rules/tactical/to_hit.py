"""To-hit: one d100 by the attacker against the chance of AV vs DV ("Resolving the Battle", RULINGS 5-7).

Heroic Effects and Bumbles ("Integrating Heroic Effects into the Flow of Play", RULINGS 6), reuse of a
skill within a Combat Segment (RULINGS 7, F36, F37), the Reprisal halving ("Reprisal") and the surprise
and stun penalties, applied in the order Referee rules (docs/RULINGS.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from service.rules.rounding import half_up_quotient
from service.rules.trace import Step

NO_BUMBLE = 101
HEROIC_RULE = "Integrating Heroic Effects into the Flow of Play"


def heroic_max_roll(chance: int, enabled: bool = True) -> int:
    """RULINGS 6, F3: the highest Heroic roll, round_half_up(chance/10); 0 when there is none."""
    if not enabled:
        return 0
    return max(0, half_up_quotient(chance, 10))


def bumble_min_roll(chance: int, enabled: bool = True) -> int:
    """RULINGS 6, F4, A48: the lowest Bumble roll, 100 - round_half_up((100-chance)/10); 101 when none.

    A Bumble is a failure, so it never starts at or below the chance.
    """
    if not enabled or chance >= 100:
        return NO_BUMBLE
    return max(chance + 1, 100 - half_up_quotient(100 - chance, 10))


@dataclass(frozen=True, slots=True)
class Outcomes:
    """Referee ruling: the hundred d100 faces split into heroic, success, failure and bumble."""

    heroic: Fraction
    success: Fraction
    failure: Fraction
    bumble: Fraction

    def as_dict(self) -> dict[str, Fraction]:
        """The four exact shares by name."""
        return {"heroic": self.heroic, "success": self.success, "failure": self.failure,
                "bumble": self.bumble}


def outcomes(chance: int, heroic: bool = True, bumble: bool = True) -> Outcomes:
    """Exact chances of each outcome of one d100 against `chance` (Referee ruling on RULINGS 1, 6)."""
    top, low = heroic_max_roll(chance, heroic), bumble_min_roll(chance, bumble)
    hit = min(max(chance, 0), 100)
    return Outcomes(Fraction(top, 100), Fraction(hit - top, 100), Fraction(low - 1 - hit, 100),
                    Fraction(101 - low, 100))


def outcome(face: int, chance: int, heroic: bool = True, bumble: bool = True) -> str:
    """Name the result of a d100 face (RULINGS 1, 6): heroic, success, failure or bumble."""
    if face <= chance:
        return "heroic" if face <= heroic_max_roll(chance, heroic) else "success"
    return "bumble" if face >= bumble_min_roll(chance, bumble) else "failure"


def reuse_value(value: int, use: int, free: int = 1) -> int:
    """RULINGS 7, F36, F37, A34: the n-th use in a CS is round_half_up(value / 2^(use - free)) past the free uses.

    Always from the original value; 0 means the skill is no longer available this CS.
    """
    if use <= free:
        return value
    return half_up_quotient(value, 2 ** (use - free))


def reprisal_value(dv: int) -> int:
    """"Reprisal": defending with the weapon that just missed gives half of its current DV (half up)."""
    return half_up_quotient(dv, 2)


@dataclass(frozen=True, slots=True)
class Adjustments:
    """The situation around one attack: reuse counts, Reprisal, surprise and stun penalties (inputs, R19)."""

    attack_use: int = 1
    defence_use: int = 1
    free_defence_uses: int = 1
    reprisal_same_weapon: bool = False
    surprise_penalty: int = 0
    attacker_stun_penalty: int = 0
    defender_stun_penalty: int = 0


def adjusted_av(av: int, adj: Adjustments) -> tuple[int, list[Step]]:
    """Referee ruling on order: AV halved for reuse (RULINGS 7), minus the attacker's stun penalty, never below 0."""
    steps = [Step("RULINGS 4", "attacker's AV as given", av)]
    value = reuse_value(av, adj.attack_use)
    if adj.attack_use > 1:
        steps.append(Step("RULINGS 7", f"use {adj.attack_use} of the attack skill this CS halves the AV "
                                       f"{adj.attack_use - 1} time(s)", value))
    if adj.attacker_stun_penalty:
        value -= adj.attacker_stun_penalty
        steps.append(Step("RULINGS 14", f"minus the attacker's stun penalty {adj.attacker_stun_penalty}", value))
    return _floor(value, steps)


def defence_value(dv: int, adj: Adjustments) -> tuple[int, list[Step]]:
    """RULINGS 7 and "Reprisal": the defence halved for reuse from the original value, then for a Reprisal."""
    steps = [Step("Defenses & Defending", "defence DV as given", dv)]
    value = reuse_value(dv, adj.defence_use, adj.free_defence_uses)
    if adj.defence_use > adj.free_defence_uses:
        steps.append(Step("RULINGS 7", f"use {adj.defence_use} of this defence with {adj.free_defence_uses} "
                                       "free use(s) halves it from the original value", value))
    if adj.reprisal_same_weapon:
        value = reprisal_value(value)
        steps.append(Step("Reprisal", "defending a Reprisal with the weapon that just missed halves its DV",
                          value))
    return value, steps


def penalised_dv(dv: int, adj: Adjustments) -> tuple[int, list[Step]]:
    """Referee ruling on order: minus the surprise penalty ("Surprise!!") and the defender's stun, never below 0."""
    steps: list[Step] = []
    value = dv
    if adj.surprise_penalty:
        value -= adj.surprise_penalty
        steps.append(Step("Surprise!!", f"minus the surprise penalty {adj.surprise_penalty}", value))
    if adj.defender_stun_penalty:
        value -= adj.defender_stun_penalty
        steps.append(Step("RULINGS 14", f"minus the defender's stun penalty {adj.defender_stun_penalty}", value))
    return _floor(value, steps)


def _floor(value: int, steps: list[Step]) -> tuple[int, list[Step]]:
    if value < 0:
        steps.append(Step("Referee ruling", "an AV or DV never goes below 0", 0))
        return 0, steps
    return value, steps
