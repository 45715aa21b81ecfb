"""New commitments of an encounter's dice (issue 25): a fresh secret seed and its SHA-256, and the reveal
that publishes the current seed and starts the next commitment. The dice state's fields: service.sessions.audit.
"""
from __future__ import annotations

from typing import Any

from service.rules.committed import commitment, new_client_seed, new_server_seed


def fresh_dice(client_seed: str | None = None, nonce: int = 0, revealed: tuple | list = ()) -> dict[str, Any]:
    """A new commitment: a fresh secret seed, its SHA-256, the client seed (a random one when none is
    given), the next nonce and the seeds already revealed."""
    seed = new_server_seed()
    return {"server_seed": seed.hex(), "commitment": commitment(seed),
            "client_seed": new_client_seed() if client_seed is None else client_seed,
            "nonce": nonce, "steps": 0, "revealed": list(revealed)}


def rotated(dice: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Reveal the current seed and start a new commitment (same client seed, the nonce counting on)."""
    shown = {"commitment": dice["commitment"], "server_seed": dice["server_seed"]}
    return fresh_dice(dice["client_seed"], dice["nonce"], [*dice["revealed"], shown]), shown
