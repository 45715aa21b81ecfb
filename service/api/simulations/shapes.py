"""What differs between the simulation resources: the shared, deprecated /v1/simulations (combatants and options
as every ruleset's shapes, the result an open map) and each ruleset's own /v1/{ruleset}/simulations (that
ruleset's combatant and option schemas in the matchup, its typed result).

`SimShapes` names a resource's ruleset, URL base and schemas; `shared()` is the old one, `typed(...)` builds
one ruleset's by subclassing the shared schemas. The views (views.py) are written once over a `SimShapes`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.events import pascal
from service.api.kit.payloads import RulesetPayload, ruleset_schema
from service.api.simulations import schemas as s
from service.rules import registry


@dataclass(frozen=True)
class SimShapes:
    """One simulation resource: `ruleset` (None: the shared one), its URL `base`, its request and answer
    schemas and its request example."""

    ruleset: str | None
    base: str
    request: type[Schema]
    simulation: type[Schema]
    example: dict[str, Any]

    def operation(self, name: str) -> str:
        """The operationId: the shared name, prefixed with the ruleset's (`smotingCreateSimulation`)."""
        if self.ruleset is None:
            return name
        prefix = pascal(self.ruleset)
        return prefix[:1].lower() + prefix[1:] + name[:1].upper() + name[1:]

    @property
    def root(self) -> str:
        """The route of the simulations within the resource's blueprint (the shared one is mounted at it)."""
        return "" if self.ruleset is None else "/simulations"


@cache
def shared() -> SimShapes:
    """The deprecated /v1/simulations: any ruleset's matchup, named by `ruleset`, the result an open map."""
    return SimShapes(None, "/v1/simulations", s.SimulationRequestSchema, s.SimulationSchema, s.EXAMPLE)


def typed(ruleset_id: str, result: type[Schema], example: dict[str, Any]) -> SimShapes:
    """`ruleset_id`'s own resource: sides of its combatants (the schema its encounters take), its simulation
    options, and `result` as the finished job's `result`; `example` its request example (without `ruleset`).
    Called once per ruleset (its components are registered under fixed names)."""
    package = registry.get(ruleset_id).package
    prefix = pascal(package)
    combatant = _payload(package, "combatant", "A combatant, in the ruleset's encounter format.")
    kind = "sim_options" if ruleset_schema(package, "sim_options") is not None else "options"
    side = _make(prefix, s.SideSchema, "SimulationSide", combatants=fields.List(
        combatant, required=True, validate=validate.Length(1, 100),
        metadata={"description": "Its combatants, in the ruleset's encounter format."}))
    matchup = _make(prefix, s.MatchupSchema, "SimulationMatchup",
                    sides=fields.List(fields.Nested(side), validate=validate.Length(2, 20),
                                      metadata=s.MatchupSchema._declared_fields["sides"].metadata),
                    combatants=fields.List(combatant, validate=validate.Length(2, 200),
                                           metadata=s.MatchupSchema._declared_fields["combatants"].metadata),
                    options=_payload(package, kind, "Rule options of the simulated fights (any subset; the "
                                                    "rest take their defaults).", load_default=dict))
    request = _make(prefix, s.SimulationRequestSchema, "SimulationRequest", ("ruleset",),
                    matchup=fields.Nested(matchup, metadata={"description": "The fight, inline."}),
                    encounter_id=fields.String(metadata={"description": f"Or: simulate a stored `{ruleset_id}` "
                                                                       "encounter as it stands (send its token as "
                                                                       "`Authorization: Bearer`)."}))
    answer = _make(prefix, s.SimulationSchema, "Simulation", result=fields.Nested(result, allow_none=True, metadata={
        "description": "Once the job is done: win chances with 95% intervals, how long fights lasted, each "
                       "combatant's fate and the ruleset's own figures (null until then)."}))
    return SimShapes(ruleset_id, f"/v1/{ruleset_id}/simulations", request, answer, example)


def _payload(package: str, kind: str, text: str, **kwargs: Any) -> RulesetPayload:
    """A field holding one `kind` payload of the ruleset, documented as its schema (loaded by the view)."""
    return RulesetPayload(ruleset_schema(package, kind), metadata={"description": text}, **kwargs)


def _make(prefix: str, base: type[Schema], name: str, exclude: tuple[str, ...] = (), **own: Any) -> type[Schema]:
    """`base` with `own` fields, named `<Ruleset><name>` in the spec."""
    attrs: dict[str, Any] = {**own, "__doc__": base.__doc__}
    if exclude:
        attrs["Meta"] = type("Meta", (), {"exclude": exclude})
    return type(f"{prefix}{name}Schema", (base,), attrs)
