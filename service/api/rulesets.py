"""GET /v1/rulesets...: what rulesets exist, their rulings, and their tables as data."""
from __future__ import annotations

from flask import Response
from service.api.blueprint import Blueprint
from marshmallow import Schema, fields, validate

from service.api.caching import cacheable, conditional
from service.api.headers import headers
from service.rules import registry

blp = Blueprint("rulesets", __name__, description="Rulesets and their tables, as data.")


class TableRefSchema(Schema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    href = fields.String(required=True)


class RulesetSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    source = fields.String(required=True)
    summary = fields.String(required=True)
    href = fields.String(required=True)


class RulesetListSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class RulingSchema(Schema):
    id = fields.String(required=True)
    topic = fields.String(required=True)
    ruling = fields.String(required=True)


class AssumptionSchema(Schema):
    id = fields.String(required=True)
    tag = fields.String(required=True, validate=validate.OneOf(["DOC", "INF", "CORE", "DEF"]))
    summary = fields.String(required=True)
    option = fields.String(required=True, allow_none=True)
    source = fields.String(required=True)


class RulesetSchema(RulesetSummarySchema):
    tables = fields.List(fields.Nested(TableRefSchema), required=True)
    rulings = fields.List(fields.Nested(RulingSchema), required=True)
    options = fields.Dict(required=True, metadata={"description": "Options a caller may change: name -> "
                                                               "{default, choices?, tag, summary}."})
    assumptions = fields.List(fields.Nested(AssumptionSchema), required=True,
                              metadata={"description": "What the ruleset had to infer, take from the core "
                                                       "game or invent, each with the option that switches it."})


class TableSchema(Schema):
    ruleset = fields.String(required=True)
    name = fields.String(required=True)
    title = fields.String(required=True)
    data = fields.Raw(required=True, metadata={"description": "The table's rows, as the ruleset stores them."})


RULESET = [{"in": "path", "name": "ruleset_id", "example": "tactical",
            "description": "A ruleset id from `GET /v1/rulesets`."}]
TABLE = RULESET + [{"in": "path", "name": "name", "example": "weapon-db",
                    "description": "A table name the ruleset lists under `tables`."}]


def _summary(ruleset: registry.Ruleset) -> dict:
    return {"id": ruleset.id, "name": ruleset.name, "source": ruleset.source, "summary": ruleset.summary,
            "href": f"/v1/rulesets/{ruleset.id}"}


@blp.get("")
@blp.doc(operationId="listRulesets")
@blp.response(200, RulesetListSchema, headers=headers("ETag"))
@conditional
def list_rulesets() -> Response:
    """List the registered rulesets."""
    return cacheable(RulesetListSchema().dump({"rulesets": [_summary(r) for r in registry.all_rulesets()]}))


@blp.get("/<string:ruleset_id>", parameters=RULESET)
@blp.doc(operationId="getRuleset")
@blp.response(200, RulesetSchema, headers=headers("ETag"))
@conditional
@blp.alt_response(404, response="NOT_FOUND")
def get_ruleset(ruleset_id: str) -> Response:
    """One ruleset: its tables, rulings and the options a caller may change."""
    ruleset = registry.get(ruleset_id)
    tables = [{"name": name, "title": ruleset.table_titles.get(name, name),
               "href": f"/v1/rulesets/{ruleset.id}/tables/{name}"} for name in ruleset.tables]
    body = {**_summary(ruleset), "tables": tables, "rulings": list(ruleset.rulings),
            "options": ruleset.describe_options(),
            "assumptions": [assumption.as_dict() for assumption in ruleset.assumptions]}
    return cacheable(RulesetSchema().dump(body))


@blp.get("/<string:ruleset_id>/tables/<string:name>", parameters=TABLE)
@blp.doc(operationId="getRulesetTable")
@blp.response(200, TableSchema, headers=headers("ETag"))
@conditional
@blp.alt_response(404, response="NOT_FOUND")
def get_table(ruleset_id: str, name: str) -> Response:
    """One table of a ruleset, as data (each is checked against the seed text in the tests)."""
    ruleset = registry.get(ruleset_id)
    body = {"ruleset": ruleset.id, "name": name, "title": ruleset.table_titles.get(name, name),
            "data": ruleset.table(name)}
    return cacheable(TableSchema().dump(body))
