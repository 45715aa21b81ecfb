"""One naming scheme across the contract (issue 24, item 5), so generated clients read alike for every
ruleset (the rule is written down in the README, "Integrating"):

- an operation under `/v1/{ruleset}/` is named `{ruleset}{Operation}` in camelCase (`tacticalToHit`,
  `warAndCombatToHit`, `smotingResolveRound`); every other operation is a verb and a noun with no ruleset
  in front (`listRulesets`, `createEncounter`, `createSimulation`);
- each operation carries exactly one tag: its ruleset's id, or one of the shared tags (`service`,
  `rulesets`, `encounters`, `simulations`), and every listed tag is used;
- a list of events is called `events` wherever an answer carries one (steps, log pages, audits);
- the API key is optional document-wide (`[{apiKeyAuth: []}, {}]`), so only operations that really need a
  credential (an encounter's bearer token) list one of their own.
"""
from __future__ import annotations

import json
import re

import pytest

from service.api.http.contract import OPTIONAL_KEY, SHARED_TAGS
from service.rules import registry
from service.spec import spec_dict

METHODS = {"get", "put", "post", "delete", "patch"}
EVENT_REF = re.compile(r'/schemas/\w*Event"')


@pytest.fixture(scope="module")
def spec(app):
    return spec_dict(app)


def camel(ruleset_id: str) -> str:
    first, *rest = ruleset_id.split("-")
    return first + "".join(word.title() for word in rest)


def pascal(ruleset_id: str) -> str:
    return "".join(word.title() for word in ruleset_id.split("-"))


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield path, method, op


def ruleset_of(path: str) -> str | None:
    parts = path.split("/")
    return parts[2] if path.startswith("/v1/") and len(parts) > 2 and parts[2] in registry.ids() else None


def test_ruleset_operations_are_prefixed_with_their_ruleset_and_shared_ones_with_none(spec):
    prefixes = {camel(ruleset_id) for ruleset_id in registry.ids()}
    for path, method, op in operations(spec):
        name, ruleset = op["operationId"], ruleset_of(path)
        if ruleset:
            assert re.fullmatch(camel(ruleset) + r"[A-Z][A-Za-z0-9]*", name), f"{method} {path}: {name}"
        else:
            assert not any(name.startswith(prefix) for prefix in prefixes), f"{method} {path}: {name}"
            assert not any(pascal(r) in name for r in registry.ids()), f"{method} {path}: {name}"


def test_one_tag_per_operation_a_ruleset_or_a_shared_one(spec):
    listed = [tag["name"] for tag in spec["tags"]]
    assert listed == [*SHARED_TAGS, *registry.ids()]
    used = set()
    for path, method, op in operations(spec):
        expected = ruleset_of(path) or (path.split("/")[2] if path.startswith("/v1/") else "service")
        assert op["tags"] == [expected], f"{method} {path}: {op['tags']}"
        used.add(expected)
    assert used == set(listed)
    assert all(tag.get("description") for tag in spec["tags"])


def test_a_list_of_events_is_called_events_everywhere(spec):
    for name, schema in spec["components"]["schemas"].items():
        for prop, value in schema.get("properties", {}).items():
            if value.get("type") == "array" and EVENT_REF.search(json.dumps(value.get("items", {}))):
                assert prop == "events", f"{name}.{prop} lists events"


def test_the_api_key_is_optional_and_only_real_credentials_are_listed(spec):
    assert spec["security"] == OPTIONAL_KEY
    for path, method, op in operations(spec):
        security = op.get("security")
        if not path.startswith("/v1/"):
            assert security == [], f"{method} {path} is public"
        elif security is not None:
            assert {} not in security and all("bearerAuth" in r for r in security), f"{method} {path}"
            assert {"bearerAuth": []} in security, f"{method} {path}: the key stays optional"
