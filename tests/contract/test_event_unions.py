"""Each ruleset's events are a closed, discriminated union in the contract (issue 24, item 2): one member per
event type its resolver emits, `seq` required where events are stored, and real events of every
round-based ruleset validate against their own union."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from service.api.kit.events import COMMON_EVENT_SCHEMAS, UNSTORED, pascal
from service.api.kit.packages import declared
from service.rules import registry
from service.sessions.steps import resolve_once
from service.spec import spec_dict
from tests.unit.ars_magica.test_engine import ARCHER, BRUTE, KNIGHT
from service.api.runequest_house.steps import EXAMPLE as RUNEQUEST_HOUSE
from service.api.smoting.steps import EXAMPLE as SMOTING
from service.api.tactical.steps import SegmentResolveRequestSchema
from service.api.war_and_combat.steps import EXAMPLE as WAR_AND_COMBAT

TACTICAL = SegmentResolveRequestSchema.EXAMPLE
SERVICE = Path(__file__).resolve().parents[2] / "service"
EMITTED = re.compile(r"\b(?:emit|add)\(\"([a-z_-]+)\"|kind: ClassVar\[str\] = \"([a-z_-]+)\"")
SNAKE = re.compile(r"[a-z]+(_[a-z]+)*")
PACKAGES = sorted(r.package for r in registry.all_rulesets())


@pytest.fixture(scope="module")
def spec(app):
    return spec_dict(app)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_union_is_closed_and_discriminated(spec, package):
    schemas = spec["components"]["schemas"]
    union = schemas[pascal(package) + "Event"]
    own = declared(package, "EVENT_SCHEMAS")
    assert "anyOf" not in union and len(union["oneOf"]) == len(set(own) | set(COMMON_EVENT_SCHEMAS))
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type" and set(mapping) == set(own) | set(COMMON_EVENT_SCHEMAS)
    for name, ref in mapping.items():
        member = schemas[ref.rsplit("/", 1)[1]]
        assert member["properties"]["type"]["enum"] == [name]
        assert ("seq" in member["required"]) == (name not in UNSTORED), name


@pytest.mark.parametrize("package", PACKAGES)
def test_every_event_type_the_resolver_emits_has_a_schema_and_a_snake_case_name(package):
    emitted = {a or b for path in (SERVICE / "rules" / package).rglob("*.py")
               for a, b in EMITTED.findall(path.read_text(encoding="utf-8"))} - {"action", "event"}
    published = set(declared(package, "EVENT_SCHEMAS"))
    assert emitted and emitted <= published, emitted - published
    assert [name for name in published | set(COMMON_EVENT_SCHEMAS) if not SNAKE.fullmatch(name)] == []


FIGHTS = {"tactical": (TACTICAL["state"], TACTICAL["declarations"]),
          "ars-magica": ({"round": 0, "options": {}, "combatants": [KNIGHT, BRUTE, ARCHER]},
                         [{"combatant": "knight", "action": "attack", "target": "brute"},
                          {"combatant": "brute", "action": "attack", "target": "knight"},
                          {"combatant": "archer", "action": "missile", "target": "knight"}]),
          **{ruleset: (example["state"], example["declarations"]) for ruleset, example in
             (("runequest-house", RUNEQUEST_HOUSE), ("smoting", SMOTING), ("war-and-combat", WAR_AND_COMBAT))}}


@pytest.mark.parametrize("ruleset", [r.id for r in registry.all_rulesets()])
def test_real_events_validate_against_their_rulesets_union(spec, ruleset):
    validator = Draft202012Validator({"$ref": f"#/components/schemas/{pascal(ruleset)}Event",
                                      "components": spec["components"]})
    first, declarations = FIGHTS[ruleset]
    seen = set()
    for seed in range(6):
        state = first
        for _ in range(3):
            try:
                step = resolve_once(ruleset, state, declarations, seed)
            except Exception:  # noqa: BLE001 - a fighter fell: the fight is over
                break
            for number, event in enumerate(step.events, 1):
                event = {"seq": number, **event}  # as every answer numbers them
                errors = [e.message for e in validator.iter_errors(event)]
                assert not errors, (event, errors[:3])
                seen.add(event["type"])
            state = step.state
    assert len(seen) >= 3, seen
