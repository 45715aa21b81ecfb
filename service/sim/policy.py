"""Each ruleset's fight policy as the contract publishes it (issue 24, item 6): where simulated fighters
start, what they declare each step, whom they strike and how ties fall, when a fight ends, and which
matchups the vectorised engine leaves to the resolver (or refuses), in the service's own words.

One markdown text per ruleset in `policies/<ruleset id>.md`, written from the ruleset's `DuelRules`
(`service.rules.<package>.duel`) and its engine's `accepts`; the spec shows them in the description of
`createSimulation`, the README quotes them, and tests/unit/sim/test_fight_policies.py checks both, and
that the declarations they describe are the ones the duel rules make.
"""
from __future__ import annotations

from functools import cache
from importlib import resources

from service.rules import registry

PLACEHOLDER = "{fight_policies}"  # filled in by service.api.http.contract in the simulation's description
PARTS = ("Start", "Each step", "Targets and ties", "End", "Fast engine", "Replay")
INTRO = (
    "A simulated fight is an ordinary fight of the ruleset, played step by step by its resolver (or by a "
    "vectorised engine held to the resolver by a differential test); the simulated fighters only follow a "
    "fixed policy, written as the declarations a client would send. Sending those declarations to the "
    "ruleset's encounter (or its stateless step) each step replays a simulated fight; the dice are the "
    "resolver's own, so a replay follows the same odds, not the same rolls. The matchup's order is the "
    "order of its combatants: side after side as `sides` lists them and, within a side, as its "
    "`combatants` list them (or the order of `combatants` when each carries its `side`).")


@cache
def fight_policy(ruleset_id: str) -> str | None:
    """The fight policy of a registered ruleset's simulations, as markdown; None when it publishes none
    (tests/unit/sim/test_fight_policies.py requires one of every ruleset the service ships)."""
    registry.get(ruleset_id)
    found = resources.files(__package__).joinpath("policies", f"{ruleset_id}.md")
    return found.read_text(encoding="utf-8").strip() if found.is_file() else None


def fight_policies() -> str:
    """Every ruleset's fight policy under a heading of its id, after the common introduction."""
    parts = [INTRO] + [f"#### `{ruleset_id}`\n\n{fight_policy(ruleset_id) or 'No fight policy published.'}"
                       for ruleset_id in registry.ids()]
    return "\n\n".join(parts)
