"""The dice half of verifying an audit: every revealed seed against its commitment, then every derived die
recomputed from the published derivation (README, "Dice nobody has to take on trust").

Written from the README's description alone: it does not import the service's dice code (a test checks),
so a mistake there cannot hide here.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

WORD = 2**64


def derive(seed: bytes, client_seed: str, encounter_id: str, nonce: int, n: int, sides: int) -> int:
    """The n-th derived d`sides` of resolution `nonce` (README: HMAC-SHA256, 8 bytes, rejection)."""
    j = 0
    while True:
        message = f"{client_seed}:{encounter_id}:{nonce}:{n}:{j}".encode()
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest()[:8], "big")
        if x < WORD - WORD % sides:
            return 1 + x % sides
        j += 1


def revealed_seeds(doc: dict[str, Any], problems: list[str]) -> dict[str, bytes | None]:
    """commitment -> seed bytes (None while unrevealed); a seed that does not hash to its commitment is a
    problem and its dice are not trusted."""
    seeds: dict[str, bytes | None] = {}
    for entry in doc["seeds"]:
        shown = entry.get("server_seed")
        seed = bytes.fromhex(shown) if shown is not None else None
        if seed is not None and hashlib.sha256(seed).hexdigest() != entry["commitment"]:
            problems.append(f"wrong revealed seed: {shown} does not hash to commitment {entry['commitment']}")
            seed = None
        seeds[entry["commitment"]] = seed
    return seeds


def check_order(doc: dict[str, Any], problems: list[str]) -> None:
    """Nonces only go up (never repeated, an undo gives none back); one client seed per commitment."""
    last, client = -1, {}  # type: tuple[int, dict[str, str]]
    for r in doc["resolutions"]:
        if r["nonce"] <= last:
            problems.append(f"nonce {r['nonce']} comes after nonce {last}: nonces must only go up")
        last = max(last, r["nonce"])
        first = client.setdefault(r["commitment"], r["client_seed"])
        if first != r["client_seed"]:
            problems.append(f"nonce {r['nonce']}: client seed {r['client_seed']!r} differs from {first!r}, used "
                            f"before under the same commitment")


def check_draws(doc: dict[str, Any], r: dict[str, Any], seed: bytes, problems: list[str]) -> None:
    """Every derived die of resolution `r` recomputed; a mismatch names the nonce or client seed the dice
    were really drawn with when another one explains them, else each wrong face."""
    derived = [d for d in r["draws"] if not d["supplied"]]
    def faces(client_seed: str, nonce: int) -> list[int]:
        return [derive(seed, client_seed, doc["encounter_id"], nonce, n, d["sides"]) for n, d in enumerate(derived)]
    if faces(r["client_seed"], r["nonce"]) == [d["face"] for d in derived]:
        return
    nonces = sorted({x["nonce"] for x in doc["resolutions"]} | {doc.get("next_nonce", 0)})
    for nonce in nonces:
        if nonce != r["nonce"] and derived and faces(r["client_seed"], nonce) == [d["face"] for d in derived]:
            problems.append(f"nonce {r['nonce']}: its dice were drawn with nonce {nonce}: the nonce was changed")
            return
    for client_seed in {x["client_seed"] for x in doc["resolutions"]} | {doc.get("client_seed")} - {None}:
        if client_seed != r["client_seed"] and derived and faces(client_seed, r["nonce"]) == [d["face"] for d in derived]:
            problems.append(f"nonce {r['nonce']}: its dice were drawn with client seed {client_seed!r}, not "
                            f"{r['client_seed']!r}: the client seed was changed")
            return
    for n, (d, face) in enumerate(zip(derived, faces(r["client_seed"], r["nonce"]))):
        if face != d["face"]:
            problems.append(f"nonce {r['nonce']}: derived die {n} (a d{d['sides']}) shows {d['face']} in the audit, "
                            f"the seed gives {face}: a tampered face")
