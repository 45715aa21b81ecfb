"""The vectorised `war-and-combat` duel: one-on-one melee fights played with numpy arrays, the same rules as
the round resolver (`service.rules.war_and_combat.engine`) for what a duel uses; any other matchup (more
fighters, missiles, other intentions or tactics, fighters already hurt) is played by the resolver loop
(`vectorisable` says which, for the cost model).
`tests/unit/war_and_combat/test_engine_differential.py` holds the two to the same distribution."""
from __future__ import annotations

from service.sim.cost import LOOP_CHUNK, Rates
from service.sim.engines.war_and_combat.duel import simulate, vectorisable

__all__ = ["LOOP_RATES", "RATES", "simulate", "vectorisable"]

# CPU microseconds of a chunk (service.sim.cost): this vectorised duel, and the ruleset's resolver loop
# (every combatant declares and acts each round; targets are looked up among all the others).
RATES = Rates((1000.0, 0.0), (1500.0, 0.0), (6.0, 0.0, 0.0))
LOOP_RATES = Rates(LOOP_CHUNK, (0.0, 0.0), (200.0, 100.0, 1.2))
