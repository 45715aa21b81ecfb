"""The vectorised `war-and-combat` engine: melee fights of any size played with numpy arrays over every
fight of a chunk, the round resolver's rules (`service.rules.war_and_combat.round`) under the duel policy
(`service.rules.war_and_combat.duel`): nearest foes, paths, initiative, movement, engagement groups and
their flurries. `accepts` sends the rest to the resolver loop;
`tests/unit/war_and_combat/test_engine_differential.py` holds the two to the same distribution."""
from __future__ import annotations

from service.sim.cost import LOOP_CHUNK, Rates
from service.sim.engines.war_and_combat.accepts import accepts
from service.sim.engines.war_and_combat.fight import simulate

__all__ = ["LOOP_RATES", "RATES", "accepts", "simulate"]

# CPU microseconds of a chunk (service.sim.cost): this vectorised engine, and the ruleset's resolver loop
# (every combatant declares and acts each round; targets are looked up among all the others).
RATES = Rates((2000.0, 150.0), (3000.0, 800.0), (4.0, 3.0, 0.2))
LOOP_RATES = Rates(LOOP_CHUNK, (0.0, 0.0), (200.0, 100.0, 1.2))
