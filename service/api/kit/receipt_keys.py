"""The Ed25519 keys that sign receipts (issue 25, item 6), as a JWK Set of private keys: the first signs,
every one stays listed at /.well-known/jwks.json (public parts only), so a receipt signed before a rotation
still verifies after it. A key's id (`kid`) is its RFC 7638 thumbprint.

Production reads the set from `REFEREE_RECEIPT_KEYS` (the JSON itself, a secret) or from the file
`REFEREE_RECEIPT_KEYS_FILE`; `make run` makes `var/receipt-keys.json` with `python -m service receipt-key`.
A testing app without either signs with a key of its own made at start; any other app without keys answers
503 to a receipt request (and lists no keys).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from joserfc.jwk import OKPKey

ALG = "Ed25519"  # RFC 9864's fully specified name for EdDSA over Ed25519


@dataclass(frozen=True)
class ReceiptKeys:
    """The signing key first, then the retired ones (newest first); empty when none are configured."""

    keys: tuple[OKPKey, ...] = ()

    @property
    def signing(self) -> OKPKey | None:
        return self.keys[0] if self.keys else None

    @cached_property
    def kid(self) -> str:
        """The signing key's id (its thumbprint, computed once)."""
        return self.keys[0].thumbprint() if self.keys else ""

    def jwks(self) -> dict[str, Any]:
        """The public JWK Set: each key with its `kid`, `alg` and `use`."""
        return {"keys": [{**key.as_dict(private=False), "kid": key.thumbprint(), "alg": ALG, "use": "sig"}
                         for key in self.keys]}


def new_key() -> OKPKey:
    """A fresh Ed25519 private key."""
    return OKPKey.generate_key("Ed25519")


def read_keys(text: str) -> ReceiptKeys:
    """A JWK Set of Ed25519 private keys (JSON text); ValueError names what is wrong."""
    found = json.loads(text).get("keys") or []
    keys = tuple(OKPKey.import_key(entry) for entry in found)
    if any(key.as_dict().get("crv") != "Ed25519" or not key.is_private for key in keys):
        raise ValueError("receipt keys must be Ed25519 private keys (JWK with `d`)")
    return ReceiptKeys(keys)


def write_keys(keys: ReceiptKeys) -> str:
    """The JWK Set of private keys as JSON (what `read_keys` reads)."""
    return json.dumps({"keys": [key.as_dict(private=True) for key in keys.keys]}, indent=1)


def configured_keys(config: Any) -> ReceiptKeys:
    """The keys of `config`: its `receipt_keys` JSON, else its `receipt_keys_file`, else (testing only) a
    key made now."""
    if config.receipt_keys:
        return read_keys(config.receipt_keys)
    path = Path(config.receipt_keys_file)
    if config.receipt_keys_file and path.is_file():
        return read_keys(path.read_text(encoding="utf-8"))
    return ReceiptKeys((new_key(),)) if config.testing else ReceiptKeys()


def rotate_file(path: str, if_missing: bool = False) -> str:
    """`python -m service receipt-key FILE`: a new signing key put first in FILE (made, mode 600, if it does
    not exist); the keys already there stay, retired but listed. With `if_missing`, an existing FILE is left
    as it is. Returns the new key's id (or the current one's)."""
    file = Path(path)
    old = read_keys(file.read_text(encoding="utf-8")) if file.is_file() else ReceiptKeys()
    if if_missing and old.signing is not None:
        return old.signing.thumbprint()
    keys = ReceiptKeys((new_key(), *old.keys))
    file.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(file.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(write_keys(keys))
    os.replace(file.with_suffix(".tmp"), file)
    return keys.signing.thumbprint()
