"""The vectorised `ars-magica` duel: one-on-one melee fights played with numpy arrays, the round resolver's
rules for everything a duel uses (stress dice and botches, the botch tables, exceptional blows, soak, both
ladders, all-out attacks and desperate defence by option `ai_stance`, every option that changes a duel).
`accepts` sends anything else (more fighters, missile weapons, fighters with timed effects) to the resolver
loop; `tests/unit/ars_magica/test_sim_engine.py` holds the two to the same distribution."""
from __future__ import annotations

from service.sim.cost import LOOP_CHUNK, Rates
from service.sim.engines.ars_magica.accepts import accepts
from service.sim.engines.ars_magica.duel import simulate

__all__ = ["LOOP_RATES", "RATES", "accepts", "simulate"]

# CPU microseconds of a chunk (service.sim.cost): this vectorised duel, and the ruleset's resolver loop
# (every combatant declares and acts each round; targets are looked up among all the others).
RATES = Rates((2000.0, 150.0), (1200.0, 200.0), (5.0, 0.5, 0.05))
LOOP_RATES = Rates(LOOP_CHUNK, (0.0, 0.0), (150.0, 70.0, 0.25))
