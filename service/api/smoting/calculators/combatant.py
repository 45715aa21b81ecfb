"""POST /v1/smoting/combatant: a fighter's derived values (smoting.md 12)."""
from __future__ import annotations

from service.api.kit import calculator as kit
from service.api.smoting.calculators import blp, needed
from service.api.smoting.schemas.combatant import CombatantRequestSchema, CombatantSchema
from service.rules.smoting import combatant as fighter

RANKS = [{"rule": "Ranks.", "detail": "derived from ranks, bonuses and group", "value": None}]


@kit.calculator(blp, "/combatant", "smotingCombatant", (CombatantRequestSchema, CombatantSchema), signed=False,
                body_required=needed(CombatantRequestSchema))
def combatant(body: dict) -> dict:
    """Derived values: action dice, soak dice, thresholds, defeats to out of action, crossover."""
    return {**fighter.derived(body, kit.options("smoting", body)), "trace": RANKS}

