"""The vectorised `war-and-combat` duel: one-on-one melee fights played with numpy arrays, the same rules as
the round resolver (`service.rules.war_and_combat.engine`) for what a duel uses; any other matchup (more
fighters, missiles, other intentions or tactics, fighters already hurt) is played by the resolver loop.
`tests/unit/war_and_combat/test_engine_differential.py` holds the two to the same distribution."""
from __future__ import annotations

from service.sim.engines.war_and_combat.duel import simulate

__all__ = ["simulate"]
