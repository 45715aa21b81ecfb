"""POST /v1/smoting/injury: injury location and effect (smoting.md 12)."""
from __future__ import annotations

from service.api.smoting.calculators import operation
from service.api.smoting.schemas.injury import InjuryRequestSchema, InjurySchema
from service.rules.smoting import calculators as calc

operation("/injury", "smotingInjury", (InjuryRequestSchema, InjurySchema), calc.injury,
          "Injury location (4d6, the face shown most) and effect (1d6, +1 on a killing blow).")
