"""The committed dice of an encounter over HTTP (issue 25, items 1, 3, 4): the client seed, the nonce
that an undo does not give back, the audit that undo does not erase, reveal-and-rotate, the end's reveal."""
from __future__ import annotations

import hashlib
import json

import pytest

from service.verify import verify
from tests.unit.dice.played import create, step

RULESET = "runequest-house"


def test_the_server_seed_stays_secret_until_revealed(client):
    url, auth, created = create(client, RULESET, dice={"client_seed": "table 7 on friday"})
    assert created["dice"] == {"commitment": created["dice"]["commitment"], "client_seed": "table 7 on friday",
                               "next_nonce": 0, "steps": 0}
    answered = [created, client.get(url, headers=auth).json, step(client, url, auth, RULESET),
                client.get(f"{url}/events", headers=auth).json, client.get(f"{url}/audit", headers=auth).json]
    assert "server_seed\": \"" not in json.dumps(answered) and answered[-1]["seeds"][0]["server_seed"] is None
    revealed = client.post(f"{url}/dice/reveal", headers=auth).json["revealed"]
    assert hashlib.sha256(bytes.fromhex(revealed["server_seed"])).hexdigest() == created["dice"]["commitment"]


def test_a_random_client_seed_is_shown_and_can_be_replaced_only_before_the_first_step(client):
    url, auth, created = create(client, RULESET)
    assert len(created["dice"]["client_seed"]) == 32
    replaced = client.put(f"{url}/dice", json={"client_seed": "ours"}, headers={**auth, "If-Match": '"1"'})
    assert replaced.status_code == 200 and replaced.headers["ETag"] == '"2"'
    assert replaced.json["dice"]["client_seed"] == "ours"
    assert step(client, url, auth, RULESET)["dice"]["client_seed"] == "ours"
    late = client.put(f"{url}/dice", json={"client_seed": "too late"}, headers=auth)
    assert late.status_code == 409 and late.json["errors"][0]["field"] == "client_seed"
    client.post(f"{url}/dice/reveal", headers=auth)  # a new commitment: its first step has not rolled yet
    assert client.put(f"{url}/dice", json={"client_seed": "next"}, headers=auth).status_code == 200


@pytest.mark.parametrize("bad", ["", "x" * 129, "tab\there", "\ud800", 7, None])
def test_a_bad_client_seed_is_refused_and_changes_nothing(client, bad):
    url, auth, created = create(client, RULESET)
    refused = client.put(f"{url}/dice", data=json.dumps({"client_seed": bad}), headers=auth,
                         content_type="application/json")
    assert refused.status_code == 422 and refused.json["errors"][0]["field"] == "client_seed"
    assert client.get(url, headers=auth).json["dice"] == created["dice"]
    assert client.post("/v1/encounters", data=json.dumps({"ruleset": RULESET, "combatants": [{"id": "a"}],
                                                          "dice": {"client_seed": bad}}),
                       content_type="application/json").status_code == 422


def test_an_undone_nonce_is_never_reused_and_the_audit_keeps_its_dice(client):
    url, auth, _ = create(client, RULESET)
    first = step(client, url, auth, RULESET)
    client.post(f"{url}/undo", headers=auth)
    redo = step(client, url, auth, RULESET)
    assert (first["dice"]["nonce"], redo["dice"]["nonce"]) == (0, 1)
    audit = client.get(f"{url}/audit", headers=auth).json
    assert [(r["nonce"], r["undone"]) for r in audit["resolutions"]] == [(0, True), (1, False)]
    assert audit["resolutions"][0]["draws"] == first["dice"]["draws"]
    undo_event = client.get(f"{url}/events?limit=500", headers=auth).json["events"][-len(redo["events"]) - 1]
    assert audit["undos"] == [{"type": "undo", "nonce": 0, "seq": undo_event["seq"]}] and undo_event["type"] == "undo"


def test_reveal_rotates_and_the_end_reveals_the_last_seed(client):
    url, auth, created = create(client, RULESET)
    step(client, url, auth, RULESET)
    rotated = client.post(f"{url}/dice/reveal", headers={**auth, "If-Match": '"2"'})
    assert rotated.status_code == 200 and rotated.json["revealed"]["commitment"] == created["dice"]["commitment"]
    assert rotated.json["dice"]["commitment"] != created["dice"]["commitment"]
    assert (rotated.json["dice"]["next_nonce"], rotated.json["dice"]["steps"]) == (1, 0)
    assert step(client, url, auth, RULESET)["dice"]["commitment"] == rotated.json["dice"]["commitment"]
    assert client.post(f"{url}/dice/reveal", headers={**auth, "If-Match": '"2"'}).status_code == 412
    ended = client.delete(url, headers=auth).json
    assert [s["commitment"] for s in ended["seeds"]] == [created["dice"]["commitment"],
                                                        rotated.json["dice"]["commitment"]]
    assert all(hashlib.sha256(bytes.fromhex(s["server_seed"])).hexdigest() == s["commitment"]
               for s in ended["seeds"])
    assert verify(ended).ok
    assert client.get(f"{url}/audit", headers=auth).status_code == 404


def test_a_step_with_the_callers_seed_is_audited_but_not_committed(client):
    url, auth, _ = create(client, RULESET)
    seeded = step(client, url, auth, RULESET, seed=42)
    assert seeded["seed"] == 42 and seeded["dice"]["nonce"] == 0
    ended = client.delete(url, headers=auth).json
    assert ended["resolutions"][0]["seed"] == 42
    assert any("chosen by the caller" in p for p in verify(ended).problems)
    assert verify(ended, allow_seeded=True).ok
