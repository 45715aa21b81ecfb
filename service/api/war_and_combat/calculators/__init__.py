"""The war-and-combat calculators (rules document §12), one module per operation family: to-hit, check,
damage and attack on the `war-and-combat-calculators` blueprint, the sheets (wounds, combatant, movement) on
their own."""
from __future__ import annotations

from service.api.http.blueprint import Blueprint

blp = Blueprint("war-and-combat-calculators", __name__,
                description="War & Combat (seed 001): chance to hit, checks, damage, whole attacks.")
