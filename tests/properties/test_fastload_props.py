"""The fast body loader against `Schema.load` on mutated calculator bodies: same result, or left to marshmallow."""
from __future__ import annotations

import copy

from hypothesis import given, settings, strategies as st
from marshmallow import ValidationError

from service.api.http.blueprint import same_values
from service.api.http.fastload import NotFast, compile_loader
from service.api.tactical.schemas.damage import ArmorWearRequestSchema, DamageRequestSchema
from service.api.tactical.schemas.to_hit import ToHitRequestSchema

BODIES = [
    (ToHitRequestSchema(), {"av": 60, "dv": 45, "roll": 12, "seed": 3, "defence_use": 2,
                            "task_resolution": {"method": "linear"}, "options": {"bumble": False}}),
    (ToHitRequestSchema(), {"av": 60, "ranged": {"weapon": "bow", "strength": 12, "distance": 40.5,
                                                 "target": {"aware": False, "moving_mph": 3}}}),
    (DamageRequestSchema(), {"attacker": {"strength": 14, "modified_sta": 15, "coordination": 12, "charge_mph": 4},
                             "weapon": {"grip": "one-handed", "size": 6, "weight_class": "medium", "edge": "edged"},
                             "attack": "slash",
                             "target": {"modified_sta": 14, "condition": 13, "pain_resistance": 12,
                                        "armor": [{"type": "doublemail", "dr": 18}, {"type": "padded"}]},
                             "options": {"armor_wear": False, "body_points": True}}),
    (ArmorWearRequestSchema(), {"armor": [{"type": "field-plate"}], "strikes": [{"db": 5, "attack": "thrust"}]}),
]
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=5)


def paths(value, prefix=()):
    """Every place in a body a mutation can touch."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


@st.composite
def mutated(draw):
    schema, body = draw(st.sampled_from(BODIES))
    body = copy.deepcopy(body)
    for _ in range(draw(st.integers(0, 3))):
        places = [p for p in paths(body) if p]
        if not places:
            break
        where = draw(st.sampled_from(places))
        holder = body
        for step in where[:-1]:
            holder = holder[step]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            holder[where[-1]] = draw(JSON)
        elif action == "delete" and isinstance(holder, dict):
            del holder[where[-1]]
        elif isinstance(holder, dict):
            holder[draw(st.text(max_size=6))] = draw(JSON)
    return schema, body


@settings(max_examples=400, deadline=None)
@given(mutated())
def test_fast_load_is_marshmallow_load_or_steps_aside(case):
    schema, body = case
    try:
        expected = schema.load(body)
    except ValidationError:
        expected = NotFast
    try:
        loaded = compile_loader(schema)(body)
    except NotFast:
        loaded = NotFast
    if loaded is NotFast:
        assert expected is NotFast  # every field type of these schemas is covered: nothing valid is refused
    else:
        assert same_values(loaded, expected)
