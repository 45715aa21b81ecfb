"""How /v1/encounters answers: an encounter's view, its links and its ETag."""
from __future__ import annotations

from typing import Any

from service.sessions.records import Encounter


def etag(encounter: Encounter) -> dict[str, str]:
    """The ETag header naming the encounter's version."""
    return {"ETag": f'"{encounter.version}"'}


def links(encounter_id: str) -> dict[str, str]:
    """The URLs of an encounter and its sub-resources."""
    base = f"/v1/encounters/{encounter_id}"
    return {"self": base, **{name: f"{base}/{name}" for name in
                             ("combatants", "declarations", "segments", "events", "undo", "stream")}}


def encounter_view(encounter: Encounter) -> dict[str, Any]:
    """An encounter as the API answers it."""
    return {"id": encounter.id, "ruleset": encounter.ruleset, "version": encounter.version,
            "segment": encounter.segment, "state": encounter.state, "declarations": encounter.declarations,
            "links": links(encounter.id)}
