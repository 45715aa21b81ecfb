"""POST /v1/smoting/to-hit: an attack pool against dodge, parry or a live defence (smoting.md 12)."""
from __future__ import annotations

from service.api.smoting.calculators import operation
from service.api.smoting.schemas.to_hit import ToHitRequestSchema, ToHitSchema
from service.rules.smoting import calculators as calc

operation("/to-hit", "smotingToHit", (ToHitRequestSchema, ToHitSchema), calc.hit,
          "The chance an attack pool lands against dodge, parry or a live defence pool.")
