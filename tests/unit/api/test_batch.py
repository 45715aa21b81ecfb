"""POST /v1/tactical/batch: every op answers exactly as its own endpoint, bad items stay their own."""
from __future__ import annotations

import pytest

from service.app import create_app
from tests.app_config import isolated_config

BATCH = "/v1/tactical/batch"
SWORD = {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"}
MAN = {"modified_sta": 18, "condition": 15, "pain_resistance": 10}
SAMPLES = {
    "to-hit": {"av": 50, "dv": 30, "seed": 7},
    "range": {"weapon": "bow", "distance": 85},
    "damage": {"attacker": {"strength": 15, "modified_sta": 20}, "weapon": SWORD,
               "target": {**MAN, "armor": [{"type": "singlemail"}]}},
    "armor-wear": {"armor": [{"type": "doublemail"}, {"type": "padded"}], "strikes": [{"db": 15}, {"db": 10}]},
    "falling": {"distance_feet": 10, "weight_pounds": 5},
    "initiative": {"combatants": [{"id": "b"}, {"id": "a"}], "seed": 1},
    "surprise": {"aggressor": {"chance": 60}, "target": {"chance": 40, "dv": 30},
                 "rolls": {"aggressor": 50, "target": 45}, "seed": 9},
    "contest": {"a": {"chance": 50}, "b": {"chance": 40}, "roll": True, "seed": 3},
}


def without_request_id(body):
    return {k: v for k, v in body.items() if k != "request_id"}


@pytest.mark.parametrize("op", sorted(SAMPLES))
def test_each_op_answers_as_its_endpoint(client, op):
    single = client.post(f"/v1/tactical/{op}", json=SAMPLES[op])
    assert single.status_code == 200
    response = client.post(BATCH, json={"items": [{"id": f"my-{op}", "op": op, "body": SAMPLES[op]}]})
    assert response.status_code == 200
    assert response.json["results"] == [{"id": f"my-{op}", "op": op, "status": 200, "body": single.json}]


def test_pulse_op_takes_one_speed_like_get_pulse(client):
    single = client.get("/v1/tactical/pulse?mph=10&scale=25mm")
    result = client.post(BATCH, json={"items": [{"op": "pulse", "body": {"mph": 10, "scale": "25mm"}}]}).json
    assert result["results"][0]["body"] == single.json
    assert result["results"][0]["body"]["feet_per_pulse"] == 15.0


def test_bad_items_get_their_own_problem_and_the_rest_still_run(client):
    items = [{"id": "good", "op": "to-hit", "body": {"av": 50, "dv": 30}},
             {"id": "shape", "op": "to-hit", "body": {"av": "x", "dv": 30}},
             {"id": "rules", "op": "range", "body": {"weapon": "light-crossbow", "distance": 250}},
             {"op": "falling", "body": {"distance_feet": 10, "weight_pounds": 5}}]
    response = client.post(BATCH, json={"items": items})
    assert response.status_code == 200
    good, shape, rules, last = response.json["results"]
    assert (good["status"], good["body"]["chance_percent"]) == (200, 63)
    assert shape["status"] == 422 and shape["body"]["errors"] == [{"field": "av", "message": "Not a valid integer."}]
    assert shape["body"]["instance"] == "/v1/tactical/to-hit"
    single = client.post("/v1/tactical/range", json=items[2]["body"])
    assert rules["status"] == single.status_code == 422
    assert without_request_id(rules["body"]) == {**without_request_id(single.json), "instance": "/v1/tactical/range"}
    assert rules["body"]["request_id"] == response.headers["X-Request-ID"]
    assert (last["id"], last["status"]) == (None, 200)


@pytest.mark.parametrize("body, field", [
    ({"items": []}, "items"),
    ({}, "items"),
    ({"items": [{"op": "nope", "body": {}}]}, "items.0.op"),
    ({"items": [{"op": "to-hit"}]}, "items.0.body"),
    ({"items": [{"op": "to-hit", "body": [1]}]}, "items.0.body"),
    ({"items": [{"id": "x" * 101, "op": "to-hit", "body": {}}]}, "items.0.id"),
    ({"items": [{"op": "to-hit", "body": {}}] * 1001}, "items"),
])
def test_batch_shape_refusals(client, body, field):
    response = client.post(BATCH, json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in [e["field"] for e in response.json["errors"]]


def test_config_caps_the_batch():
    client = create_app(isolated_config(max_batch_items=2)).test_client()
    item = {"op": "to-hit", "body": {"av": 50, "dv": 30}}
    assert client.post(BATCH, json={"items": [item] * 2}).status_code == 200
    refused = client.post(BATCH, json={"items": [item] * 3})
    assert refused.status_code == 422
    assert refused.json["errors"] == [{"field": "items", "message": "a batch holds at most 2 items"}]


def test_deeply_nested_item_body_is_refused(client):
    nested = '{"items": [{"op": "to-hit", "body": {"av": ' + "[" * 1000 + "]" * 1000 + "}}]}"
    response = client.post(BATCH, data=nested, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


def test_a_batch_is_bounded_by_its_work_not_only_its_item_count():
    client = create_app(isolated_config(max_batch_work=1000)).test_client()
    wear = {"armor": [{"type": "doublemail"}, {"type": "padded"}], "strikes": [{"db": 15}] * 100}  # work 200
    refused = client.post(BATCH, json={"items": [{"op": "armor-wear", "body": wear}] * 6})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    (error,) = refused.json["errors"]
    assert error["field"] == "items" and "1,200" in error["message"] and "1,000" in error["message"]
    assert client.post(BATCH, json={"items": [{"op": "armor-wear", "body": wear}] * 5}).status_code == 200
    assert client.post(BATCH, json={"items": [{"op": "to-hit", "body": {"av": 50, "dv": 30}}] * 100}
                       ).status_code == 200
