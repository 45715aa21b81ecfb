"""The OpenAPI document as served, rendered to the committed `openapi.yaml`."""
from __future__ import annotations

import yaml
from flask import Flask


def spec_dict(app: Flask) -> dict:
    """The spec the app serves at /openapi.json."""
    return app.extensions["referee.api"].spec.to_dict()


def spec_yaml(app: Flask) -> str:
    """The spec as stable YAML (keys in document order) for the committed contract file."""
    return yaml.safe_dump(spec_dict(app), sort_keys=False, allow_unicode=True, width=100)
