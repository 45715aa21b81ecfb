"""The OpenAPI document as served, rendered to the committed `openapi.yaml`."""
from __future__ import annotations

from pathlib import Path

import yaml
from flask import Flask

from service.api.http.ruleset_spec import ruleset_spec
from service.rules import registry


def spec_dict(app: Flask) -> dict:
    """The spec the app serves at /openapi.json."""
    return app.extensions["referee.api"].spec.to_dict()


class _NoAliases(yaml.SafeDumper):
    """Writes a value used twice in full each time: YAML anchors (`&id001`) are no JSON Pointers, and
    OpenAPI tools (Redocly) cannot resolve them."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def spec_yaml(app: Flask, ruleset_id: str | None = None) -> str:
    """The spec as stable YAML (keys in document order) for the committed contract file: the whole one, or
    one ruleset's (`openapi/<ruleset>.yaml`, as served at /v1/<ruleset>/openapi.json)."""
    return dump_yaml(spec_dict(app) if ruleset_id is None else ruleset_spec_dict(app, ruleset_id))


def dump_yaml(document: dict) -> str:
    """A spec document as the committed files hold it (keys in document order, no YAML aliases)."""
    return yaml.dump(document, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)


def ruleset_spec_dict(app: Flask, ruleset_id: str) -> dict:
    """One ruleset's spec: its operations and the shared ones, and the components they reach."""
    return ruleset_spec(spec_dict(app), ruleset_id)


def write_ruleset_specs(app: Flask, folder: Path) -> list[Path]:
    """`<folder>/<ruleset>.yaml` for every registered ruleset (`make spec`)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for ruleset_id in registry.ids():
        path = folder / f"{ruleset_id}.yaml"
        path.write_text(spec_yaml(app, ruleset_id), encoding="utf-8")
        written.append(path)
    return written
