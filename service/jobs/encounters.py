"""Simulate a stored encounter: fetch its state with the caller's token and use its combatants as is.

The encounter repository is `app.extensions["referee.encounters"]` (service.sessions); its
`get(encounter_id, token)` answers the stored `Encounter` or raises EncounterNotFound (404).
"""
from __future__ import annotations

from typing import Any

from flask import current_app, g

from service.rules.errors import NotFound
from service.sessions.errors import EncounterNotFound
from service.sim.simulator import simulator_for


def matchup_of(encounter_id: str, authorization: str) -> tuple[str, dict[str, Any]]:
    """The ruleset and matchup of encounter `encounter_id`: its combatants (each with its side), and its
    options where the ruleset's simulation reads the encounter's options (tactical's engine has its own)."""
    repository = current_app.extensions.get("referee.encounters")
    if repository is None:
        raise NotFound("this deployment has no encounter store", ("encounter_id",))
    repository = repository.for_tenant(g.get("tenant")) if hasattr(repository, "for_tenant") else repository
    token = authorization.removeprefix("Bearer ").strip()
    try:
        encounter = repository.get(encounter_id, token)
    except EncounterNotFound as error:
        raise NotFound(error.message, ("encounter_id",)) from error
    matchup: dict[str, Any] = {"combatants": list(encounter.state["combatants"])}
    if getattr(simulator_for(encounter.ruleset), "takes_encounter_options", False):
        matchup["options"] = dict(encounter.state.get("options") or {})
    return encounter.ruleset, matchup
