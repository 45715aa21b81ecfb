"""RULINGS 24: moving while Mortally wounded adds one wound per FULL stretch of (STR mod + CND mod) feet,
floor(feet / stretch), never rounded up. The ruling's example: STR mod +2, CND mod +3 -> a wound every 5 ft;
12 ft -> 2, 13 ft -> 2, 3 ft -> 0. (The segment resolver does not play F45; the calculator is its one home.)"""
from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.tactical import aftermath

EXAMPLES = [(12, 2), (13, 2), (3, 0), (5, 1), (Fraction(99, 10), 1)]


@pytest.mark.parametrize(("feet", "added"), EXAMPLES)
def test_full_stretches_only(feet, added):
    found = aftermath.mortal_move(Fraction(feet), 2, 3, 7)
    assert (found.feet_per_wound, found.added, found.total) == (5, added, 7 + added)


@pytest.mark.parametrize(("feet", "added"), EXAMPLES)
def test_the_calculator_answers_the_same(client, feet, added):
    body = client.post("/v1/tactical/mortal-wound", json={"wounds": 7, "feet": float(feet), "str_mod": 2,
                                                          "cnd_mod": 3, "cnd": 14}).get_json()
    assert (body["feet_per_wound"], body["added_wounds"], body["total_wounds"]) == (5, added, 7 + added)
    assert any("RULINGS 24" in step["rule"] for step in body["trace"])
