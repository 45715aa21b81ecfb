"""The `ars-magica` ruleset over HTTP (seed 002); its layout is every ruleset's (service/api/__init__.py)."""

MODULES = ("calculators.to_hit", "calculators.damage", "calculators.check", "calculators.combatant",
           "calculators.movement", "steps", "encounters", "simulations")
