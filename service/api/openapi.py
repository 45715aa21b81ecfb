"""flask-smorest's Api, documenting every error as application/problem+json (RFC 9457)."""
from __future__ import annotations

import http

from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import Schema, fields

from service.api.errors import PROBLEM


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
