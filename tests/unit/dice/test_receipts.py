"""Signed rolls (issue 25, item 6): every calculator that rolls answers a receipt on request; it verifies
with a generic JOSE library (jwcrypto) against /.well-known/jwks.json and fails after one byte of the answer
or the request changes; old keys stay listed after a rotation."""
from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st
from jwcrypto import jwk, jws

from service.api.kit.receipt_keys import ReceiptKeys, new_key, read_keys, rotate_file, write_keys
from service.api.kit.receipts import canonical
from service.app import create_app
from tests.app_config import isolated_config

ROOT = Path(__file__).parents[3]
CALCULATORS = {
    "/v1/tactical/to-hit": {"av": 60, "dv": 45},
    "/v1/smoting/check": None, "/v1/smoting/to-hit": {"attack_dice": 5, "defence": {"type": "dodge", "dice": 3}},
    "/v1/smoting/damage": {"damage_dice": 5, "strength": 1, "extra_successes": 1, "target": {"rank": 5}},
    "/v1/smoting/attack": None, "/v1/smoting/injury": None,
    "/v1/war-and-combat/to-hit": None, "/v1/war-and-combat/check": None, "/v1/war-and-combat/damage": None,
    "/v1/war-and-combat/attack": None, "/v1/ars-magica/to-hit": None, "/v1/ars-magica/damage": None,
    "/v1/ars-magica/check": None, "/v1/runequest-house/check": None, "/v1/runequest-house/to-hit": None,
    "/v1/runequest-house/attack": None, "/v1/runequest-house/damage": None, "/v1/runequest-house/contest": None,
}


def body_for(app, path: str) -> dict:
    """The calculator's documented request example (or the body above), without its seed."""
    if CALCULATORS[path] is not None:
        return dict(CALCULATORS[path])
    spec = app.extensions["referee.api"].spec.to_dict()
    example = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"]
    return {k: v for k, v in example.items() if k != "seed"}


def verified(jwks: dict, sent: dict, answer: dict) -> bool:
    """The receipt checked as any client would: rebuild the payload, attach it, verify with jwcrypto."""
    receipt = answer["receipt"]
    dice = answer["dice"] if "dice" in answer else ([answer["roll"]] if answer.get("roll") else [])
    payload = rfc8785.dumps({"kid": receipt["kid"], "time": receipt["time"], "request": sent, "dice": dice,
                             "seed": answer["seed"]})
    header, signature = receipt["jws"].split("..")
    attached = f"{header}.{base64.urlsafe_b64encode(payload).rstrip(b'=').decode()}.{signature}"
    keys = jwk.JWKSet.from_json(json.dumps(jwks))
    key = keys.get_key(receipt["kid"])
    if key is None:
        return False
    token = jws.JWS()
    token.allowed_algs = ["Ed25519"]
    try:
        token.deserialize(attached, key)
    except jws.InvalidJWSSignature:
        return False
    return token.jose_header["kid"] == receipt["kid"]


@pytest.fixture(scope="module")
def signed(app):
    client = app.test_client()
    jwks = client.get("/.well-known/jwks.json").get_json()
    answers = {}
    for path in CALCULATORS:
        sent = {**body_for(app, path), "receipt": True}
        answer = client.post(path, json=sent)
        assert answer.status_code == 200, (path, answer.get_json())
        answers[path] = (sent, answer.get_json())
    return jwks, answers


@pytest.mark.parametrize("path", sorted(CALCULATORS))
def test_a_receipt_verifies_against_the_jwks_and_signs_the_dice(signed, path):
    jwks, answers = signed
    sent, answer = answers[path]
    assert answer["receipt"]["alg"] == "Ed25519" and 0 <= answer["seed"] < 2**53  # the server picked the seed
    assert answer.get("dice") or answer.get("roll")
    assert verified(jwks, sent, answer)


def flipped(text: str) -> str:
    """`text` with one character changed."""
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def test_one_changed_byte_fails_the_receipt(signed):
    jwks, answers = signed
    sent, answer = answers["/v1/smoting/to-hit"]
    face = copy.deepcopy(answer)
    face["dice"][0]["dice"][0] = face["dice"][0]["dice"][0] % 6 + 1
    seed, when, signature = copy.deepcopy(answer), copy.deepcopy(answer), copy.deepcopy(answer)
    seed["seed"] += 1
    when["receipt"]["time"] = when["receipt"]["time"].replace("Z", "1Z")
    signature["receipt"]["jws"] = flipped(signature["receipt"]["jws"][:-2]) + signature["receipt"]["jws"][-2:]
    for changed in (face, seed, when, signature):
        assert not verified(jwks, sent, changed)
    assert not verified(jwks, {**sent, "attack_dice": 6}, answer)


def test_without_a_receipt_nothing_is_signed_and_a_seed_past_2_53_is_refused(client):
    plain = client.post("/v1/smoting/to-hit", json={"attack_dice": 5, "defence": {"type": "dodge", "dice": 3},
                                                    "seed": 3}).get_json()
    assert "receipt" not in plain
    refused = client.post("/v1/smoting/to-hit", json={"attack_dice": 5, "defence": {"type": "dodge", "dice": 3},
                                                      "seed": 2**60, "receipt": True})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "receipt"
    assert client.post("/v1/smoting/to-hit", json={"attack_dice": 5, "receipt": "yes"}).status_code == 422


def test_old_keys_stay_listed_after_a_rotation(tmp_path):
    keys_file = tmp_path / "receipt-keys.json"
    first_kid = rotate_file(str(keys_file))
    assert oct(keys_file.stat().st_mode & 0o777) == "0o600"
    body = {"av": 60, "dv": 45, "receipt": True}
    before = create_app(isolated_config(receipt_keys_file=str(keys_file))).test_client()
    old = before.post("/v1/tactical/to-hit", json=body).get_json()
    assert old["receipt"]["kid"] == first_kid
    assert rotate_file(str(keys_file), if_missing=True) == first_kid  # make run's call leaves the keys alone
    second_kid = rotate_file(str(keys_file))
    after = create_app(isolated_config(receipt_keys_file=str(keys_file))).test_client()
    jwks = after.get("/.well-known/jwks.json").get_json()
    assert [k["kid"] for k in jwks["keys"]] == [second_kid, first_kid] and all("d" not in k for k in jwks["keys"])
    assert verified(jwks, body, old)
    assert after.post("/v1/tactical/to-hit", json=body).get_json()["receipt"]["kid"] == second_kid


def test_keys_from_the_environment_and_none_at_all(monkeypatch):
    text = write_keys(ReceiptKeys((new_key(),)))
    kid = read_keys(text).signing.thumbprint()
    monkeypatch.setenv("REFEREE_RECEIPT_KEYS", text)
    from service.config import Config

    assert Config.from_env().receipt_keys == text
    client = create_app(isolated_config(receipt_keys=text)).test_client()
    assert client.get("/.well-known/jwks.json").get_json()["keys"][0]["kid"] == kid
    bare = create_app(isolated_config(testing=False, receipt_keys_file="/nonexistent")).test_client()
    assert bare.get("/.well-known/jwks.json").get_json() == {"keys": []}
    refused = bare.post("/v1/tactical/to-hit", json={"av": 60, "dv": 45, "receipt": True})
    assert refused.status_code == 503 and refused.get_json()["errors"][0]["field"] == "receipt"


def test_the_command_line_makes_and_rotates_the_key_file(tmp_path):
    keys_file = tmp_path / "var" / "keys.json"
    run = [sys.executable, "-m", "service", "receipt-key", str(keys_file)]
    made = subprocess.run([*run, "--if-missing"], check=True, capture_output=True, text=True, cwd=ROOT, timeout=60)
    again = subprocess.run([*run, "--if-missing"], check=True, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert made.returncode == 0 and made.stdout == again.stdout and len(made.stdout.strip()) == 43
    assert len(read_keys(keys_file.read_text()).keys) == 1 and os.path.exists(keys_file)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=8)
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_the_canonical_json_is_the_rfc8785_packages(value):
    try:
        expected = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError:
        with pytest.raises(rfc8785.CanonicalizationError):
            canonical(value)
        return
    assert canonical(value) == expected
