"""Hostile input through the real server: oversized, deeply nested, junk and huge-number bodies get 4xx
problem+json (never 500), and an encounter's token opens that encounter only (and its tenant's only)."""
from __future__ import annotations

import pytest
import requests
from redis import Redis

from service.api.http.auth import create_key
from tests.faults.conftest import ATTACKS, BANDIT, TO_HIT, UNREACHABLE_LIMIT, new_encounter
from tests.load.stack import start_stack
from tests.unit.sessions.conftest import KNIGHT

pytestmark = pytest.mark.slow
PROBLEM = "application/problem+json"
JSON = {"Content-Type": "application/json"}


def post_raw(url: str, data: bytes | str) -> requests.Response:
    return requests.post(url + "/v1/tactical/to-hit", data=data, headers=JSON, timeout=10)


def assert_problem(response: requests.Response, *statuses: int) -> None:
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["Content-Type"].startswith(PROBLEM)


def test_an_oversized_body_is_413(stack):
    assert_problem(post_raw(stack.url, '{"av": 60, "dv": 45, "pad": "' + "x" * 300_000 + '"}'), 413)


@pytest.mark.parametrize("levels", [33, 1_000, 50_000])
def test_deeply_nested_json_is_400(stack, levels):
    assert_problem(post_raw(stack.url, '{"av": ' + "[" * levels + "]" * levels + "}"), 400)


@pytest.mark.parametrize("data", [
    b"\xff\xfe\x00{\x00}", b'{"av": "\xc3\x28"}', '{"av": 60, "dv": "\\ud800"}', '{"av": "٣", "dv": 45}',
    '{"\u202eav": 60, "dv": 45}', "\ufeff" + '{"av": 60}', '{"av": NaN, "dv": 45}', "\x00" * 64,
])
def test_unicode_junk_is_4xx(stack, data):
    assert_problem(post_raw(stack.url, data), 400, 422)


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 5000, "1" + "0" * 30, "9" * 4000 + ".5",
                                    "-" + "9" * 400])
def test_huge_and_odd_numbers_are_4xx(stack, number):
    assert_problem(post_raw(stack.url, '{"av": ' + number + ', "dv": 45}'), 400, 422)


def test_huge_numbers_in_an_encounter_are_4xx(stack):
    encounter, auth = new_encounter(stack.url)
    response = requests.post(encounter + "/segments", json={"seed": 10**40}, headers=auth, timeout=10)
    assert_problem(response, 400, 422)


def encounter_calls(encounter: str) -> list[tuple[str, str, dict | None]]:
    return [("GET", encounter, None), ("GET", encounter + "/combatants", None),
            ("GET", encounter + "/combatants/knight", None), ("GET", encounter + "/events", None),
            ("PUT", encounter + "/declarations", {"declarations": ATTACKS}),
            ("POST", encounter + "/segments", {"seed": 1}), ("POST", encounter + "/undo", None),
            ("POST", encounter + "/combatants", {**BANDIT, "id": "intruder"}),
            ("DELETE", encounter + "/combatants/bandit-1", None), ("GET", encounter + "/stream", None),
            ("DELETE", encounter, None)]


def test_token_isolation_matrix(stack):
    a, auth_a = new_encounter(stack.url)
    b, auth_b = new_encounter(stack.url)
    before = requests.get(b, headers=auth_b, timeout=10).json()
    wrong = [auth_a, {}, {"Authorization": "Bearer "}, {"Authorization": "Bearer nope"},
             {"Authorization": auth_b["Authorization"].replace("Bearer", "Basic")},
             {"Authorization": auth_b["Authorization"][:-1]}]
    for method, url, body in encounter_calls(b):
        for headers in wrong:
            response = requests.request(method, url, json=body, headers=headers, timeout=10)
            assert_problem(response, 401, 404)
            assert not {"state", "combatants", "events", "items"} & set(response.json())
    assert requests.get(b, headers=auth_b, timeout=10).json() == before
    assert requests.get(a, headers=auth_a, timeout=10).json()["version"] == 1
    assert requests.get(b + "/stream?token=" + auth_a["Authorization"][7:], timeout=10).status_code in (401, 404)


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    running = start_stack(tmp_path_factory.mktemp("keys"), worker=False, REFEREE_API_KEYS_REQUIRED="true",
                          **UNREACHABLE_LIMIT)
    redis = Redis.from_url(running.redis_url)
    yield running, {"X-API-Key": create_key(redis, "tenant-1")}, {"X-API-Key": create_key(redis, "tenant-2")}
    running.close()


def test_api_keys_and_tenants_isolate_encounters(keyed):
    running, one, two = keyed
    assert_problem(requests.post(running.url + "/v1/tactical/to-hit", json=TO_HIT, timeout=10), 401)
    assert_problem(requests.post(running.url + "/v1/tactical/to-hit", json=TO_HIT, timeout=10,
                                 headers={"X-API-Key": "made-up"}), 401, 403)
    created = requests.post(running.url + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, headers=one,
                            timeout=10).json()
    encounter, token = running.url + created["links"]["self"], {"Authorization": f"Bearer {created['token']}"}
    assert requests.get(encounter, headers={**one, **token}, timeout=10).status_code == 200
    for method, url, body in encounter_calls(encounter):
        for headers in ({**two, **token}, token):  # the right token, the wrong tenant (or no key)
            assert_problem(requests.request(method, url, json=body, headers=headers, timeout=10), 401, 403, 404)
    assert requests.get(encounter, headers={**one, **token}, timeout=10).json()["version"] == 1


def chunked(data: bytes, size: int = 16_384):
    """A body requests sends with Transfer-Encoding: chunked (no Content-Length)."""
    for start in range(0, len(data), size):
        yield data[start:start + size]


@pytest.mark.parametrize("size", [262_145, 300_000, 2_000_000])
def test_an_oversized_chunked_body_is_413(stack, size):
    body = b'{"av": 60, "dv": 45, "pad": "' + b"x" * size + b'"}'
    response = requests.post(stack.url + "/v1/tactical/to-hit", data=chunked(body), headers=JSON, timeout=20)
    assert_problem(response, 413)


def test_a_chunked_body_within_the_limit_is_read_whole(stack):
    body = b'{"av": 60, "dv": 45}'
    response = requests.post(stack.url + "/v1/tactical/to-hit", data=chunked(body, 5), headers=JSON, timeout=10)
    assert response.status_code == 200 and response.json()["chance_percent"] == 57


def test_a_chunked_body_is_not_cut_at_the_limit_and_processed(stack):
    # Valid JSON within the limit, then padding past it: read whole, this is too long, not a to-hit.
    body = b'{"av": 60, "dv": 45}' + b" " * 300_000
    response = requests.post(stack.url + "/v1/tactical/to-hit", data=chunked(body), headers=JSON, timeout=20)
    assert_problem(response, 413)


@pytest.mark.parametrize("path, headers", [
    ("/v1/tactical/pulse?mph=10&scale=25mm&pad=" + "x" * 5000, {}),  # request line over 4094 bytes: 414
    ("/healthz", {"X-Pad": "x" * 9000}),  # a header field over 8190 bytes: 431
])
def test_gunicorns_own_refusals_are_problem_json(stack, path, headers):
    response = requests.get(stack.url + path, headers=headers, timeout=10)
    assert 400 <= response.status_code < 500
    assert response.headers["Content-Type"].startswith(PROBLEM)
    assert response.json()["status"] == response.status_code
