"""The fast body loader: what it accepts it loads exactly as `Schema.load`; the rest it leaves to marshmallow."""
from __future__ import annotations

import pytest
from flask import Flask
from flask_smorest import Api
from marshmallow import Schema, fields, post_load, validate

from service.api.http.blueprint import Blueprint, LoadDrift, same_values
from service.api.http.fastload import NotFast, compile_loader
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger
from service.api.tactical.schemas.damage import DamageRequestSchema
from service.api.tactical.schemas.to_hit import ToHitRequestSchema


class PartSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["a", "b"]))
    size = JsonInteger(load_default=None, validate=validate.Range(0, 9))


class BodySchema(Schema):
    count = JsonInteger(required=True, validate=validate.Range(1, 5))
    share = JsonFloat(load_default=0.5)
    flag = JsonBoolean(load_default=False)
    parts = fields.List(fields.Nested(PartSchema), load_default=list, validate=validate.Length(max=2))
    note = fields.Raw(load_default=None)  # a field type the fast path leaves to the field itself
    renamed = JsonInteger(data_key="renamedKey", attribute="renamed_to", load_default=0)


@pytest.mark.parametrize("body", [
    {"count": 1}, {"count": 5.0, "share": 2, "flag": True}, {"count": 2, "parts": [{"kind": "a"}]},
    {"count": 3, "parts": [{"kind": "b", "size": 9}, {"kind": "a", "size": None}], "note": {"x": [1]}},
    {"count": 1, "renamedKey": 7}, {"count": 1, "share": 1e300}])
def test_valid_bodies_load_as_marshmallow_loads_them(body):
    schema = BodySchema()
    assert same_values(compile_loader(schema)(body), schema.load(body))


@pytest.mark.parametrize("body", [
    [], {"share": 1}, {"count": 0}, {"count": 1.5}, {"count": "1"}, {"count": True}, {"count": None},
    {"count": 1, "share": "x"}, {"count": 1, "share": False}, {"count": 1, "share": 10 ** 400},
    {"count": 1, "flag": 1}, {"count": 1, "extra": 1}, {"count": 1, "parts": {"kind": "a"}},
    {"count": 1, "parts": [{"kind": "c"}]}, {"count": 1, "parts": [{"kind": "a"}] * 3},
    {"count": 1, "parts": [None]}, {"count": 1, "parts": [{"kind": "a", "other": 1}]},
    {"count": 1, "renamed_to": 3}])
def test_bodies_marshmallow_refuses_are_left_to_it(body):
    schema = BodySchema()
    with pytest.raises(NotFast):
        compile_loader(schema)(body)
    with pytest.raises(Exception):
        schema.load(body)


def test_schemas_with_load_hooks_are_not_compiled():
    class Hooked(Schema):
        count = JsonInteger()

        @post_load
        def wrap(self, data, **kwargs):
            return {"wrapped": data}

    assert compile_loader(Hooked()) is None
    assert compile_loader(ToHitRequestSchema()) is not None and compile_loader(DamageRequestSchema()) is not None


def app_loading(schema: Schema, testing: bool) -> Flask:
    app = Flask("fastload-test")
    app.config.update(TESTING=testing, API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    blp = Blueprint("bodies", __name__)

    @blp.post("/body")
    @blp.arguments(schema)
    def body_view(body: dict) -> dict:
        return {"loaded": repr(sorted(body.items()))}

    Api(app).register_blueprint(blp)
    return app


def test_a_valid_body_skips_marshmallow_and_a_bad_one_gets_its_errors(monkeypatch):
    schema = BodySchema()
    client = app_loading(schema, testing=False).test_client()
    expected = repr(sorted(schema.load({"count": 2}).items()))
    monkeypatch.setattr(schema, "load", lambda *a, **k: pytest.fail("marshmallow ran for a valid body"))
    assert client.post("/body", json={"count": 2}).json == {"loaded": expected}
    monkeypatch.undo()
    refused = client.post("/body", json={"count": 9})
    assert refused.status_code == 422 and "count" in refused.json["errors"]["json"]


def test_under_testing_a_disagreement_fails(monkeypatch):
    schema = BodySchema()
    client = app_loading(schema, testing=True).test_client()
    assert client.post("/body", json={"count": 2}).status_code == 200
    monkeypatch.setattr(schema, "load", lambda *a, **k: {"count": 2.0, "share": 0.5})
    with pytest.raises(LoadDrift):
        client.post("/body", json={"count": 2})


def test_same_values_rules():
    assert same_values({"a": [1, 2.5, None]}, {"a": [1, 2.5, None]})
    assert not same_values(1, 1.0) and not same_values(1, True) and not same_values({"a": 1}, {"a": 1, "b": 2})
    assert same_values(float("nan"), float("nan"))
