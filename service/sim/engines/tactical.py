"""The `tactical` simulator: the numpy Combat Segment engine of `service.sim` behind the Simulator seam."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from service.sim import chunks, plots, summary
from service.sim.cost import VECTORISED, Cost, Rates
from service.sim.matchup import parse
from service.sim.tally import Tally, merge


class TacticalSimulator:
    """Combat Segments played by the vectorised engine (checked against the segment resolver)."""

    ruleset_id = "tactical"
    plots = tuple(plots.PLOTS)
    # CPU microseconds (service.sim.cost): each rank of the roster is a few numpy calls a segment, and each
    # attacker looks over every foe in every fight (n^2).
    rates = {VECTORISED: Rates((1000.0, 400.0), (1000.0, 500.0), (1.0, 1.0, 0.02))}

    def check(self, matchup: Mapping[str, Any]) -> None:
        """Refuse a matchup the engine cannot play."""
        parse(matchup)

    def run_chunk(self, matchup: Mapping[str, Any], index: int, trials: int, seed: int) -> dict[str, Any]:
        """Chunk `index` of a job, as JSON."""
        return chunks.run_chunk(matchup, index, trials, seed).to_dict()

    def merge(self, tallies: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Chunks added up."""
        return merge(*(Tally.from_dict(t) for t in tallies)).to_dict()

    def summarize(self, matchup: Mapping[str, Any], tally: dict[str, Any]) -> dict[str, Any]:
        """Win chances, segments, wounds, armor and first strike."""
        return summary.summarise(parse(matchup), Tally.from_dict(tally))

    def plot(self, name: str, result: Mapping[str, Any]) -> str:
        """A chart of the result as SVG."""
        return plots.svg(name, dict(result))

    def cost(self, matchup: Mapping[str, Any]) -> Cost:
        """The vectorised engine, the matchup's combatants and its segment cap."""
        m = parse(matchup)
        return Cost(VECTORISED, m.size, m.options.max_segments, self.rates[VECTORISED])


SIMULATOR = TacticalSimulator()
