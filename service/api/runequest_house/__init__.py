"""The `runequest-house` ruleset over HTTP (seed 004); its layout is every ruleset's (service/api/__init__.py)."""

MODULES = ("calculators.check", "calculators.to_hit", "calculators.attack", "calculators.damage",
           "calculators.figures", "steps", "encounters", "simulations")
