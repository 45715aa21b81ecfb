"""The OpenAPI document as served, rendered to the committed `openapi.yaml`."""
from __future__ import annotations

import yaml
from flask import Flask


def spec_dict(app: Flask) -> dict:
    """The spec the app serves at /openapi.json."""
    return app.extensions["referee.api"].spec.to_dict()


class _NoAliases(yaml.SafeDumper):
    """Writes a value used twice in full each time: YAML anchors (`&id001`) are no JSON Pointers, and
    OpenAPI tools (Redocly) cannot resolve them."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def spec_yaml(app: Flask) -> str:
    """The spec as stable YAML (keys in document order) for the committed contract file."""
    return yaml.dump(spec_dict(app), Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)
