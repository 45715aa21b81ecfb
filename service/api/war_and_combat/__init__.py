"""The `war-and-combat` ruleset over HTTP (War & Combat, seed 001); its layout is every ruleset's
(service/api/__init__.py)."""

MODULES = ("calculators.to_hit", "calculators.check", "calculators.damage", "calculators.attack",
           "calculators.sheets", "steps", "encounters", "simulations")
