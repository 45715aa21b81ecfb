"""The HTTP side of Referee: what the service offers, mounted under /v1.

Layers, highest first (a module imports from its own layer or the ones below it, never above):
    service.api
    service.api.rulesets, service.api.encounters, service.api.simulations, service.api.ars_magica,
        service.api.runequest_house, service.api.smoting, service.api.tactical, service.api.war_and_combat
    service.api.kit
    service.api.http

- resources: `rulesets` (what each ruleset is, its tables), `encounters` (kept between requests),
  `simulations` (background jobs), and one package per ruleset (its calculators and stateless step);
- `kit`: what every resource builds on: field helpers, the calculator kit, event and payload schemas;
- `http`: the plumbing under every request (auth and limits, CORS, body checks, errors, logging, metrics,
  JSON output, the Blueprint, spec and docs serving).

Every ruleset's package `service.api.<ruleset>` has the same layout (tests/test_architecture.py checks it):
    __init__.py       `MODULES`: the modules whose blueprints it mounts, in order
    calculators/      one module per operation family: its thin views, registered through the kit
                      (`kit.calculator`); `calculators/__init__.py` holds what several families share
    schemas/          one module per family, named as in calculators/: its request and answer schemas,
                      each request with its `EXAMPLE`
    fields.py         the field helpers and nested blocks its schemas share
    state.py          the encounter format (`SCHEMAS`: combatant, declaration, options, state, sim_options)
    events.py         `EVENT_SCHEMAS`: event type -> schema, each on `kit.events.RulesetEventSchema`
    steps.py          the stateless step (a round or Combat Segment sent whole)
    encounters.py     its encounters, typed (`/v1/<ruleset>/encounters`): its request examples and one call
                      to `encounters.typed.encounter_blueprint`
    simulations.py    its simulations, typed (`/v1/<ruleset>/simulations`): its request example, the schema
                      of its result's `details` (tactical: its whole result) and one call to
                      `simulations.typed.simulation_blueprint`
"""
from __future__ import annotations

import importlib

from flask_smorest import Api

from service.rules import registry


def register_blueprints(api: Api) -> None:
    """Mount every blueprint under /v1 (imported here so nothing is built at import time)."""
    from service.api.encounters.views import blp as encounters
    from service.api.http import headers
    from service.api.http.contract import list_tags
    from service.api.http.observability import blp as observability
    from service.api.kit.packages import ruleset_blueprints
    from service.api.kit.receipts import blp as receipts
    from service.api.rulesets import blp as rulesets
    from service.api.simulations.views import blp as simulations

    importlib.import_module(f"{__name__}.encounters.dice")  # its operations join the encounters blueprint, after them
    headers.register(api.spec)
    api.spec.components.security_scheme("bearerAuth", {
        "type": "http", "scheme": "bearer",
        "description": "The encounter's token, from the answer that created it (`token`)."})
    api.spec.components.security_scheme("apiKeyAuth", {
        "type": "apiKey", "in": "header", "name": "X-API-Key",
        "description": "Needed on every /v1 call when the deployment requires API keys (off by default)."})
    api.register_blueprint(observability)
    api.register_blueprint(receipts)
    api.register_blueprint(rulesets, url_prefix="/v1/rulesets")
    api.register_blueprint(encounters, url_prefix="/v1/encounters")
    api.register_blueprint(simulations, url_prefix="/v1/simulations")
    for ruleset in registry.all_rulesets():
        for blp in ruleset_blueprints(ruleset.package):
            api.register_blueprint(blp, url_prefix=f"/v1/{ruleset.id}")
    list_tags(api.spec, {ruleset.id: f"{ruleset.name}: {ruleset.summary}" for ruleset in registry.all_rulesets()})
