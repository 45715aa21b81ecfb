"""flask-smorest's Api, documenting every error as application/problem+json (RFC 9457)."""
from __future__ import annotations

import http
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter, resolver
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import Schema, fields

from service.api.errors import PROBLEM
from service.api.ruleset_http import PayloadSchema, schema_classes
from service.rules import registry


class FieldErrorSchema(Schema):
    field = fields.String(required=True, metadata={"description": "Dotted path of the bad value."})
    message = fields.String(required=True)


class ProblemSchema(Schema):
    """RFC 9457 problem details, with one entry per bad field."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(allow_none=True)
    errors = fields.List(fields.Nested(FieldErrorSchema))
    request_id = fields.String()


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
    """Documents a ruleset-specific payload as a `oneOf` of every ruleset's schema for it."""

    def schema2jsonschema(self, schema: Any) -> dict:
        if isinstance(schema, PayloadSchema) or (isinstance(schema, type) and issubclass(schema, PayloadSchema)):
            refs = [self.resolve_nested_schema(cls) for cls in schema_classes(schema.payload_kind)]
            described = {"type": "object", "description": (schema.__doc__ or "").strip()}
            return {**described, "oneOf": refs} if refs else described
        return super().schema2jsonschema(schema)


class RefereePlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin with Referee's converter and component names."""

    Converter = RefereeConverter

    def __init__(self) -> None:
        super().__init__(schema_name_resolver=schema_name)


class RefereeApi(Api):
    """The project's Api: error responses are documented with ProblemSchema as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
