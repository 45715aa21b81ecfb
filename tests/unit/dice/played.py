"""Encounters of every ruleset played through the HTTP API for the committed-dice tests: built from each
ruleset's stateless resolver example (its state and declarations), three steps with an undo and a redo."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

RESOLVERS = {"tactical": "/v1/tactical/segments/resolve", "ars-magica": "/v1/ars-magica/rounds/resolve",
             "runequest-house": "/v1/runequest-house/rounds/resolve", "smoting": "/v1/smoting/rounds/resolve",
             "war-and-combat": "/v1/war-and-combat/rounds/resolve"}


@cache
def example(ruleset: str) -> dict[str, Any]:
    """The ruleset's resolver example from the committed spec: {state, declarations, ...}."""
    spec = yaml.safe_load((Path(__file__).parents[3] / "openapi.yaml").read_text())
    return spec["paths"][RESOLVERS[ruleset]]["post"]["requestBody"]["content"]["application/json"]["example"]


def create(client: Any, ruleset: str, **extra: Any) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A new encounter of the example's combatants: (its URL, the auth header, the created answer)."""
    state = dict(example(ruleset)["state"])
    combatants, options = state.pop("combatants"), state.pop("options", {})
    for key in ("round", "segment", "ruleset"):
        state.pop(key, None)
    created = client.post("/v1/encounters", json={"ruleset": ruleset, "options": options,
                                                  "combatants": combatants, "state": state, **extra})
    assert created.status_code == 201, created.get_json()
    return f"/v1/encounters/{created.json['id']}", {"Authorization": f"Bearer {created.json['token']}"}, created.json


def step(client: Any, url: str, auth: dict[str, str], ruleset: str, **extra: Any) -> dict[str, Any]:
    """Resolve the next step with the example's declarations (none once they no longer apply)."""
    answer = client.post(f"{url}/segments", json={"declarations": example(ruleset).get("declarations") or [],
                                                  **extra}, headers=auth)
    if answer.status_code == 422:
        answer = client.post(f"{url}/segments", json={"declarations": [], **extra}, headers=auth)
    assert answer.status_code == 201, answer.get_json()
    return answer.json


def played(client: Any, ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Step, step, undo, step (the redo), step, then end: the answer of DELETE (the final audit) and the
    event log just before the end."""
    url, auth, _ = create(client, ruleset, dice={"client_seed": f"{ruleset} at the table"})
    step(client, url, auth, ruleset)
    step(client, url, auth, ruleset)
    assert client.post(f"{url}/undo", headers=auth).status_code == 200
    step(client, url, auth, ruleset)
    step(client, url, auth, ruleset)
    log = client.get(f"{url}/events?limit=500", headers=auth).json["events"]
    ended = client.delete(url, headers=auth)
    assert ended.status_code == 200
    return ended.json, log
