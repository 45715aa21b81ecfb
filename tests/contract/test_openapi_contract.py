"""The committed openapi.yaml is the contract: it must equal what the app serves; so must each ruleset's
(openapi/<ruleset>.yaml, served at /v1/<ruleset>/openapi.json)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate

from service.rules import registry
from service.api.http.ruleset_spec import refs, ruleset_spec
from service.spec import dump_yaml, spec_dict, spec_yaml

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


@pytest.fixture(scope="module")
def whole(app):
    return spec_dict(app)


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_each_rulesets_committed_spec_equals_the_served_one_and_refers_only_within_itself(app, client, whole,
                                                                                          ruleset_id):
    own = ruleset_spec(whole, ruleset_id)
    committed = (ROOT / "openapi" / f"{ruleset_id}.yaml").read_text(encoding="utf-8")
    assert committed == dump_yaml(own), f"openapi/{ruleset_id}.yaml drifted: run `make spec`"
    served = client.get(f"/v1/{ruleset_id}/openapi.json")
    assert served.status_code == 200 and served.get_json() == own
    dangling = {f"{kind}/{name}" for kind, name in refs(own) if name not in own["components"].get(kind, {})}
    assert dangling == set()  # Redocly lints each file in full (test_redocly.py)


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_rulesets_spec_holds_its_operations_and_the_shared_ones_only(whole, ruleset_id):
    own = ruleset_spec(whole, ruleset_id)
    tags = {op["tags"][0] for item in own["paths"].values() for op in item.values() if "tags" in op}
    assert tags == {ruleset_id, "rulesets", "service"}
    mine = {path for path, item in whole["paths"].items() if any(op.get("tags") == [ruleset_id]
                                                                 for op in item.values() if isinstance(op, dict))}
    assert mine and mine <= set(own["paths"]) and f"/v1/{ruleset_id}/encounters" in own["paths"]
    assert f"/v1/{ruleset_id}/simulations" in own["paths"] and "/v1/simulations" not in own["paths"]
    assert not any(op.get("deprecated") for item in own["paths"].values() for op in item.values()
                   if isinstance(op, dict))
    assert len(own["components"]["schemas"]) < len(whole["components"]["schemas"]) / 2


def test_an_unknown_rulesets_spec_is_not_found(client):
    assert client.get("/v1/no-such-ruleset/openapi.json").status_code == 404
