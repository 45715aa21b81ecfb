"""flask-smorest's Api, documenting every error as application/problem+json (RFC 9457)."""
from __future__ import annotations

import http
import inspect
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter, resolver
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import Schema, fields, validate

from service.api.http.errors import PROBLEM
from service.rules import registry


class FieldErrorSchema(Schema):
    """One bad value of the request: its dotted path and what is wrong with it."""

    field = fields.String(required=True, metadata={"description": "Dotted path of the bad value."})
    message = fields.String(required=True,
                            metadata={"description": "What is wrong with the value, in English."})


class ProblemSchema(Schema):
    """RFC 9457 problem details, with one entry per bad field."""

    type = fields.String(required=True,
                         metadata={"description": "A URI naming the kind of problem "
                                                  "(`urn:referee:problem:<name>`), or `about:blank` when the "
                                                  "title is the HTTP status phrase."})
    title = fields.String(required=True,
                          metadata={"description": "Short summary of the kind of problem (the same for every "
                                                   "occurrence)."})
    status = fields.Integer(required=True, metadata={"description": "The HTTP status code of this answer."})
    detail = fields.String(required=True, metadata={"description": "What went wrong this time, in English."})
    instance = fields.String(allow_none=True,
                             metadata={"description": "The request path the problem happened on."})
    errors = fields.List(fields.Nested(FieldErrorSchema),
                         metadata={"description": "One entry per bad value of the request (only when values "
                                                  "are to blame)."})
    request_id = fields.String(
                               metadata={"description": "This request's id, as in the `X-Request-ID` header "
                                                        "and the access log."})


def package_version() -> str:
    """The version of the installed `referee` package (pyproject.toml's when it is not installed)."""
    try:
        return metadata.version("referee")
    except metadata.PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]


def schema_description(schema: Any) -> str | None:
    """A schema's description: its class docstring, first paragraph."""
    cls = resolve_schema_cls(schema)
    cls = cls[0] if isinstance(cls, list) else cls
    doc = cls.__dict__.get("__doc__")
    return inspect.cleandoc(doc).split("\n\n")[0].replace("\n", " ") if doc else None


def schema_name(schema: Any) -> str:
    """A component name: the class name without "Schema", prefixed with its ruleset's name when the class
    belongs to a ruleset's HTTP package other than tactical (whose names predate the others), so that two
    rulesets' `ToHitRequest` never collide."""
    name = resolver(schema)
    cls = resolve_schema_cls(schema)
    cls = cls[0] if isinstance(cls, list) else cls
    parts = cls.__module__.split(".")
    packages = {ruleset.package for ruleset in registry.all_rulesets()} - {"tactical"}
    if parts[:2] == ["service", "api"] and len(parts) > 2 and parts[2] in packages:
        prefix = "".join(word.title() for word in parts[2].split("_"))
        if not name.startswith(prefix):
            name = prefix + name
    return name


class RefereeConverter(OpenAPIConverter):
    """Documents defaults in descriptions, and lets a schema class with an `openapi_schema(converter, schema)`
    hook write its own JSON schema (a ruleset-specific payload, the typed event union)."""

    def field2property(self, field: Any) -> dict:
        """A field's property; a default the server fills in is stated in the description rather than as
        JSON Schema's `default` (openapi-typescript turns every property with a `default` into a required
        one, so clients would have to send what the server already assumes)."""
        prop = super().field2property(field)
        documents = getattr(field, "documents", None)  # a payload taken as sent, documented as its schema
        if documents is not None:
            prop = {key: value for key, value in prop.items() if key != "type"}
            prop.update(self.resolve_nested_schema(documents))
        inner = getattr(field, "schema", None)  # a custom field naming its object schema in a `oneOf` $ref
        if isinstance(inner, Schema) and "oneOf" in prop and not isinstance(field, fields.Nested):
            self.resolve_nested_schema(type(inner))  # registers the component the $ref points at
        if isinstance(field, fields.Dict):
            prop = self._fixed_keys(field, prop)
        if "default" in prop:
            default = prop.pop("default")
            text = prop.get("description", "").rstrip()
            shown = json.dumps(default) if not isinstance(default, str) else f'"{default}"'
            prop["description"] = (text + " " if text else "") + f"Default: `{shown}`."
        return prop

    def _fixed_keys(self, field: fields.Dict, prop: dict) -> dict:
        """A dict whose keys are a fixed set of names, as the object it is: each name a property with the
        values' schema, no other property (apispec would state only the values, so any key looks valid)."""
        keys = getattr(field, "key_field", None)
        names = next((check.choices for check in getattr(keys, "validators", ()) if isinstance(check, validate.OneOf)),
                     None)
        if names is None:
            return prop
        values = prop.pop("additionalProperties", {})
        return {**prop, "properties": {name: values for name in names}, "additionalProperties": False}

    def schema2jsonschema(self, schema: Any) -> dict:
        kind = resolve_schema_cls(schema)
        own = getattr(kind, "openapi_schema", None)  # a schema that documents itself (payload unions, events)
        if own is not None:
            return own(self, schema)  # type: ignore[no-any-return]
        jsonschema = super().schema2jsonschema(schema)
        description = schema_description(schema)
        if description and "description" not in jsonschema:
            jsonschema = {"description": description, **jsonschema}
        return jsonschema


def exclusive_bounds(self: Any, field: fields.Field, ret: dict, **_: Any) -> dict:
    """OpenAPI 3.1 spelling of a Range that excludes its ends: `exclusiveMinimum: 0` (not `minimum: 0`, which
    would tell clients that 0 is allowed)."""
    extra: dict = {}
    for check in field.validators:
        if isinstance(check, validate.Range):
            if check.min is not None and not check.min_inclusive:
                ret.pop("minimum", None)
                extra["exclusiveMinimum"] = check.min
            if check.max is not None and not check.max_inclusive:
                ret.pop("maximum", None)
                extra["exclusiveMaximum"] = check.max
    return extra


class RefereePlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin with Referee's converter and component names."""

    Converter = RefereeConverter

    def __init__(self) -> None:
        super().__init__(schema_name_resolver=schema_name)

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        self.converter.add_attribute_function(exclusive_bounds)


UNREADABLE_NUMBERS = ("A number literal a double cannot hold is refused with `invalid-request` naming its path: "
                      "one that is not zero but would read as 0 (`1e-400`) or one beyond +/-1.7e308 (`1e400`).")
RELATIONS = ("contradictory-options", "unknown-name")
DESCRIPTIONS = {
    422: "Unprocessable Entity. The problem's `type` tells why: `urn:referee:problem:invalid-request`, a value "
         "breaks this contract (its `errors` name each one). " + UNREADABLE_NUMBERS + " A request this contract "
         "calls valid is refused only for a relation between values that a schema cannot state: "
         "`urn:referee:problem:contradictory-options` (values that cannot hold together, such as a field another "
         "one's value requires or rules out, or a value outside the range the other values allow) or "
         "`urn:referee:problem:unknown-name` (a name that is not in the tables, packs or state the request "
         "uses: a weapon, an armor piece, a combatant, a zone, a level).",
    400: "Bad Request: the body is not JSON (`NaN` and `Infinity` are not JSON numbers), or nests too deeply.",
}


class RefereeApi(Api):
    """The project's Api: error responses are documented with ProblemSchema as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict = {"description": DESCRIPTIONS.get(status, status.phrase)}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
