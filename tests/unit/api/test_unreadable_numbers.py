"""A number literal a double cannot hold (issue 22: `{"av": 1e-400}` was read as 0 and answered 200 on seven
operations) is refused with a 422 naming its path, in every body of every calculator and in query strings;
NaN and Infinity are not JSON (400)."""
from __future__ import annotations

import json

import pytest

from service.api.http.openapi import UNREADABLE_NUMBERS

MARK = 123456.789


def calculators(app) -> list[tuple[str, dict]]:
    """Every /v1/<ruleset>/... POST with a request example holding a number: (path, example)."""
    spec = app.extensions["referee.api"].spec.to_dict()
    found = []
    for path, item in spec["paths"].items():
        body = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        if path.count("/") >= 3 and not path.startswith(("/v1/encounters", "/v1/simulations")) and "example" in body:
            found.append((path, body["example"]))
    return found


def first_number(value, path=()):
    """The path of the first number (not a boolean) in `value`, depth first."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found = first_number(child, (*path, key))
        if found is not None:
            return found
    return None


def with_literal(example: dict, path: tuple, literal: str) -> str:
    """The example as JSON text with the number at `path` written as `literal`."""
    copy = json.loads(json.dumps(example))
    holder = copy
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = MARK
    return json.dumps(copy).replace(repr(MARK), literal, 1)


@pytest.mark.parametrize("literal, reads_as", [("1e-400", "0"), ("-2.5e-999", "0"), ("1e400", "infinity")])
def test_every_calculator_refuses_a_number_past_a_double(app, client, literal, reads_as):
    examples = calculators(app)
    assert len(examples) >= 60
    for path, example in examples:
        where = first_number(example)
        if where is None:
            continue
        response = client.post(path, data=with_literal(example, where, literal), content_type="application/json")
        assert response.status_code == 422, (path, response.get_json())
        errors = response.get_json()["errors"]
        assert errors == [{"field": ".".join(map(str, where)), "message": errors[0]["message"]}], path
        assert f"would read as {reads_as}" in errors[0]["message"]


def test_the_issue_body_is_refused(client):
    response = client.post("/v1/tactical/to-hit", data='{"av": 1e-400, "dv": 45}', content_type="application/json")
    assert response.status_code == 422
    assert response.get_json()["type"] == "urn:referee:problem:invalid-request"
    assert response.get_json()["errors"][0]["field"] == "av"


@pytest.mark.parametrize("value", ["1e-400", "1e400", "0." + "0" * 400 + "1", "9" * 400])
def test_a_query_number_past_a_double_is_422(client, value):
    response = client.get(f"/v1/tactical/pulse?mph={value}&scale=25mm")
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "mph"


@pytest.mark.parametrize("body", ['{"av": NaN, "dv": 45}', '{"av": Infinity, "dv": 45}', '{"av": -Infinity}'])
def test_nan_and_infinity_are_400(client, body):
    assert client.post("/v1/tactical/to-hit", data=body, content_type="application/json").status_code == 400


def test_zero_written_any_way_and_tiny_doubles_are_numbers(client):
    for literal in ("0e-999", "0.0", "-0.0E500", "5e-324"):
        response = client.post("/v1/tactical/pulse-ramp", data='{"mph": %s, "rates": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}' % literal,
                               content_type="application/json")
        assert response.status_code == 200, literal


def test_the_spec_says_so(app):
    spec = app.extensions["referee.api"].spec.to_dict()
    assert UNREADABLE_NUMBERS in spec["components"]["responses"]["UNPROCESSABLE_ENTITY"]["description"]
