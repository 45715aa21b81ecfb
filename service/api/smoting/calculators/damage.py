"""POST /v1/smoting/damage and /attack: a landed blow, and a whole attack (smoting.md 12)."""
from __future__ import annotations

from service.api.smoting.calculators import operation
from service.api.smoting.schemas.damage import (
          AttackRequestSchema,
          AttackSchema,
          DamageRequestSchema,
          DamageSchema,
)
from service.rules.smoting import calculators as calc

operation("/damage", "smotingDamage", (DamageRequestSchema, DamageSchema), calc.damage,
          "A landed blow: damage pool, block and soak, and the defeat, trauma, killing-blow and massive bands.")
operation("/attack", "smotingAttack", (AttackRequestSchema, AttackSchema), calc.attack,
          "One whole attack, from the attack pool to the damage band.")
