"""Typed events of the encounter log, the encounter stream and the round/segment resolvers.

Each ruleset's HTTP package may export `EVENT_SCHEMAS` (event `type` -> marshmallow schema of that event);
`COMMON_EVENT_SCHEMAS` holds the events every encounter can log whatever its ruleset. The contract
documents an event as a `oneOf` with a `type` discriminator: one member per event type (several rulesets
sending the same type share one member, an `anyOf` of their shapes), plus `OtherEvent` for the types of
rulesets that publish no schemas (then the union is an `anyOf`: their types are not known). Events are sent as the rules built them (never re-dumped).
"""
from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from service.api.kit.payloads import PayloadSchema
from service.api.kit.packages import declared
from service.rules import registry

class EventBaseSchema(Schema):
    """Fields every event has; a ruleset's event schemas extend it."""

    type = fields.String(required=True, metadata={"description": "What happened; names the event's shape."})
    segment = fields.Integer(metadata={"description": "The step (Combat Segment for `tactical`, round elsewhere) "
                                                      "it happened in, numbered as the encounter's `segment`; set "
                                                      "on logged events."})
    seq = fields.Integer(metadata={"description": "Position in the encounter's event log, from 1, never reused "
                                                  "(also the stream's event id); set on logged events."})


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
    """One event: its `type` names its shape."""

    payload_kind = "event"

    @classmethod
    def openapi_schema(cls, converter: Any, schema: Any) -> dict:
        """The typed union of every event (`document`)."""
        return document(converter)


class OtherEventSchema(EventBaseSchema):
    """An event of a ruleset that publishes no event schemas: `type` plus that ruleset's own fields."""


def event_field(**kwargs: Any) -> fields.List:
    """A list of typed events."""
    kwargs.setdefault("metadata", {"description": "What happened, in order."})
    return fields.List(fields.Nested(EventSchema), **kwargs)


@cache
def event_types() -> tuple[dict[str, list[tuple[str, type[Schema]]]], bool]:
    """type -> [(ruleset package or "", schema)], and whether some ruleset publishes no schemas."""
    found: dict[str, list[tuple[str, type[Schema]]]] = {}
    for name, cls in COMMON_EVENT_SCHEMAS.items():
        found.setdefault(name, []).append(("", cls))
    untyped = False
    for ruleset in registry.all_rulesets():
        schemas = _ruleset_events(ruleset.package)
        if schemas is None:
            untyped = True
            continue
        for name, cls in schemas.items():
            found.setdefault(name, []).append((ruleset.package, cls))
    return found, untyped


def _ruleset_events(package: str) -> dict[str, type[Schema]] | None:
    return declared(package, "EVENT_SCHEMAS")  # type: ignore[no-any-return]


def pascal(text: str) -> str:
    """"segment-began" -> "SegmentBegan"."""
    return "".join(part[:1].upper() + part[1:] for part in text.replace("_", "-").split("-") if part)


def document(converter: Any) -> dict:
    """The event union's JSON schema; registers one component per event type (and shape)."""
    found, untyped = event_types()
    spec, members, mapping = converter.spec, [], {}
    for name in sorted(found):
        shapes = []
        for package, cls in found[name]:
            component = pascal(package) + pascal(name) + "Event" if package not in ("", "tactical") or \
                len(found[name]) > 1 else pascal(name) + "Event"
            body = converter.schema2jsonschema(cls)
            body["properties"] = {**body.get("properties", {}), "type": {
                "type": "string", "enum": [name], "description": "What happened; names the event's shape."}}
            body["required"] = sorted({*body.get("required", []), "type"})
            body.pop("additionalProperties", None)  # a ruleset may add fields to its events later
            if component not in spec.components.schemas:
                spec.components.schema(component, body)
            shapes.append({"$ref": f"#/components/schemas/{component}"})
        if len(shapes) > 1:
            union = pascal(name) + "Event"
            if union not in spec.components.schemas:
                spec.components.schema(union, {"description": f"A `{name}` event, in any of the rulesets that "
                                                              "send one.", "anyOf": shapes})
            shapes = [{"$ref": f"#/components/schemas/{union}"}]
        members.append(shapes[0])
        mapping[name] = shapes[0]["$ref"]
    if untyped or not members:
        # A ruleset without schemas may send any `type`, even one a typed ruleset uses with other fields
        # ("moved"), so its events match OtherEvent alone: the union is an `anyOf` until every ruleset
        # publishes EVENT_SCHEMAS, then a `oneOf` with a discriminator.
        other = converter.schema2jsonschema(OtherEventSchema)
        other.pop("additionalProperties", None)
        if "OtherEvent" not in spec.components.schemas:
            spec.components.schema("OtherEvent", other)
        members.append({"$ref": "#/components/schemas/OtherEvent"})
        return {"description": EventSchema.__doc__ + " Rulesets that publish no event schemas send events "
                                                      "of other types (`OtherEvent`).", "anyOf": members}
    union: dict[str, Any] = {"description": EventSchema.__doc__, "oneOf": members,
                             "discriminator": {"propertyName": "type", "mapping": mapping}}
    return union


def stream_event_names() -> list[str]:
    """Every event type the encounter stream may send as an SSE `event:` name."""
    return sorted(event_types()[0])
