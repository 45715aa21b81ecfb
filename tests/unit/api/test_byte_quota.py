"""The per-client byte cap on encounters (`max_bytes_per_client`): writes that add data answer 429 once a
client's encounters hold the cap; reads, undo and ending still work; ended and expired encounters stop counting;
other clients are unaffected."""
from __future__ import annotations

import secrets

import pytest

from service.app import create_app
from service.sessions.keys import client_bytes
from service.sessions.repository import Keys
from tests.app_config import isolated_config
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
ATTACKS = [{"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0},
           {"combatant": "bandit-1", "action": "attack", "target": "knight", "weapon": 0}]
CAP = 40_000


@pytest.fixture(scope="module")
def app():
    return create_app(isolated_config(max_bytes_per_client=CAP, limits_in_testing=True))


@pytest.fixture()
def client(app):
    """A test client with an address of its own, so each test is a client of its own."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.7"
    return client


def create(client):
    answer = client.post("/v1/encounters", json={"combatants": [KNIGHT, BANDIT]})
    assert answer.status_code == 201, answer.json
    return answer.headers["Location"], {"Authorization": f"Bearer {answer.json['token']}"}


def fill(client, url, auth):
    """Resolve steps until the cap refuses one; returns that answer and how many were stored."""
    for stored in range(200):
        answer = client.post(url + "/segments", json={"seed": stored, "declarations": ATTACKS}, headers=auth)
        if answer.status_code != 201:
            return answer, stored
    raise AssertionError("the cap never refused a step")


def test_past_the_cap_writes_that_add_are_refused_and_ending_one_makes_room(client):
    url, auth = create(client)
    refused, stored = fill(client, url, auth)
    assert stored > 1 and refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert refused.headers["Retry-After"] == "60" and f"{CAP:,}" in refused.json["detail"]
    assert client.put(url + "/declarations", json={"declarations": ATTACKS}, headers=auth).status_code == 429
    assert client.post("/v1/encounters", json={"combatants": [KNIGHT]}).status_code == 429
    assert client.get(url, headers=auth).status_code == 200  # reading and undoing still work
    assert client.get(url + "/events", headers=auth).status_code == 200
    assert client.post(url + "/undo", headers=auth).status_code == 200
    other = client.post("/v1/encounters", json={"combatants": [KNIGHT]}, environ_base={"REMOTE_ADDR": "10.250.0.1"})
    assert other.status_code == 201  # another client has its own cap
    assert client.delete(url, headers=auth).status_code == 200
    create(client)  # the ended encounter no longer counts


def test_an_expired_encounter_stops_counting_once_the_client_is_at_its_cap(client, app):
    url, auth = create(client)
    assert fill(client, url, auth)[0].status_code == 429
    redis = app.extensions["referee.encounters"].redis
    redis.delete(*Keys.of(url.rsplit("/", 1)[1]).stored)  # as if its TTL ran out
    create(client)


def test_a_client_under_the_cap_is_metered_by_what_its_encounters_hold(client, app):
    url, auth = create(client)
    assert client.post(url + "/segments", json={"seed": 1, "declarations": ATTACKS}, headers=auth).status_code == 201
    redis = app.extensions["referee.encounters"].redis
    meter = redis.hgetall(client_bytes("ip:" + client.environ_base["REMOTE_ADDR"]))
    encounter_id = url.rsplit("/", 1)[1].encode()
    held = sum(redis.hstrlen(Keys.of(url.rsplit("/", 1)[1]).main, name) for name in ("state", "declarations"))
    assert int(meter[b"_total"]) == int(meter[encounter_id]) > held  # state plus the log and the undo stack
