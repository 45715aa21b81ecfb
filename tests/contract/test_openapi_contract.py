"""The committed openapi.yaml is the contract: it must equal what the app serves."""
from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.spec import spec_dict, spec_yaml

ROOT = Path(__file__).resolve().parents[2]


def test_committed_spec_equals_served_spec(app):
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == spec_yaml(app), "openapi.yaml drifted: run `make spec` and review the diff"


def test_served_json_equals_spec_object(client, app):
    assert client.get("/openapi.json").get_json() == spec_dict(app)


def test_spec_is_valid_openapi_31():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_every_operation_documents_problem_json_errors(app):
    for path, operations in spec_dict(app)["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            assert "default" in operation["responses"], f"{method.upper()} {path} lacks an error response"
