"""Signed rolls (issue 25, item 6): a calculator asked for `"receipt": true` answers a `receipt`, an Ed25519
JWS with a detached payload, so a player can prove to anyone that a roll is genuine.

The payload is the RFC 8785 canonical JSON of `{"kid", "time", "request", "dice", "seed"}`: the key id,
the time of the answer (RFC 3339, UTC, milliseconds), the request body exactly as sent, and the answer's
`dice` (tactical /to-hit: `[roll]`) and `seed`. The receipt carries `kid`, `time`, `alg` and `jws` (`<header>..<signature>`); to verify,
rebuild the payload from the request and the answer, put its base64url between the two dots and check the
signature with the key `kid` of /.well-known/jwks.json. With a receipt and no `seed`, the server picks one
(below 2^53: RFC 8785 numbers are doubles), so the receipt vouches for dice nobody chose.
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any

import rfc8785
from flask import current_app, request
from joserfc import jws
from marshmallow import Schema, fields

from service.api.http.blueprint import Blueprint
from service.api.http.bodies import JSON_OBJECT
from service.api.kit.receipt_keys import ALG, ReceiptKeys
from service.api.kit.schemas import JsonBoolean
from service.rules.errors import OutOfRange, RulesError

SAFE = 2**53  # RFC 8785 numbers are IEEE doubles: integers beyond this cannot be signed exactly

blp = Blueprint("receipts", __name__, description="The public keys that check signed rolls (receipts).")


class Unavailable(RulesError):
    """No receipt key is configured on this deployment."""

    status = 503
    title = "Service unavailable"


class ReceiptSchema(Schema):
    """A signed roll: verify `jws` against the key `kid` of /.well-known/jwks.json."""

    kid = fields.String(required=True, metadata={"description": "The signing key's id (RFC 7638 thumbprint)."})
    time = fields.String(required=True, metadata={"description": "When the answer was signed (RFC 3339, UTC)."})
    alg = fields.String(required=True, metadata={"description": "`Ed25519` (RFC 9864)."})
    jws = fields.String(required=True,
                        metadata={"description": "JWS compact serialization with a detached payload "
                                                 "(`<header>..<signature>`). The payload is the RFC 8785 JSON of "
                                                 "{kid, time, request (the body as sent), dice, seed}."})


def receipt_field() -> JsonBoolean:
    """The request's `receipt` flag."""
    return JsonBoolean(load_default=False, metadata={
        "description": "true: the answer carries a `receipt` signing the request, the dice and the seed (a "
                       "seed is picked when none is sent). Check it against /.well-known/jwks.json."})


def receipt_answer_field() -> fields.Nested:
    """The answer's `receipt` (only when the request asked for one)."""
    return fields.Nested(ReceiptSchema, metadata={"description": "The signed roll, when `receipt` was true."})


def receipted(view: Callable[..., dict]) -> Callable[..., dict]:
    """A calculator view that signs its answer's `dice` and `seed` when the body asks for a receipt."""
    @wraps(view)
    def signed(body: dict, *args: Any, **kwargs: Any) -> dict:
        if not body.get("receipt"):
            return view({k: v for k, v in body.items() if k != "receipt"}, *args, **kwargs)
        keys: ReceiptKeys = current_app.extensions["referee.receipt_keys"]
        if keys.signing is None:
            raise Unavailable("receipts are not configured here (REFEREE_RECEIPT_KEYS)", ("receipt",))
        sent = request.environ.get(JSON_OBJECT) or request.get_json(silent=True)
        body = {k: v for k, v in body.items() if k != "receipt"}
        if body.get("seed") is None:
            body["seed"] = secrets.randbelow(SAFE)
        answer = view(body, *args, **kwargs)
        return {**answer, "receipt": sign(keys, sent, dice_of(answer), answer.get("seed"))}
    return signed


def dice_of(answer: dict[str, Any]) -> list[Any]:
    """The dice a receipt signs: the answer's `dice`, or its one `roll` (tactical /to-hit) as a list."""
    if "dice" in answer:
        return list(answer["dice"])
    return [answer["roll"]] if answer.get("roll") else []


def canonical(value: Any) -> bytes:
    """RFC 8785 JSON of `value`. Where the standard library's sorted, compact JSON is byte for byte the same
    (no floats, integers within +-(2^53 - 1), ASCII object keys: RFC 8785 then differs from it in nothing)
    that is used, at a third of the cost; anything else goes to the rfc8785 package, which a property test
    holds this to (tests/unit/dice/test_receipts.py)."""
    if _plain(value):
        try:
            return _COMPACT(value).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the package names the problem
            pass
    return rfc8785.dumps(value)


_COMPACT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -SAFE < value < SAFE
    if kind is list:
        return all(map(_plain, value))
    if kind is dict:
        return all(type(key) is str and key.isascii() for key in value) and all(map(_plain, value.values()))
    return False


def sign(keys: ReceiptKeys, sent: Any, dice: Any, seed: Any) -> dict[str, str]:
    """The receipt for a request body `sent` and the answer's `dice` and `seed`."""
    kid = keys.kid
    when = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    try:
        payload = canonical({"kid": kid, "time": when, "request": sent, "dice": dice, "seed": seed})
    except rfc8785.CanonicalizationError as error:
        raise OutOfRange(f"a receipt signs canonical JSON (RFC 8785), which cannot carry this body: {error}; "
                         f"integers must lie within +-(2^53 - 1)", ("receipt",)) from error
    compact = jws.serialize_compact({"alg": ALG, "kid": kid}, payload, keys.signing, algorithms=[ALG])
    header, _, signature = compact.split(".")
    return {"kid": kid, "time": when, "alg": ALG, "jws": f"{header}..{signature}"}


class JwksSchema(Schema):
    """The public keys of every receipt key, the retired ones too."""

    keys = fields.List(fields.Dict(), required=True,
                       metadata={"description": "JWKs (`kty` OKP, `crv` Ed25519, `x`, `kid`, `alg`, `use`)."})


@blp.get("/.well-known/jwks.json")
@blp.doc(operationId="getReceiptKeys")
@blp.response(200, JwksSchema)
def jwks() -> dict:
    """The public keys that check receipts (old keys stay listed after a rotation)."""
    return current_app.extensions["referee.receipt_keys"].jwks()
