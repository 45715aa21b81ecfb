"""POST /v1/smoting/check: any d6 success pool (smoting.md 12)."""
from __future__ import annotations

from service.api.smoting.calculators import operation
from service.api.smoting.schemas.check import CheckRequestSchema, CheckSchema
from service.rules.smoting import calculators as calc

operation("/check", "smotingCheck", (CheckRequestSchema, CheckSchema), calc.check,
          "Any d6 success pool: a task, an attribute roll, a zone or battle move - odds and an optional roll.")
