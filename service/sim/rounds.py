"""Simulations of round-based rulesets: fights played through the ruleset's own round resolver.

Correct by construction: each simulated fight is what a client would get by sending the duel policy's
declarations to `POST /v1/{ruleset}/rounds/resolve` round after round. A vectorised engine of the
same ruleset may stand in for `play` (same tally), but only behind a differential test against it.

Tally (JSON, merged by adding): {"trials", "wins": {side: n}, "draws", "capped",
"rounds": {"<rounds fought>": n}, "status": {combatant id: {status: n}}, "details": {name: number}}.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from service.rules.dice import DiceSource, derive_seed
from service.rules.interface import Ruleset
from service.rules.matchups import entries
from service.sim.cost import LOOP, UNMEASURED, VECTORISED, Cost, Rates
from service.sim.stopping import checkpoint
from service.sim.summary import wilson

Tally = dict[str, Any]
VectorEngine = Callable[[Any, int, np.random.Generator], Tally]


class RoundSimulator:
    """The `Simulator` of a round-based ruleset (its duel rules through its round engine)."""

    plots = ("wins", "rounds", "outcomes")
    takes_encounter_options = True  # a stored encounter's options are this ruleset's simulation options

    def __init__(self, ruleset: Ruleset, vector: VectorEngine | None = None,
                 accepts: Callable[[Any], bool] | None = None, vectorisable: Callable[[Any], bool] | None = None,
                 rates: Mapping[str, Rates] | None = None):
        self.ruleset = ruleset
        self.ruleset_id = ruleset.id
        self.vector = vector
        self.accepts = accepts  # optional: which parsed matchups the vectorised engine covers (others: the loop)
        self.vectorisable = accepts or vectorisable  # what the engine plays itself (it may hand the rest to the loop)
        self.rates = dict(rates or {})  # CPU rates of each engine (service.sim.cost); missing: UNMEASURED

    def check(self, matchup: Mapping[str, Any]) -> None:
        """The ruleset's own reading of the matchup (RulesError names the bad field)."""
        self.ruleset.duel.read_matchup(matchup)  # type: ignore[union-attr]

    def run_chunk(self, matchup: Mapping[str, Any], index: int, trials: int, seed: int) -> Tally:
        """Chunk `index` of a job: its own generator, so the result does not depend on which worker ran it."""
        parsed = self.ruleset.duel.read_matchup(matchup)  # type: ignore[union-attr]
        if self.vector is not None and (self.accepts is None or self.accepts(parsed)):
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
            return self.vector(parsed, trials, rng)
        return play(self.ruleset, parsed, trials, random.Random(derive_seed(seed, "chunk", index)))

    def merge(self, tallies: Sequence[Tally]) -> Tally:
        """Every count added up."""
        total: Tally = empty()
        for tally in tallies:
            total = _add(total, tally)
        return total

    def summarize(self, matchup: Mapping[str, Any], tally: Tally) -> dict[str, Any]:
        """Win and draw chances with 95% Wilson intervals, rounds fought, each combatant's fate, details."""
        parsed = self.ruleset.duel.read_matchup(matchup)  # type: ignore[union-attr]
        return summarize(self.ruleset, parsed, entries(matchup), tally)

    def plot(self, name: str, result: Mapping[str, Any]) -> str:
        """A chart of the result as SVG."""
        from service.sim.round_plots import svg

        return svg(name, result, self.ruleset.terms)

    def cost(self, matchup: Mapping[str, Any]) -> Cost:
        """The engine that plays the matchup (vectorised where it covers it, else the resolver loop), its
        combatants and its round cap."""
        parsed = self.ruleset.duel.read_matchup(matchup)  # type: ignore[union-attr]
        vectorised = self.vector is not None and (self.vectorisable is None or self.vectorisable(parsed))
        engine = VECTORISED if vectorised else LOOP
        steps = int(self.ruleset.duel.max_steps(parsed))  # type: ignore[union-attr]
        return Cost(engine, len(entries(matchup)), steps, self.rates.get(engine, UNMEASURED))


def empty() -> Tally:
    """A tally of no fights."""
    return {"trials": 0, "wins": {}, "draws": 0, "capped": 0, "rounds": {}, "status": {}, "details": {}}


def play(ruleset: Ruleset, matchup: Any, trials: int, rng: random.Random) -> Tally:
    """`trials` fights of `matchup`, each played round by round through the ruleset's engine."""
    tally = empty()
    for _ in range(trials):
        tally = _add(tally, fight(ruleset, matchup, rng))
    return tally


def fight(ruleset: Ruleset, matchup: Any, rng: random.Random) -> Tally:
    """One fight: the duel policy declares, the engine resolves, until the verdict or the round cap."""
    duel, engine = ruleset.duel, ruleset.engine
    assert duel is not None and engine is not None
    state, rounds, details = duel.start(matchup), 0, Counter()
    cap, verdict = duel.max_steps(matchup), duel.verdict(matchup, state)
    dice = DiceSource.from_rng(rng)
    while not verdict.over and rounds < cap:
        checkpoint()
        declarations = engine.check_declarations(state, duel.declare(matchup, state, rng))
        result = engine.resolve(state, declarations, dice)
        details.update(duel.details(matchup, state, result))
        state, rounds = result.state, rounds + 1
        verdict = duel.verdict(matchup, state)
        dice.rolled.clear()
    won = verdict.winner if verdict.over else None
    return {"trials": 1, "wins": {won: 1} if won else {}, "draws": 0 if won else 1,
            "capped": 0 if verdict.over else 1, "rounds": {str(rounds): 1},
            "status": {ident: {status: 1} for ident, status in verdict.statuses.items()},
            "details": dict(details)}


def summarize(ruleset: Ruleset, matchup: Any, people: list, tally: Tally) -> dict[str, Any]:
    """The common result of round-based rulesets (README of the rules documents, "Simulations")."""
    n = int(tally["trials"])
    sides = list(dict.fromkeys(entry.side for entry in people))
    lengths = {int(k): v for k, v in tally["rounds"].items()}
    last = max(lengths, default=0)
    return {
        "trials": n,
        "sides": [{"name": side, **_share(tally["wins"].get(side, 0), n)} for side in sides],
        "draw": {**_share(tally["draws"], n), "capped": tally["capped"]},
        "rounds": {"mean": sum(k * v for k, v in lengths.items()) / n if n else 0.0, "max": last,
                   "histogram": [lengths.get(k, 0) for k in range(1, last + 1)]},
        "combatants": [{"name": entry.combatant["id"], "side": entry.side,
                        "outcome": {status: count / n for status, count in
                                    sorted(tally["status"].get(entry.combatant["id"], {}).items())}}
                       for entry in people],
        "details": ruleset.duel.summarize_details(matchup, tally["details"], n),  # type: ignore[union-attr]
    }


def _share(count: int, n: int) -> dict[str, Any]:
    low, high = wilson(count, n)
    return {"count": count, "p": count / n if n else 0.0, "ci95": [low, high]}


def _add(a: Any, b: Any) -> Any:
    """Counts added key by key (nested objects too)."""
    if isinstance(a, dict):
        return {key: _add(a[key], b[key]) if key in a and key in b else a.get(key, b.get(key))
                for key in {**a, **b}}
    return a + b
