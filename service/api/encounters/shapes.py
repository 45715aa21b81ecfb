"""What differs between the encounter resources: the shared, deprecated /v1/encounters (every ruleset's shapes
in one union) and each ruleset's own /v1/{ruleset}/encounters (that ruleset's exact schemas).

`Shapes` names a resource's URLs, operation ids and schemas; `shared()` is the old one, `typed(...)` builds
one ruleset's by subclassing the shared schemas and replacing every ruleset-specific field with that
ruleset's schema (a `RulesetPayload`: documented as the schema, loaded once by the ruleset's loader as
before). The views (views.py, dice.py) are written once over a `Shapes`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from service.api.encounters import dice_schemas as d
from service.api.encounters import schemas as s
from service.api.kit.events import event_field, pascal
from service.api.kit.payloads import RulesetPayload, ruleset_schema
from service.rules import registry


@dataclass(frozen=True)
class Shapes:
    """One encounter resource: `ruleset` (None: the shared one), its URL `base`, the word for its steps,
    and its schemas by the shared schema's name."""

    ruleset: str | None
    base: str
    steps: str
    schemas: dict[str, Any]
    examples: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.schemas[name]
        except KeyError:
            raise AttributeError(name) from None

    def operation(self, name: str) -> str:
        """The operationId: the shared name, prefixed with the ruleset's (`smotingCreateEncounter`)."""
        if self.ruleset is None:
            return name
        prefix = pascal(self.ruleset)
        return prefix[:1].lower() + prefix[1:] + name[:1].upper() + name[1:]

    @property
    def root(self) -> str:
        """The route of the encounters within the resource's blueprint (the shared one is mounted at it)."""
        return "" if self.ruleset is None else "/encounters"

    @property
    def rounds(self) -> bool:
        """Whether a step is a round (every ruleset but tactical) in this resource's own answers."""
        return self.steps == "rounds"


@cache
def shared() -> Shapes:
    """The deprecated /v1/encounters: every ruleset's shapes, in one untagged union."""
    names = [name for name in dir(s) if name.startswith("Encounter") and name.endswith("Schema")]
    found = {name: getattr(s, name) for name in names}
    found.update(EncounterAuditSchema=d.EncounterAuditSchema)
    examples = {"create": s.EXAMPLE_CREATE, "added": s.EXAMPLE_ADDED, "replaced": s.EXAMPLE_REPLACED,
                "declarations": s.EXAMPLE_DECLARATIONS}
    return Shapes(None, "/v1/encounters", "segments", found, examples)


def typed(ruleset_id: str, round_schema: type[Schema] | None, examples: dict[str, Any]) -> Shapes:
    """`ruleset_id`'s own resource: its combatant, options, setup, state and declaration schemas, its event
    union and (round-based rulesets) the summary fields of its stateless round answer (`round_schema`);
    `examples` are its request examples (`create`, `added`, `replaced`, `declarations`). Called once per
    ruleset (its components are registered under fixed names)."""
    package = registry.get(ruleset_id).package
    steps = "rounds" if round_schema is not None else "segments"
    kit = _Kit(package, steps)
    links = kit.links()
    encounter = kit.make(s.EncounterSchema, "Encounter", state=kit.one("state", required=True),
                         declarations=kit.many("declaration", required=True), links=_nested(links))
    resolution = kit.make(d.AuditResolutionSchema, "AuditResolution", state=kit.one("state", required=True),
                          declarations=kit.many("declaration", required=True),
                          events=event_field(package, required=True, metadata={"description": "The events it "
                                                                                              "logged."}))
    found = {
        "EncounterCreateSchema": kit.create(),
        "EncounterSchema": encounter,
        "EncounterCreatedSchema": kit.make(encounter, "EncounterCreated",
                                           token=s.EncounterCreatedSchema._declared_fields["token"]),
        "EncounterCombatantSchema": ruleset_schema(package, "combatant"),
        "EncounterCombatantListSchema": kit.make(s.EncounterCombatantListSchema, "EncounterCombatantList",
                                                 combatants=kit.many("combatant", required=True)),
        "EncounterCombatantOutSchema": kit.make(s.EncounterCombatantOutSchema, "EncounterCombatantOut",
                                                combatant=kit.one("combatant", required=True)),
        "EncounterDeclarationsSchema": kit.make(s.EncounterDeclarationsSchema, "EncounterDeclarations",
                                                declarations=kit.many("declaration", required=True)),
        "EncounterDeclarationsOutSchema": kit.make(s.EncounterDeclarationsOutSchema, "EncounterDeclarationsOut",
                                                   declarations=kit.many("declaration", required=True)),
        "EncounterSegmentRequestSchema": kit.make(s.EncounterSegmentRequestSchema, "EncounterStepRequest",
                                                  declarations=kit.many("declaration", load_default=None,
                                                                        allow_none=True)),
        "EncounterSegmentSchema": kit.step(round_schema, links),
        "EncounterEventsQuerySchema": s.EncounterEventsQuerySchema,
        "EncounterStreamQuerySchema": s.EncounterStreamQuerySchema,
        "EncounterEventPageSchema": kit.make(s.EncounterEventPageSchema, "EncounterEventPage",
                                             events=event_field(package, required=True, metadata={
                                                 "description": "The events of this page, by `seq` (the first "
                                                                "may be a `truncated` event)."})),
        "EncounterAuditSchema": kit.make(d.EncounterAuditSchema, "EncounterAudit",
                                         resolutions=fields.List(fields.Nested(resolution), required=True,
                                                                 metadata={"description": "Every resolved step, "
                                                                                          "undone or not, in "
                                                                                          "order."})),
    }
    return Shapes(ruleset_id, f"/v1/{ruleset_id}/encounters", steps, found, examples)


def _nested(schema: type[Schema]) -> fields.Nested:
    return fields.Nested(schema, required=True, metadata={"description": "URLs of the encounter's sub-resources."})


class _Kit:
    """Builds one ruleset's schemas: fields of its payloads, and subclasses of the shared schemas."""

    def __init__(self, package: str, steps: str) -> None:
        self.package, self.steps, self.prefix = package, steps, pascal(package)

    def make(self, base: type[Schema], name: str, exclude: tuple[str, ...] = (), **own: Any) -> type[Schema]:
        """`base` with `own` fields, named `<Ruleset><name>` in the spec."""
        attrs: dict[str, Any] = {**own, "__doc__": base.__doc__}
        if exclude:
            attrs["Meta"] = type("Meta", (), {"exclude": exclude})
        return type(f"{self.prefix}{name}Schema", (base,), attrs)

    def one(self, kind: str, **kwargs: Any) -> RulesetPayload:
        """A field holding one `kind` payload of the ruleset."""
        text = f"{WHAT[kind]}, in the `{self.package.replace('_', '-')}` format."
        return RulesetPayload(ruleset_schema(self.package, kind), metadata={"description": text}, **kwargs)

    def many(self, kind: str, **kwargs: Any) -> fields.List:
        """A list of `kind` payloads of the ruleset."""
        text = f"{kind.title()}s in the `{self.package.replace('_', '-')}` format, in order."
        return fields.List(self.one(kind), validate=validate.Length(max=s.MAX_DECLARATIONS)
                           if kind == "declaration" else None, metadata={"description": text}, **kwargs)

    def create(self) -> type[Schema]:
        """A new encounter of this ruleset (the path names the ruleset; `state` only where it has a setup)."""
        own: dict[str, Any] = {"options": self.one("options", load_default=dict),
                               "combatants": self.many("combatant", required=True)}
        exclude: tuple[str, ...] = ("ruleset",)
        if ruleset_schema(self.package, "setup") is None:
            exclude += ("state",)
        else:
            own["state"] = self.one("setup", load_default=dict)
        own["combatants"].validators.append(validate.Length(1, 200))
        made = self.make(s.EncounterCreateSchema, "EncounterCreate", exclude, **own)
        made.__doc__ = (f"A new `{self.package.replace('_', '-')}` encounter: its rule options and combatants (the "
                        "path names its ruleset).")
        return made

    def links(self) -> type[Schema]:
        """The encounter's links, its steps under their own name (`rounds` or `segments`)."""
        if self.steps == "segments":
            return self.make(s.EncounterLinksSchema, "EncounterLinks")
        steps = fields.String(required=True, metadata={"description": "Where to resolve the next round."})
        return self.make(s.EncounterLinksSchema, "EncounterLinks", ("segments",), rounds=steps)

    def step(self, round_schema: type[Schema] | None, links: type[Schema]) -> type[Schema]:
        """A resolved step: its events in the ruleset's union, its state, and a round's typed summary."""
        own: dict[str, Any] = {"state": self.one("state", required=True), "links": _nested(links),
                               "events": event_field(self.package, required=True, metadata={
                                   "description": "Events in order; each has `segment` and `seq`."})}
        if round_schema is None:
            return self.make(s.EncounterSegmentSchema, "EncounterSegment", ("round", "summary"), **own)
        summary = summary_schema(round_schema, f"{self.prefix}RoundSummarySchema")
        own["summary"] = RulesetPayload(summary, required=True, metadata={
            "description": "The round's own fields, as its stateless `rounds/resolve` answers them."})
        own["round"] = fields.Integer(required=True, metadata={"description": "The round just resolved (the "
                                                                              "same number as `segment`)."})
        return self.make(s.EncounterSegmentSchema, "EncounterRound", **own)


BASE_FIELDS = {"round", "seed", "events", "state"}
WHAT = {"combatant": "A combatant", "declaration": "A declaration", "options": "Rule options",
        "state": "The encounter state", "setup": "The rest of the first state (beyond combatants and options)"}


def summary_schema(round_schema: type[Schema], name: str) -> type[Schema]:
    """The summary of a round: the fields of the ruleset's stateless round answer beyond `round`, `seed`,
    `events` and `state`."""
    own = {key: field for key, field in round_schema._declared_fields.items() if key not in BASE_FIELDS}
    cls = Schema.from_dict(own, name=name)
    cls.__doc__ = "A round's summary: " + (round_schema.__doc__ or "").strip().rstrip(".") + "."
    return cls
