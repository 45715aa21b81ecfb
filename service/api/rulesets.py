"""GET /v1/rulesets...: what rulesets exist, their rulings, and their tables as data."""
from __future__ import annotations

from flask import Response
from service.api.http.blueprint import Blueprint
from marshmallow import Schema, fields, validate

from service.api.http.caching import cacheable, conditional
from service.api.http.headers import headers
from service.rules import registry

blp = Blueprint("rulesets", __name__, description="Rulesets and their tables, as data.")


class TableRefSchema(Schema):
    """A table the ruleset serves as data."""

    name = fields.String(required=True, metadata={"description": "The table's name in URLs."})
    title = fields.String(required=True,
                          metadata={"description": "The table's title, as the rules text names it."})
    href = fields.String(required=True, metadata={"description": "Where to get the table."})


class RulesetSummarySchema(Schema):
    """A registered ruleset, in short."""

    id = fields.String(required=True,
                       metadata={"description": "The ruleset's id, used in URLs and in encounters' and "
                                                "simulations' `ruleset`."})
    name = fields.String(required=True, metadata={"description": "The rule system's name."})
    source = fields.String(required=True, metadata={"description": "The text the rules come from."})
    summary = fields.String(required=True, metadata={"description": "What the ruleset resolves."})
    href = fields.String(required=True, metadata={"description": "Where to get the whole description."})


class RulesetListSchema(Schema):
    """Every registered ruleset."""

    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True,
                           metadata={"description": "The rulesets, by id."})


class RulingSchema(Schema):
    """How Referee reads a passage of the rules text that is silent or contradicts itself."""

    id = fields.String(required=True,
                       metadata={"description": "The ruling's id (e.g. `RULINGS 4`), named in traces."})
    topic = fields.String(required=True, metadata={"description": "What the ruling is about."})
    ruling = fields.String(required=True, metadata={"description": "What Referee does."})


class AssumptionSchema(Schema):
    """Something the ruleset had to assume beyond its text, and where it came from."""

    id = fields.String(required=True, metadata={"description": "The assumption's id."})
    tag = fields.String(required=True, validate=validate.OneOf(["DOC", "INF", "CORE", "DEF"]),
                        metadata={"description": "Provenance: DOC (stated in the text), INF (inferred from "
                                                 "it), CORE (from the core game), DEF (Referee's default)."})
    summary = fields.String(required=True, metadata={"description": "What is assumed."})
    option = fields.String(required=True, allow_none=True,
                           metadata={"description": "The request option that changes it (null when none "
                                                    "does)."})
    source = fields.String(required=True,
                           metadata={"description": "Where in the text (or elsewhere) it comes from."})


class RulesetSchema(RulesetSummarySchema):
    """A ruleset: its tables, rulings, options and assumptions."""

    tables = fields.List(fields.Nested(TableRefSchema), required=True,
                         metadata={"description": "The tables it serves as data."})
    rulings = fields.List(fields.Nested(RulingSchema), required=True,
                          metadata={"description": "Referee's readings of unclear passages."})
    options = fields.Dict(required=True, metadata={"description": "Options a caller may change: name -> "
                                                               "{default, choices?, tag, summary}."})
    assumptions = fields.List(fields.Nested(AssumptionSchema), required=True,
                              metadata={"description": "What the ruleset had to infer, take from the core "
                                                       "game or invent, each with the option that switches it."})


class TableSchema(Schema):
    """One table of a ruleset, as data."""

    ruleset = fields.String(required=True, metadata={"description": "The ruleset id."})
    name = fields.String(required=True, metadata={"description": "The table's name."})
    title = fields.String(required=True, metadata={"description": "The table's title."})
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
