"""The `smoting` ruleset over HTTP (Smoting thy Enemy, seed 003); its layout is every ruleset's
(service/api/__init__.py)."""

MODULES = ("calculators.check", "calculators.to_hit", "calculators.damage", "calculators.injury",
           "calculators.combatant", "calculators.movement", "steps", "encounters", "simulations")
