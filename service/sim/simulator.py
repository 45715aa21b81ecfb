"""Which simulator plays a ruleset's fights: the one seam between jobs/API and a ruleset's simulation.

Every simulator answers the same six questions (`Simulator`): is this matchup valid, what may a chunk of
it cost, what does chunk i of a job count, how do two counts add up, what does a total mean to a game
master, and which charts it draws. `tactical` has its numpy engine; a round-based ruleset is played through its own round resolver
(`service.sim.rounds`), or by a vectorised engine `service.sim.engines.<package>` when one exists (kept
honest by a differential test against the resolver).
"""
from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Mapping, Protocol, Sequence

from service.rules import registry
from service.rules.errors import UnknownName
from service.sim.cost import LOOP, VECTORISED, Cost, Rates

Tally = dict[str, Any]


class Simulator(Protocol):
    """What jobs and the simulations API need from a ruleset's simulation."""

    ruleset_id: str
    plots: tuple[str, ...]
    rates: Mapping[str, Rates]  # each engine's CPU rates (service.sim.cost), by engine name

    def check(self, matchup: Mapping[str, Any]) -> None:
        """Refuse a matchup the simulation cannot play (RulesError naming the bad field)."""

    def run_chunk(self, matchup: Mapping[str, Any], index: int, trials: int, seed: int) -> Tally:
        """The counts of chunk `index` of a job: a pure function of its arguments, JSON-ready."""

    def merge(self, tallies: Sequence[Tally]) -> Tally:
        """Counts of several chunks added up (associative and commutative)."""

    def summarize(self, matchup: Mapping[str, Any], tally: Tally) -> dict[str, Any]:
        """The result a game master reads: win chances with 95% intervals, lengths, outcomes, details."""

    def plot(self, name: str, result: Mapping[str, Any]) -> str:
        """Chart `name` (one of `plots`) of a result, as SVG text."""

    def cost(self, matchup: Mapping[str, Any]) -> Cost:
        """Read (and so check) the matchup once: the engine that will play it, its combatants and step cap,
        from which `service.sim.cost` estimates a chunk's CPU (RulesError naming a bad field)."""


@cache
def simulator_for(ruleset_id: str) -> Simulator:
    """The simulator of a registered ruleset (UnknownName when it cannot simulate)."""
    ruleset = registry.get(ruleset_id)
    try:
        module = importlib.import_module(f"service.sim.engines.{ruleset.package}")
    except ModuleNotFoundError as error:
        if error.name != f"service.sim.engines.{ruleset.package}":
            raise
        module = None
    if module is not None and hasattr(module, "SIMULATOR"):
        return module.SIMULATOR
    if ruleset.duel is None or ruleset.engine is None:
        raise UnknownName(f"ruleset {ruleset_id!r} cannot run simulations", ("ruleset",))
    from service.sim.rounds import RoundSimulator

    rates = {VECTORISED: getattr(module, "RATES", None), LOOP: getattr(module, "LOOP_RATES", None)}
    return RoundSimulator(ruleset, getattr(module, "simulate", None), getattr(module, "accepts", None),
                          getattr(module, "vectorisable", None), {k: v for k, v in rates.items() if v})
