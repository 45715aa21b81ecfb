"""Typed events of the encounter log, the encounter stream and the round/segment resolvers.

Each ruleset's HTTP package exports `EVENT_SCHEMAS` (event `type` -> marshmallow schema of that event);
`COMMON_EVENT_SCHEMAS` holds the events every encounter can log whatever its ruleset. The contract documents
a ruleset's events as a closed `oneOf` with a `type` discriminator (`<Ruleset>Event`: its own types and the
common ones, one member each); the deprecated shared encounter paths use `Event`, the same over every
ruleset (a type several rulesets send is an `anyOf` of their shapes). `seq` is required on every event but
the stream's `end` and `closed`. Events are sent as the rules built them (never re-dumped).
"""
from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from service.api.kit.packages import declared
from service.api.kit.payloads import PayloadSchema
from service.api.kit.schemas import JsonInteger, RollSchema, TraceStepSchema
from service.rules import registry


class RulesetEventSchema(Schema):
    """The one base of every event schema, the common events' and each ruleset's. It declares no field itself:
    each ruleset keeps the order its events have always had in the contract, taking the fields events share
    (`type`, `seq`, the step, `combatant`, `dice`, `trace`) from `shared` and building each event with
    `event_schema`."""


def described(kind: type[fields.Field], text: str, *args: Any, **kwargs: Any) -> fields.Field:
    """A field of `kind` with its description (`args`: the inner fields of a list or dict)."""
    return kind(*args, metadata={"description": text}, **kwargs)


SHARED_TEXT = {"type": "What happened; names the event's shape.", "seq": "1-based order in the answer.",
               "combatant": "Who the event is about.", "dice": "Every die rolled.",
               "trace": "The rules applied, in order.",
               "segment": "The step (Combat Segment for `tactical`, round elsewhere) it happened in, numbered as the "
                          "encounter's `segment`; set on logged events."}


def shared(name: str, text: str | None = None, **kwargs: Any) -> fields.Field:
    """One of the fields events share, with its usual shape and description (or `text`): `type`, `seq`, the
    step (`segment`, or `round`), `combatant`, `dice` (every die, as rolls) and `trace` (the rules applied)."""
    text = SHARED_TEXT.get(name, "") if text is None else text
    if name == "dice":
        return described(fields.List, text, fields.Nested(RollSchema), **kwargs)
    if name == "trace":
        return described(fields.List, text, fields.Nested(TraceStepSchema), **kwargs)
    if name in ("seq", "segment", "round"):
        return described(kwargs.pop("kind", JsonInteger), text, **kwargs)
    return described(fields.String, text, **kwargs)


def event_schema(name: str, doc: str, shape: dict[str, fields.Field],
                 base: type[Schema] | None = None) -> type[Schema]:
    """The schema of one event, named `name` and described by `doc`: `shape`'s fields, in order, after those of
    `base` (a ruleset's own base on `RulesetEventSchema`, or that one)."""
    cls = (base or RulesetEventSchema).from_dict(shape, name=name)
    cls.__doc__ = doc
    return cls


class EventBaseSchema(RulesetEventSchema):
    """The `type`, step and `seq` of the common events (and of tactical's, which extend it)."""

    type = shared("type", required=True)
    segment = shared("segment", kind=fields.Integer)
    seq = shared("seq", "Position in the encounter's event log, from 1, never reused (also the stream's event "
                        "id); set on logged events.", kind=fields.Integer)


class UndoEventSchema(EventBaseSchema):
    """The last step was undone: its events left the log (this event is logged in their place)."""

    segment = fields.Integer(metadata={"description": "The step that was undone: the encounter's `segment` before "
                                                      "the undo (one more than after it)."})
    removed_seqs = fields.List(fields.Integer(), required=True,
                               metadata={"description": "The `seq` of every event the undo removed."})


class EndEventSchema(EventBaseSchema):
    """The stream's last event: the encounter was ended (deleted); nothing more will come."""


class TruncatedEventSchema(EventBaseSchema):
    """Older events were dropped to keep the log within its byte cap (`REFEREE_MAX_LOG_BYTES`, 8 MiB by
    default): this event stands first in the log in their place. Its `seq` is the last dropped event's, so
    a stream resuming from before it receives it instead of the events it can no longer get."""

    dropped = fields.Integer(required=True, metadata={"description": "How many events were dropped from the "
                                                                     "log's start so far (all up to `seq`)."})


class ClosedEventSchema(EventBaseSchema):
    """The stream's last event when the server closes it early (its client took nothing for
    `REFEREE_SSE_STALL_SECONDS`): reconnect with `Last-Event-ID` (or `?since=`) set to `last_seq`."""

    reason = fields.String(required=True, metadata={"description": "Why the stream was closed."})
    last_seq = fields.Integer(required=True, metadata={"description": "The `seq` of the last event this "
                                                                      "stream sent; resume after it."})


COMMON_EVENT_SCHEMAS: dict[str, type[Schema]] = {"undo": UndoEventSchema, "end": EndEventSchema,
                                                 "truncated": TruncatedEventSchema, "closed": ClosedEventSchema}
EVENT_NAMES = "{event_names}"  # filled in by service.api.http.contract with every event type the spec knows


class EventSchema(PayloadSchema):
    """One event of any ruleset: its `type` names its shape."""

    payload_kind = "event"
    package = ""  # a ruleset's own union (`ruleset_event_schema`) names its package

    @classmethod
    def openapi_schema(cls, converter: Any, schema: Any) -> dict:
        """The typed union of every event (`document`), or of one ruleset's (`document_ruleset`)."""
        return document_ruleset(converter, cls.package) if cls.package else document(converter)


def event_field(package: str = "", **kwargs: Any) -> fields.List:
    """A list of typed events: of `package`'s closed union, or of any ruleset's (no `package`)."""
    kwargs.setdefault("metadata", {"description": "What happened, in order."})
    return fields.List(fields.Nested(ruleset_event_schema(package) if package else EventSchema), **kwargs)


@cache
def ruleset_event_schema(package: str) -> type[EventSchema]:
    """The closed union of one ruleset's events and the common ones (`<Ruleset>Event` in the spec)."""
    name = pascal(package) + "EventSchema"
    doc = (f"One event of the `{package.replace('_', '-')}` ruleset (an encounter's log, stream or step answer): "
           "its `type` names its shape.")
    return type(name, (EventSchema,), {"package": package, "__doc__": doc})


@cache
def event_types() -> dict[str, list[tuple[str, type[Schema]]]]:
    """type -> [(ruleset package or "", schema)] over the common events and every ruleset's."""
    found: dict[str, list[tuple[str, type[Schema]]]] = {}
    for name, cls in COMMON_EVENT_SCHEMAS.items():
        found.setdefault(name, []).append(("", cls))
    for ruleset in registry.all_rulesets():
        for name, cls in (_ruleset_events(ruleset.package) or {}).items():
            found.setdefault(name, []).append((ruleset.package, cls))
    return found


def _ruleset_events(package: str) -> dict[str, type[Schema]] | None:
    return declared(package, "EVENT_SCHEMAS")  # type: ignore[no-any-return]


def pascal(text: str) -> str:
    """"segment_began" -> "SegmentBegan"."""
    return "".join(part[:1].upper() + part[1:] for part in text.replace("_", "-").split("-") if part)


UNSTORED = {"end", "closed"}  # sent on a stream only, never logged: no `seq`


def _member(converter: Any, package: str, name: str, cls: type[Schema]) -> dict:
    """The $ref of event `name` of `package` ("" for the common events), registering its component:
    `type` is its one value, `seq` is required (every event but the stream's `end` and `closed`) and
    `segment` is documented (set on logged events)."""
    spec, found = converter.spec, event_types()
    component = pascal(package) + pascal(name) + "Event" if package not in ("", "tactical") or \
        len(found[name]) > 1 else pascal(name) + "Event"
    if component not in spec.components.schemas:
        body = converter.schema2jsonschema(cls)
        properties = body.get("properties", {})
        if name not in UNSTORED:
            properties.setdefault("segment", converter.field2property(EventBaseSchema._declared_fields["segment"]))
        properties["type"] = {"type": "string", "enum": [name], "description": "What happened; names the "
                                                                              "event's shape."}
        body["properties"] = properties
        body["required"] = sorted({*body.get("required", []), "type", *(() if name in UNSTORED else ("seq",))})
        body.pop("additionalProperties", None)  # a ruleset may add fields to its events later
        spec.components.schema(component, body)
    return {"$ref": f"#/components/schemas/{component}"}


def document(converter: Any) -> dict:
    """The union of every ruleset's events (the deprecated shared encounter paths): one member per type, a
    type several rulesets send being an `anyOf` of their shapes."""
    spec, members, mapping = converter.spec, [], {}
    for name, owners in sorted(event_types().items()):
        shapes = [_member(converter, package, name, cls) for package, cls in owners]
        if len(shapes) > 1:
            union = pascal(name) + "Event"
            if union not in spec.components.schemas:
                spec.components.schema(union, {"description": f"A `{name}` event, in any of the rulesets that "
                                                              "send one.", "anyOf": shapes})
            shapes = [{"$ref": f"#/components/schemas/{union}"}]
        members.append(shapes[0])
        mapping[name] = shapes[0]["$ref"]
    return {"description": EventSchema.__doc__, "oneOf": members,
            "discriminator": {"propertyName": "type", "mapping": mapping}}


def document_ruleset(converter: Any, package: str) -> dict:
    """One ruleset's closed union: its own events and the common ones, a `oneOf` with a `type` discriminator
    and one member per type (no catch-all)."""
    own = _ruleset_events(package) or {}
    events = {**COMMON_EVENT_SCHEMAS, **own}
    members = {name: _member(converter, package if name in own else "", name, cls)
               for name, cls in sorted(events.items())}
    return {"description": ruleset_event_schema(package).__doc__, "oneOf": list(members.values()),
            "discriminator": {"propertyName": "type", "mapping": {n: m["$ref"] for n, m in members.items()}}}


def stream_event_names() -> list[str]:
    """Every event type the encounter stream may send as an SSE `event:` name."""
    return sorted(event_types())
