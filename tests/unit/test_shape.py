"""service.rules.shape: the JSON shapes the spec publishes are the ones the rules check."""
from __future__ import annotations

import pytest

from service.rules.errors import RulesError
from service.rules.shape import check

PACK = {"anyOf": [{"const": "default"}, {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True,
                                         "items": {"type": "object", "required": ["name"],
                                                   "additionalProperties": False,
                                                   "properties": {"name": {"type": "string", "minLength": 1},
                                                                  "bonus": {"type": "integer", "minimum": -5,
                                                                            "maximum": 5}}}}]}


@pytest.mark.parametrize("value", ["default", [{"name": "club"}], [{"name": "a", "bonus": 5.0}, {"name": "b"}]])
def test_values_of_the_shape_pass(value):
    assert check(value, PACK, ("pack",)) is value


@pytest.mark.parametrize("value, field", [
    (None, ("pack",)), ("other", ("pack",)), (True, ("pack",)), ([], ("pack",)),
    ([{"name": "a"}, {"name": "b"}, {"name": "c"}], ("pack",)), ([{"name": "a"}, {"name": "a"}], ("pack", 1)),
    ([{"bonus": 1}], ("pack", 0, "name")), ([{"name": ""}], ("pack", 0, "name")),
    ([{"name": "a", "bonus": 6}], ("pack", 0, "bonus")), ([{"name": "a", "bonus": 1.5}], ("pack", 0, "bonus")),
    ([{"name": "a", "bonus": True}], ("pack", 0, "bonus")), ([{"name": "a", "x": 1}], ("pack", 0, "x")),
])
def test_every_other_value_is_refused_at_its_path(value, field):
    with pytest.raises(RulesError) as refused:
        check(value, PACK, ("pack",))
    assert refused.value.field == field


def test_patterns_lengths_and_names():
    text = {"type": "string", "maxLength": 4, "pattern": "^[a-z]+$"}
    assert check("abcd", text, ()) == "abcd"
    for bad in ("abcde", "ab1", ""):
        with pytest.raises(RulesError):
            check(bad, text, ())
    table = {"type": "object", "propertyNames": {"enum": ["1", "2"]}, "additionalProperties": {"type": "number"}}
    assert check({"1": 0.5}, table, ())
    with pytest.raises(RulesError):
        check({"3": 0.5}, table, ())
