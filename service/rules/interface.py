"""The ruleset interface: what every rule system under `service.rules` provides, and nothing more.

A ruleset is a package `service.rules.<package>` whose `RULESET` is a `Ruleset` value. The rest of the
service (the rulesets catalogue, encounters in Redis, the stateless round resolvers, simulation jobs)
reaches a ruleset's rules only through this value:

* **description** - id, name, source, summary, its tables (name -> loader) and their titles, its
  rulings (may be empty) and `assumptions` (one per inferred, core or invented item of its rules
  document);
* **options** - `OptionSpec`s: default, choices or range, provenance tag and a one-line summary;
  `read_options` checks a caller's `options` object against them;
* **engine** - a `RoundEngine`: reads and writes an encounter state, checks declarations against it,
  and resolves one step (a tactical Combat Segment, a round elsewhere) from a state, declarations and a
  `DiceSource` into events, the new state and the ruleset's summary fields;
* **duel** - a `DuelRules` (optional): the pure side of a Monte Carlo fight - reading a matchup, the
  first state, the declarations a simulated fighter makes, and when a fight is over. A simulation job
  runs these through the engine (correct by construction); a vectorised engine may stand in for it
  only behind a differential test against that loop.

Every ruleset's calculators live in its own HTTP package (`service.api.<package>`), found the same way.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.rules.dice import DiceSource
from service.rules.errors import NotFound
from service.rules.options import OptionSpec
from service.rules.options import read_options as _read_options

LAST_STEP = 1_000_000  # every state schema's bound on its step counter: a state there has no next step

Path = tuple[str | int, ...]
Event = dict[str, Any]


@dataclass(frozen=True)
class Assumption:
    """One inferred ([INF]), core-game ([CORE]) or invented ([DEF]) item of a ruleset's document."""

    id: str
    tag: str
    summary: str
    option: str | None
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "tag": self.tag, "summary": self.summary, "option": self.option,
                "source": self.source}


@dataclass(frozen=True)
class StepResult:
    """One resolved step: its events in order, the state after it, and the ruleset's summary fields
    (e.g. `order`, `initiative`, `countdown`) that the round resolver answers beside `events`."""

    events: list[Event]
    state: Any
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """Where a simulated fight stands: `over` once at most one side can still fight; `winner` is that
    side's name (None for a draw or while the fight goes on); `statuses` maps each combatant id to its
    status word (the ruleset's own: "standing", "dead", "unconscious", "out_of_fight", ...)."""

    over: bool
    winner: str | None
    statuses: Mapping[str, str]


class RoundEngine(Protocol):
    """How a ruleset runs an encounter, one step at a time."""

    step: str  # what one step is called: "segment" (tactical) or "round"

    def read_state(self, data: Mapping[str, Any], path: Path = ()) -> Any:
        """The encounter state from JSON (`{"combatants": [...], "options": {...}, ...}`), every value
        checked; a fresh state (no round counter) starts at step 0. RulesError names the bad path."""

    def write_state(self, state: Any) -> dict[str, Any]:
        """The canonical JSON form of a state: `read_state(write_state(s))` is `s`."""

    def check_declarations(self, state: Any, declarations: list[dict[str, Any]],
                           path: Path = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations for the next step checked against the state (unknown combatant or target,
        impossible action: RulesError naming the declaration's index); returns their canonical form."""

    def resolve(self, state: Any, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """Resolve one step with already checked declarations; every die comes from `dice`."""


class DuelRules(Protocol):
    """The pure side of a simulated fight (seed-independent: every die still comes from the engine)."""

    def read_matchup(self, data: Mapping[str, Any], path: Path = ()) -> Any:
        """A matchup from JSON: `{"sides": [{"name", "combatants": [...]}, ...], "options": {...}}`
        (combatants in the ruleset's encounter format), checked; RulesError names the bad path."""

    def start(self, matchup: Any) -> Any:
        """The engine state a fight of this matchup begins from."""

    def declare(self, matchup: Any, state: Any, rng: random.Random) -> list[dict[str, Any]]:
        """The declarations the simulated fighters make for the next step (the duel policy, expressed
        as ordinary declarations so a client can replay any simulated fight through the resolver)."""

    def verdict(self, matchup: Any, state: Any) -> Verdict:
        """Whether the fight is over, who won, and every combatant's status."""

    def max_steps(self, matchup: Any) -> int:
        """Steps after which a fight still going is a (capped) draw."""

    def details(self, matchup: Any, before: Any, result: StepResult) -> dict[str, float]:
        """Counts this step adds to the ruleset's `details` (summed over fights, so only additive
        numbers); `summarize_details` turns the totals into the answer."""

    def summarize_details(self, matchup: Any, totals: Mapping[str, float], trials: int) -> dict[str, Any]:
        """The `details` object of a simulation result from the summed counts of `trials` fights."""


@dataclass(frozen=True)
class Ruleset:
    """What a ruleset is to the rest of the service (see the module docstring)."""

    id: str
    name: str
    source: str
    summary: str
    tables: dict[str, Callable[[], Any]] = field(default_factory=dict)
    table_titles: dict[str, str] = field(default_factory=dict)
    rulings: tuple[dict[str, str], ...] = ()
    options: Mapping[str, OptionSpec] = field(default_factory=dict)
    assumptions: tuple[Assumption, ...] = ()
    engine: RoundEngine | None = None
    duel: DuelRules | None = None
    terms: Mapping[str, str] = field(default_factory=lambda: {"step": "round", "steps": "rounds"})

    @property
    def package(self) -> str:
        """The package name shared by the ruleset's rules, HTTP and simulation modules."""
        return self.id.replace("-", "_")

    def table(self, name: str) -> Any:
        """The named table's data, or NotFound."""
        if name not in self.tables:
            raise NotFound(f"ruleset '{self.id}' has no table '{name}'", "name")
        return self.tables[name]()

    def describe_options(self) -> dict[str, dict[str, Any]]:
        """The catalogue's `options` object: name -> {default, choices?, tag, summary, ...}."""
        return {name: spec.describe() for name, spec in self.options.items()}

    def read_options(self, raw: Mapping[str, Any] | None, path: Path = ("options",)) -> dict[str, Any]:
        """Every option's value: the caller's where given (checked), the default elsewhere."""
        return _read_options(self.options, raw, path)


def assumptions_from(rows: Sequence[Mapping[str, Any]]) -> tuple[Assumption, ...]:
    """Assumptions from data rows (`{"id", "tag", "summary", "option", "source"}`)."""
    return tuple(Assumption(r["id"], r["tag"], r["summary"], r.get("option"), r["source"]) for r in rows)
