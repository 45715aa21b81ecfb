"""Invariants of declared body checks, side-swipes and tackles over random encounters (hypothesis)."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules.tactical.contest import winner
from service.rules.tactical.segment import resolve_segment
from service.rules.tactical.task_resolution import chance as trt_chance
from tests.properties.test_segment_props import encounters

OUTCOMES = {"a": {"defender-bounced", "borne-down"}, "b": {"attacker-bounced", "dodged"},
            "tie": {"both-stop"}, "both-fail": {"both-stop"}}


@st.composite
def body_checks(draw):
    state, declarations = draw(encounters())
    kinds = st.sampled_from(["body-check", "side-swipe", "tackle"])
    for declaration in declarations:
        if draw(st.booleans()):
            declaration.pop("to")
            declaration.update(action="body-check", body_check={"kind": draw(kinds),
                                                                 "str_mod": draw(st.integers(-2, 3)),
                                                                 "shield_size": draw(st.integers(0, 4))})
    return state, declarations


@given(body_checks(), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_body_checks_follow_the_contest(encounter, seed):
    state, declarations = encounter
    result = resolve_segment(state, declarations, random.Random(seed))
    assert json.dumps(result.events) == json.dumps(resolve_segment(state, declarations,
                                                                   random.Random(seed)).events)
    for event in (e for e in result.events if e["type"] == "body_check"):
        assert event["attacker_chance"] == trt_chance(event["av"], event["dv"])
        assert event["defender_chance"] == trt_chance(event["dv"], event["av"])
        a, d = (roll["total"] for roll in event["dice"])
        won = winner(event["attacker_chance"] - a, event["defender_chance"] - d)
        assert event["outcome"] in OUTCOMES[won]
        bounced = event["outcome"] in ("defender-bounced", "attacker-bounced")
        assert (event["bounced"] is not None) == bounced
        assert event["bounce_feet"] >= 0
