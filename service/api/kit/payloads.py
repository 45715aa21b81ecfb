"""What the shared endpoints (encounters, simulations) ask of a ruleset's HTTP package.

`service.api.<package>.SCHEMAS` maps a payload kind to the marshmallow schema of that ruleset's shape:
`combatant`, `declaration`, `options` (encounter options), `state`, and optionally `sim_options`
(a simulation's `matchup.options`, when they differ from the encounter's) and `setup` (the rest of an
encounter's first state, sent as `state` when it is created: zones, surprise, ...). An encounter or simulation
body carries these payloads as plain objects (`PayloadSchema`); once the ruleset is known, the view
loads each through its ruleset's schema, so every bad field is named at once, before the ruleset's
engine checks what depends on the encounter. The spec documents each payload as a `oneOf` of every
ruleset's schema.
"""
from __future__ import annotations

from functools import cache
from typing import Any, Mapping

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from service.api.http.blueprint import check_load
from service.api.http.current import app_of_request
from service.api.http.fastload import NotFast, compile_loader
from service.api.http.openapi import schema_description
from service.api.kit.packages import declared
from service.rules import registry

KINDS = ("combatant", "declaration", "options", "state", "sim_options", "setup")


class PayloadSchema(Schema):
    """A ruleset-specific object, loaded as sent and checked later by its ruleset's schema."""

    payload_kind = "combatant"

    class Meta:
        unknown = INCLUDE

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:  # type: ignore[override]
        """Sent as it is: its shape belongs to the ruleset."""
        return obj

    @classmethod
    def openapi_schema(cls, converter: Any, schema: Any) -> dict:
        """Each ruleset's schema for this kind (`anyOf` once there are several: two rulesets' shapes may both
        accept one object, and nothing in it names its ruleset)."""
        refs = [converter.resolve_nested_schema(found) for found in schema_classes(cls.payload_kind)]
        description = schema_description(schema) or ""
        if not refs:
            return {"type": "object", "description": description}
        if len(refs) == 1:
            return {"description": description, **refs[0]}
        return {"type": "object", "description": description, "anyOf": refs}


class RulesetPayload(fields.Field):
    """One ruleset's object (a combatant, a state, ...), documented as that ruleset's schema (`documents`)
    but taken and answered as it is: the view loads it through the ruleset's schema once the encounter is
    known (`load_payload`), and an answer is what the engine built."""

    def __init__(self, documents: type[Schema], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.documents = documents

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ValidationError("Not a valid mapping type.")
        return value

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value


def ruleset_schema(package: str, kind: str) -> type[Schema] | None:
    """The ruleset's schema class for payload `kind` (None when it has none)."""
    return _schemas(package).get(kind)


class RulesetIds(validate.OneOf):
    """One of the registered ruleset ids, read when a value is checked (not when the schema is
    imported), so a ruleset registered later is accepted and the spec's enum lists every id."""

    def __init__(self) -> None:
        super().__init__(registry.ids(), error="Must be one of: {choices}.")

    @property  # type: ignore[override]
    def choices(self) -> list[str]:
        return registry.ids()

    @choices.setter
    def choices(self, value: Any) -> None:
        pass

    @property  # type: ignore[override]
    def choices_text(self) -> str:
        return ", ".join(registry.ids())

    @choices_text.setter
    def choices_text(self, value: Any) -> None:
        pass


def payload(kind: str, description: str) -> type[PayloadSchema]:
    """A PayloadSchema class for one kind (named `<Kind>Payload` in the spec)."""
    name = "".join(part.title() for part in kind.split("_")) + "PayloadSchema"
    return type(name, (PayloadSchema,), {"payload_kind": kind, "__doc__": description})


@cache
def schema_classes(kind: str) -> tuple[type[Schema], ...]:
    """Every registered ruleset's schema class for `kind` (those that have one), in id order."""
    found = []
    for ruleset in registry.all_rulesets():
        cls = _schemas(ruleset.package).get(kind)
        if cls is not None and cls not in found:
            found.append(cls)
    return tuple(found)


def load_payload(ruleset_id: str, kind: str, data: Any, path: tuple) -> Any:
    """`data` loaded through the ruleset's schema for `kind` (as sent when it has none); a
    ValidationError names every bad field from the request body's root."""
    cls = _schemas(registry.get(ruleset_id).package).get(kind)
    try:
        if cls is None:
            if kind == "setup" and data:  # a ruleset without one takes nothing beyond combatants and options
                raise ValidationError({key: ["Unknown field."] for key in data})
            return data
        return _load(_instance(cls), data)
    except ValidationError as error:
        messages: Any = error.messages
        for key in reversed(path):
            messages = {key: messages}
        raise ValidationError(messages) from None


def _schemas(package: str) -> Mapping[str, type[Schema]]:
    return declared(package, "SCHEMAS", {})  # type: ignore[no-any-return]


@cache
def _instance(cls: type[Schema]) -> Schema:
    return cls()


@cache
def _fast(schema: Schema) -> Any:
    return compile_loader(schema)


def _load(schema: Schema, data: Any) -> Any:
    """`schema.load(data)` (each item of a list): by the schema's fast loader (service/api/http/fastload.py)
    when it vouches for every item, else by marshmallow, which also words every error. Under `TESTING` each
    fast load is checked against marshmallow's (as the blueprint checks request bodies)."""
    fast = _fast(schema)
    if fast is not None:
        try:
            loaded = [fast(item) for item in data] if isinstance(data, list) else fast(data)
        except NotFast:
            pass
        else:
            if _testing():
                check_load(schema, data, loaded)
            return loaded
    return schema.load(data, many=isinstance(data, list))


def _testing() -> bool:
    try:
        return bool(app_of_request().testing)
    except (LookupError, RuntimeError):  # outside a request (the CLI's verify, scripts): nothing to compare
        return False
