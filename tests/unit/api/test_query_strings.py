"""Query strings: a parameter given twice is 422, and numbers Python would read but a client should not send
(`1_0`, full-width digits, padded with blanks) are 422 naming the parameter; plain numbers still work."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("query, field", [
    ("mph=1_0&scale=25mm", "mph"),
    ("mph=\uff11\uff10&scale=25mm", "mph"),  # full-width 10
    ("mph=%20%2010&scale=25mm", "mph"),
    ("mph=10&mph=20&scale=25mm", "mph"),
    ("mph=10&scale=25mm&scale=15mm", "scale"),
])
def test_odd_query_values_are_422(client, query, field):
    response = client.get(f"/v1/tactical/pulse?{query}")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in [error["field"] for error in response.get_json()["errors"]]


def test_plain_query_numbers_still_work(client):
    assert client.get("/v1/tactical/pulse?mph=10&scale=25mm").status_code == 200
    assert client.get("/v1/tactical/pulse?mph=2.5&scale=25mm").status_code == 200


def test_the_specs_limits_are_the_servers(app):
    from service.config import Config

    spec = app.extensions["referee.api"].spec.to_dict()
    schemas = spec["components"]["schemas"]
    assert schemas["BatchRequest"]["properties"]["items"]["maxItems"] == Config().max_batch_items
    assert schemas["EncounterCreate"]["properties"]["combatants"]["maxItems"] == Config().max_combatants
    thrown = schemas["ThrownObject"]["properties"]
    for name in ("size", "height", "weight_pounds", "light_enc"):
        assert thrown[name]["exclusiveMinimum"] == 0 and "minimum" not in thrown[name]
