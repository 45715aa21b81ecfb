"""/v1/tactical/pulse, /pulse-ramp and /falling: shapes, the seed's numbers, caching and 422s."""
from __future__ import annotations

import pytest

RATE_KEYS = {"mph", "feet_per_pulse", "feet_per_pulse_exact", "feet_per_cs", "scale_mm_per_pulse",
             "scale_per_pulse", "source"}


def test_get_pulse_ten_mph(client):
    body = client.get("/v1/tactical/pulse?mph=10").get_json()
    assert (body["feet_per_pulse"], body["scale"], body["scale_mm_per_pulse"], body["scale_per_pulse"],
            body["source"]) == (15, "25mm", 73, "7.3 cm", "rule")
    assert body["feet_per_pulse_exact"] == pytest.approx(44 / 3)
    assert set(body["rates"]) == {"quarter", "half", "three_quarters", "full"}
    assert all(set(rate) == RATE_KEYS for rate in body["rates"].values())
    assert body["rates"]["half"]["scale_per_pulse"] == "3.7 cm" and body["rates"]["full"]["feet_per_cs"] == 147
    assert (body["first_pulse_feet"], body["feet_first_cs_from_standstill"]) == (7, 139)
    assert body["trace"][0]["rule"] == "F43"


@pytest.mark.parametrize("query, text, source", [
    ("mph=4", "2.9 cm", "rule"), ("mph=4&verbatim=true", "3 cm", "printed"),
    ("mph=23&scale=10mm&verbatim=true", "6.7 cm", "printed"), ("mph=0.25&scale=5mm&verbatim=true", "0 mm", "printed"),
    ("mph=16&scale=5mm", "2.4 cm", "rule"), ("mph=150&verbatim=true", "110 cm", "rule"), ("mph=0", "0 mm", "rule"),
])
def test_get_pulse_cells(client, query, text, source):
    body = client.get(f"/v1/tactical/pulse?{query}").get_json()
    assert (body["scale_per_pulse"], body["source"]) == (text, source)


def test_get_pulse_is_cacheable(client):
    first = client.get("/v1/tactical/pulse?mph=12&scale=10mm")
    assert first.status_code == 200 and first.headers["ETag"] and "max-age" in first.headers["Cache-Control"]
    again = client.get("/v1/tactical/pulse?mph=12&scale=10mm", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("query, field", [("mph=-1", "mph"), ("mph=1001", "mph"), ("mph=abc", "mph"),
                                          ("mph=nan", "mph"), ("mph=10&scale=15mm", "scale"), ("", "mph")])
def test_get_pulse_rejects_bad_query(client, query, field):
    response = client.get(f"/v1/tactical/pulse?{query}")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in {error["field"] for error in response.get_json()["errors"]}


def test_post_pulse_batch(client):
    response = client.post("/v1/tactical/pulse", json={"items": [{"mph": 13, "verbatim": True},
                                                                 {"mph": 13}, {"mph": 1, "scale": "5mm"}]})
    results = response.get_json()["results"]
    assert [r["scale_per_pulse"] for r in results] == ["9.6 cm", "9.5 cm", "2 mm"]


@pytest.mark.parametrize("body", [{"items": []}, {"items": [{"mph": 1}] * 101}, {"items": [{"scale": "25mm"}]},
                                  {}, {"items": [{"mph": "fast"}]}])
def test_post_pulse_batch_rejects(client, body):
    assert client.post("/v1/tactical/pulse", json=body).status_code == 422


def test_falling_with_catcher(client):
    body = client.post("/v1/tactical/falling", json={
        "distance_feet": 64, "weight_pounds": 150,
        "catcher": {"modified_sta": 18, "str_mod": 2, "crd_mod": 1, "armor_dr": 5}}).get_json()
    assert (body["pulses"], body["adjacent_only"], body["impact_pot"], body["catch_dv"]) == (2, False, 58, 58)
    assert body["absorb"] == {"capacity": 26, "excess_pot": 32}
    assert [step["rule"] for step in body["trace"]][-1] == "F35"


def test_falling_short_drop_without_catcher(client):
    body = client.post("/v1/tactical/falling", json={"distance_feet": 10, "weight_pounds": 5}).get_json()
    assert (body["pulses"], body["adjacent_only"], body["catch_dv"], body["absorb"]) == (0, True, 7, None)


@pytest.mark.parametrize("body, field", [
    ({"distance_feet": -1, "weight_pounds": 1}, "distance_feet"),
    ({"distance_feet": 1e9, "weight_pounds": 1}, "distance_feet"),
    ({"distance_feet": 10}, "weight_pounds"),
    ({"distance_feet": 10, "weight_pounds": 1, "catcher": {"modified_sta": 1.5, "str_mod": 0, "crd_mod": 0}},
     "catcher.modified_sta"),
    ({"distance_feet": 10, "weight_pounds": 1, "catcher": {"modified_sta": 10, "str_mod": 0}}, "catcher.crd_mod"),
])
def test_falling_rejects(client, body, field):
    response = client.post("/v1/tactical/falling", json=body)
    assert response.status_code == 422
    assert field in {error["field"] for error in response.get_json()["errors"]}


def test_pulse_ramp(client):
    body = client.post("/v1/tactical/pulse-ramp",
                       json={"mph": 10, "rates": [1, 1, 0, 0.75, 1, 1, 1, 1, 1, 1]}).get_json()
    assert [p["allowed"] for p in body["pulses"]] == [0.5, 1, 0, 0.5, 1, 1, 1, 1, 1, 1]
    assert body["total_feet"] == 117 and body["charge_eligible"] is True  # (22 + 44 + 22 + 6 x 44)/3 = 117.3


def test_pulse_ramp_no_charge_when_attack_comes_too_soon(client):
    body = client.post("/v1/tactical/pulse-ramp", json={"mph": 10, "rates": [1] * 10, "attack_pulse": 5})
    assert body.get_json()["charge_eligible"] is False


@pytest.mark.parametrize("body, field", [({"mph": 10, "rates": [1] * 9}, "rates"),
                                         ({"mph": 10, "rates": [0.3] + [1] * 9}, "rates.0"),
                                         ({"mph": 10, "rates": [1] * 10, "attack_pulse": 0}, "attack_pulse")])
def test_pulse_ramp_rejects(client, body, field):
    response = client.post("/v1/tactical/pulse-ramp", json=body)
    assert response.status_code == 422
    assert field in {error["field"] for error in response.get_json()["errors"]}


def test_tables_are_served(client):
    for name in ("pulse-conversions", "falling-pulses", "action-times"):
        assert client.get(f"/v1/rulesets/tactical/tables/{name}").status_code == 200


@pytest.mark.parametrize("path, body, status", [
    ("/v1/tactical/pulse", {"items": [{"mph": 10, "verbatim": 0}]}, 422),
    ("/v1/tactical/pulse", {"items": [{"mph": "10"}]}, 422),
    ("/v1/tactical/pulse-ramp", {"mph": 10, "rates": [1] * 10, "attack_pulse": 8.0}, 200),
    ("/v1/tactical/pulse-ramp", {"mph": 10, "rates": [1] * 10, "attack_pulse": 8.5}, 422),
    ("/v1/tactical/pulse-ramp", {"mph": 10, "rates": [True] * 10}, 422),
    ("/v1/tactical/falling", {"distance_feet": True, "weight_pounds": 1}, 422),
])
def test_json_bodies_take_json_types_only(client, path, body, status):
    assert client.post(path, json=body).status_code == status
