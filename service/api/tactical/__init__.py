"""The `tactical` ruleset over HTTP (seed 000); its layout is every ruleset's (service/api/__init__.py)."""

MODULES = ("calculators.to_hit", "calculators.damage", "calculators.movement", "calculators.contests", "steps",
           "calculators.batch", "calculators.maneuvers", "calculators.aftermath", "encounters", "simulations")
