"""The project's Blueprint: answers pass through as built, and under TESTING must equal the schema's dump."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flask import Flask
from flask_smorest import Api
from marshmallow import Schema, fields

from service.api.http.blueprint import Blueprint, ResponseDrift, same_json


class AnswerSchema(Schema):
    count = fields.Integer(required=True)
    share = fields.Float(required=True)


def app_answering(answer: dict, testing: bool) -> Flask:
    app = Flask("blueprint-test")
    app.config.update(TESTING=testing, API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    blp = Blueprint("answers", __name__)

    @blp.get("/answer")
    @blp.response(200, AnswerSchema)
    def answer_view() -> dict:
        return answer

    Api(app).register_blueprint(blp)
    return app


def test_a_matching_answer_is_sent_as_built():
    for testing in (True, False):
        assert app_answering({"count": 3, "share": 0.5}, testing).test_client().get("/answer").json == {
            "count": 3, "share": 0.5}


@pytest.mark.parametrize("answer", [{"count": 3}, {"count": 3, "share": 0.5, "extra": 1},
                                    {"count": 3.0, "share": 0.5}, {"count": 3, "share": "0.5"}])
def test_a_drifting_answer_fails_under_testing(answer):
    with pytest.raises(ResponseDrift):
        app_answering(answer, testing=True).test_client().get("/answer")


def test_same_json_rules():
    assert same_json({"a": [1, 2.5]}, {"a": [1, 2.5]})
    assert same_json((1, 2), [1, 2])  # tuples serialise as arrays
    assert same_json(2, 2.0)  # an integer where the schema dumps a float is the same JSON number
    assert not same_json(2.0, 2)  # but a float where it dumps an integer is not
    assert not same_json(True, 1) and not same_json(1, True)
    assert not same_json({"a": 1}, {"a": 1, "b": None})
    assert same_json(Fraction(1, 2), 0.5)  # equal in value; jsonify refuses it, which the tests then see
