"""POST /v1/smoting/combatant: a fighter's derived values (smoting.md 12)."""
from __future__ import annotations

from service.api.kit.calculator import calculator, options
from service.api.smoting.calculators import blp
from service.api.smoting.schemas.combatant import CombatantRequestSchema, CombatantSchema
from service.rules.smoting import combatant as fighter

RANKS = [{"rule": "Ranks.", "detail": "derived from ranks, bonuses and group", "value": None}]


def combatant(body: dict) -> dict:
    """Derived values: action dice, soak dice, thresholds, defeats to out of action, crossover."""
    return {**fighter.derived(body, options("smoting", body)), "trace": RANKS}


calculator(blp, "/combatant", "smotingCombatant", (CombatantRequestSchema, CombatantSchema), combatant,
           combatant.__doc__, signed=False)
