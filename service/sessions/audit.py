"""An encounter's committed dice and its audit log (issue 25), shared by the Redis and memory stores.

`dice` (stored beside the state, never answered whole) holds the secret server seed of the current
commitment, its SHA-256 (`commitment`), the client seed, the next nonce (a counter that only goes up: an
undo does not give its nonce back), how many steps used this commitment, and the seeds revealed so far.

The audit log is append-only: one `resolution` entry per resolved step (its nonce, commitment, client seed,
the state, declarations and supplied rolls it started from, every die in order, and the events it logged)
and one `undo` entry per undo. An undo removes events from the event log, never from the audit. Like the
event log it is bounded in bytes (`max_audit_bytes`, REFEREE_MAX_AUDIT_BYTES, 16 MiB by default): past the
cap the oldest entries give way to one `truncated` entry at its head, which says how many went and the
highest nonce among them (`truncate`; the Redis store does the same inside its commit script). Each entry
carries the state it started from, so what is kept still verifies on its own.

Nothing here draws or derives dice (service.sessions.commitments makes seeds), so `python -m service verify`
can read audits through this module without importing the service's dice derivation.
"""
from __future__ import annotations

from typing import Any

from service.sessions.errors import Conflict
from service.sessions.log import MARKER_ROOM, dump

DERIVATION = ("HMAC-SHA256(server_seed, UTF-8 of '{client_seed}:{encounter_id}:{nonce}:{n}:{j}'); x = first 8 "
              "bytes big-endian; accept x < 2**64 - 2**64 % sides; face = 1 + x % sides")


def public_dice(dice: dict[str, Any]) -> dict[str, Any]:
    """What an encounter answers about its dice: never the secret seed."""
    return {"commitment": dice["commitment"], "client_seed": dice["client_seed"], "next_nonce": dice["nonce"],
            "steps": dice["steps"]}


def with_client_seed(dice: dict[str, Any], client_seed: str) -> dict[str, Any]:
    """The client seed replaced: only while no step has used the current commitment (409 after)."""
    if dice["steps"]:
        raise Conflict(f"{dice['steps']} step(s) already rolled under commitment {dice['commitment']}: the client "
                       "seed can change only before the first step of a commitment (reveal to start a new one)",
                       ("client_seed",))
    return {**dice, "client_seed": client_seed}


def after_step(dice: dict[str, Any]) -> dict[str, Any]:
    """The dice once a step took the next nonce."""
    return {**dice, "nonce": dice["nonce"] + 1, "steps": dice["steps"] + 1}


def resolution(dice: dict[str, Any], seed: int | None, state: dict, declarations: list, rolls: list | None,
               draws: list[tuple[int, int, bool]]) -> dict[str, Any]:
    """A step's audit entry before the store numbers its events (`segment` and `events` come then)."""
    return {"type": "resolution", "nonce": dice["nonce"], "commitment": dice["commitment"],
            "client_seed": dice["client_seed"], "seed": seed, "state": state, "declarations": declarations,
            "rolls": list(rolls or []),
            "draws": [{"sides": s, "face": f, "supplied": supplied} for s, f, supplied in draws]}


def logged(entry: dict[str, Any], segment: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The audit entry as stored: with the step's number and the events it logged (`seq` numbered)."""
    return {**entry, "segment": segment, "events": events}


def undo_marker(nonce: int | None, seq: int) -> dict[str, Any]:
    """The audit entry an undo appends (the undone step's entry stays): its nonce, and its `undo` event's seq."""
    return {"type": "undo", "nonce": nonce, "seq": seq}


def truncate(entries: list[dict[str, Any]], cap: int) -> list[dict[str, Any]]:
    """`entries` with the oldest dropped, and one `truncated` entry put first, until their JSON fits in `cap`
    bytes (0: no cap); an earlier `truncated` entry is folded into the new one. The Redis commit's rule."""
    total = sum(len(dump(entry)) for entry in entries)
    if not cap or total <= cap:
        return entries
    kept, dropped, through = list(entries), 0, -1
    while kept and total + MARKER_ROOM > cap:
        entry = kept.pop(0)
        total -= len(dump(entry))
        dropped += int(entry.get("dropped", 1)) if entry["type"] == "truncated" else 1
        if isinstance(entry.get("nonce"), int):
            through = max(through, entry["nonce"])
    return [{"type": "truncated", "dropped": dropped, "nonce": through}, *kept] if dropped else kept


def document(encounter_id: str, ruleset: str, dice: dict[str, Any], entries: list[dict[str, Any]],
             reveal_current: bool = False) -> dict[str, Any]:
    """The audit as answered and as `python -m service verify` reads it: every commitment (its seed when
    revealed, else null), every resolution in order (`undone` when an undo took it back), every undo, and
    what the byte cap dropped from its head (`truncated`, null when nothing was)."""
    seeds = [*dice["revealed"], {"commitment": dice["commitment"],
                                 "server_seed": dice["server_seed"] if reveal_current else None}]
    undone = {e["nonce"] for e in entries if e["type"] == "undo"}
    resolutions = [{**e, "undone": e["nonce"] in undone} for e in entries if e["type"] == "resolution"]
    cut = next((e for e in entries if e["type"] == "truncated"), None)
    return {"encounter_id": encounter_id, "ruleset": ruleset, "derivation": DERIVATION, "seeds": seeds,
            "client_seed": dice["client_seed"], "next_nonce": dice["nonce"], "resolutions": resolutions,
            "undos": [e for e in entries if e["type"] == "undo"],
            "truncated": None if cut is None else {"dropped": cut["dropped"], "through_nonce": cut["nonce"]}}
