"""Committed encounter dice (issue 25): dice derived from a secret server seed whose SHA-256 is published
before any roll, so that revealing the seed later lets anyone recompute every die.

The derivation (the README's "Dice nobody has to take on trust" publishes it; outside verifiers depend on
it, so it never changes): the n-th die a resolution draws (n = 0, 1, ... in roll order; faces the caller
supplied are not derived and do not count) with s faces tries j = 0, 1, 2, ...:
    h = HMAC-SHA256(key = server seed bytes, msg = UTF-8 of "{client_seed}:{encounter_id}:{nonce}:{n}:{j}")
    x = the first 8 bytes of h, big-endian;   accept when x < 2**64 - (2**64 % s);   face = 1 + x % s.
Every random choice a resolution makes (a random target, the coin of a tie, a shuffle's swaps) is such a
die: a choice among k options is a k-sided die. The generators here draw nothing else: `random()` and raw
bits refuse, so a resolver that asked for them would fail loudly instead of rolling unrecorded dice.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any

SEED_BYTES = 32
_WORD = 1 << 64
Draw = tuple[int, int, bool]  # (sides, face 1..sides, supplied)


def new_server_seed() -> bytes:
    """A fresh 32-byte secret server seed (issue 25, item 1)."""
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """The client seed shown when the caller gave none (issue 25, item 1)."""
    return secrets.token_hex(16)


def commitment(server_seed: bytes) -> str:
    """What is published before any roll: the hex SHA-256 of the server seed (issue 25, item 1)."""
    return hashlib.sha256(server_seed).hexdigest()


def derived_face(server_seed: bytes, client_seed: str, encounter_id: str, nonce: int, n: int, sides: int) -> int:
    """The face of the n-th derived die of resolution `nonce`, a d`sides` (issue 25, item 2)."""
    return _face(keyed(server_seed), f"{client_seed}:{encounter_id}:{nonce}:", n, sides)


def keyed(server_seed: bytes) -> Any:
    """HMAC-SHA256 keyed with the server seed, to be copied for each message (cheaper than keying again)."""
    return hmac.new(server_seed, digestmod=hashlib.sha256)


def word(key: Any, prefix: str, n: int, j: int) -> int:
    """x of the derivation: the first 8 bytes, big-endian, of HMAC(key, prefix + "{n}:{j}")."""
    mac = key.copy()
    mac.update(f"{prefix}{n}:{j}".encode())
    return int.from_bytes(mac.digest()[:8], "big")


def _face(key: Any, prefix: str, n: int, sides: int) -> int:
    limit = _WORD - _WORD % sides
    j = 0
    while True:
        x = word(key, prefix, n, j)
        if x < limit:
            return 1 + x % sides
        j += 1


class DiceOnly(random.Random):
    """A generator that only rolls dice (`_randbelow`, behind randint, randrange, choice and shuffle):
    anything else (`random()`, raw bits) refuses, so no randomness escapes the audit."""

    def random(self) -> float:
        """Refused: a committed resolution draws only dice."""
        raise RuntimeError("a committed resolution draws only dice (randint, randrange, choice, shuffle)")

    def getrandbits(self, k: int) -> int:
        """Refused, like `random()`."""
        raise RuntimeError("a committed resolution draws only dice (randint, randrange, choice, shuffle)")

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        raise NotImplementedError

    def faces(self, count: int, sides: int) -> list[int]:
        """`count` faces of a d`sides`, each one recorded die: what `randint(1, sides)` gives one by one."""
        below = self._randbelow
        return [1 + below(sides) for _ in range(count)]


class CommittedRandom(DiceOnly):
    """The dice of one committed resolution: each `_randbelow(s)` is the next derived d`s` (face - 1),
    appended to `draws` as (s, face, False)."""

    def __init__(self, server_seed: bytes, client_seed: str, encounter_id: str, nonce: int, draws: list[Draw]):
        super().__init__(0)
        self._key, self._prefix = keyed(server_seed), f"{client_seed}:{encounter_id}:{nonce}:"
        self.n, self.draws = 0, draws

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        mac = self._key.copy()  # `word` and `_face` inlined for j = 0 (all but ~n/2**64 of the dice)
        mac.update(f"{self._prefix}{self.n}:0".encode())
        x = int.from_bytes(mac.digest()[:8], "big")
        face = 1 + x % n if x < _WORD - _WORD % n else _face(self._key, self._prefix, self.n, n)
        self.n += 1
        self.draws.append((n, face, False))
        return face - 1


class SeededRecording(DiceOnly):
    """A caller-seeded resolution's dice: the very faces `random.Random(seed)` gives, each appended to
    `draws` (a seeded step is audited, but its dice are the caller's choice, not committed)."""

    def __init__(self, seed: int, draws: list[Draw]):
        super().__init__(seed)
        self.draws = draws

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        k = self._randbelow_with_getrandbits(n)
        self.draws.append((n, k + 1, False))
        return k

    def getrandbits(self, k: int) -> int:
        """The Mersenne Twister's bits (what `_randbelow_with_getrandbits` is made of)."""
        return random.Random.getrandbits(self, k)
