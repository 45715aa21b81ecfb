"""Encounter payloads (combatants, declarations) go through each schema's fast loader (issue 27 item 2): it
accepts exactly what the ruleset's marshmallow schema accepts, with the same values, and leaves every
refusal to marshmallow. Checked here on every ruleset's benchmark crowd and on broken copies of it (wrong
types, unknown keys, nulls, lists for objects) outside the app, where no drift check runs."""
from __future__ import annotations

import copy

import pytest
from marshmallow import ValidationError

from service.api.http.blueprint import same_values
from service.api.kit.payloads import _fast, _instance, _schemas, load_payload
from service.rules import registry
from tests.perf.segment_bench import RULESETS, crowd

BREAKAGE = [1, -1, 10**9, 1.5, "x", "", True, None, [], {}, [1], {"unknown": 1}]


def variants(item: dict) -> list[dict]:
    """`item` and copies with one field (at any depth) replaced by a wrong value, or a key added."""
    out = [item, {**item, "unknown_field": 1}]
    def walk(node, rebuild):
        for key, value in (node.items() if isinstance(node, dict) else enumerate(node)):
            for bad in BREAKAGE:
                broken = copy.deepcopy(item)
                rebuild(broken)[key] = bad
                out.append(broken)
            if isinstance(value, (dict, list)):
                walk(value, lambda root, k=key: rebuild(root)[k])
    walk(item, lambda root: root)
    return out


def outcome(load, data):
    try:
        return "ok", load(data)
    except ValidationError as error:
        return "refused", error.messages


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fast_payload_loads_match_marshmallow(ruleset):
    people, declarations = crowd(ruleset, 2)
    schemas = _schemas(registry.get(ruleset).package)
    checked = 0
    for kind, sample in (("combatant", people[0]), ("declaration", declarations[0])):
        schema = _instance(schemas[kind])
        assert _fast(schema) is not None
        for data in variants(sample):
            fast = outcome(lambda d, k=kind: load_payload(ruleset, k, [d], ()), data)
            slow = outcome(lambda d, s=schema: {"0": s.load([d], many=True)}, data)
            assert fast[0] == slow[0], (kind, data, fast, slow)
            if fast[0] == "ok":
                assert same_values(fast[1], slow[1]["0"]), (kind, data)
            checked += 1
    assert checked > 50
