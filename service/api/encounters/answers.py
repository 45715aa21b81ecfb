"""How /v1/encounters answers: an encounter's view, its links and its ETag."""
from __future__ import annotations

from typing import Any

from service.sessions.audit import public_dice
from service.sessions.records import Encounter, Segment


def etag(encounter: Encounter) -> dict[str, str]:
    """The ETag header naming the encounter's version."""
    return {"ETag": f'"{encounter.version}"'}


def links(encounter_id: str, base: str = "/v1/encounters", steps: str = "segments") -> dict[str, str]:
    """The URLs of an encounter and its sub-resources under `base` (its steps under `steps`)."""
    base = f"{base}/{encounter_id}"
    return {"self": base, **{name: f"{base}/{name}" for name in
                             ("combatants", "declarations", steps, "events", "undo", "stream", "audit",
                              "dice")}}


def encounter_view(encounter: Encounter, base: str = "/v1/encounters", steps: str = "segments") -> dict[str, Any]:
    """An encounter as the API answers it (its links under `base`)."""
    return {"id": encounter.id, "ruleset": encounter.ruleset, "version": encounter.version,
            "segment": encounter.segment, "state": encounter.state, "declarations": encounter.declarations,
            "dice": public_dice(encounter.dice), "links": links(encounter.id, base, steps)}


def step_dice(segment: Segment) -> dict[str, Any]:
    """Which committed dice a step rolled (its audit entry without the state it started from)."""
    entry = segment.audit or {}
    return {"nonce": entry.get("nonce"), "commitment": entry.get("commitment"),
            "client_seed": entry.get("client_seed"), "draws": entry.get("draws", [])}
