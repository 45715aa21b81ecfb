"""The shared field helpers (service/api/kit/fields.py): required, defaulted or optional as asked, bounds kept."""
from __future__ import annotations

from fractions import Fraction

import pytest
from marshmallow import Schema, ValidationError, validate

from service.api.kit.fields import bounded, choice, flag, fraction_text, probability_dict, string_or_null, whole


def _load(field, data):
    return Schema.from_dict({"x": field})().load(data)


def test_whole_is_optional_defaulted_or_required():
    assert _load(whole(0, 9, "n"), {}) == {}
    assert _load(whole(0, 9, "n", 4), {}) == {"x": 4}
    with pytest.raises(ValidationError, match="required"):
        _load(whole(0, 9, "n", 4, required=True), {})
    with pytest.raises(ValidationError):
        _load(whole(0, 9, "n"), {"x": 10})


def test_whole_carries_its_description_and_extra_metadata():
    field = whole(0, 9, "Dice.", meta={"example": 3})
    assert field.metadata == {"description": "Dice.", "example": 3}


def test_bounded_is_required_unless_defaulted():
    with pytest.raises(ValidationError, match="required"):
        _load(bounded(validate.Range(1, 5), "n"), {})
    assert _load(bounded(validate.Range(1, 5), "n", 1), {}) == {"x": 1}
    with pytest.raises(ValidationError):
        _load(bounded(validate.Range(1, 5), "n", 1), {"x": 6})
    with pytest.raises(AssertionError):
        bounded(validate.Range(0, 5, min_inclusive=False), "n")


def test_choice_accepts_any_iterable_once():
    field = choice((name for name in ("walk", "run")), "Pace.", "walk")
    assert _load(field, {}) == {"x": "walk"}
    with pytest.raises(ValidationError, match="walk, run"):
        _load(field, {"x": "fly"})


def test_flag_defaults_to_false_or_to_nothing():
    assert _load(flag("f"), {}) == {"x": False}
    assert _load(flag("f", None), {}) == {}
    with pytest.raises(ValidationError):
        _load(flag("f"), {"x": 1})


def test_fraction_text_and_string_or_null():
    assert fraction_text(Fraction(6, 4)) == "3/2"
    assert fraction_text(Fraction(2)) == "2/1"
    assert _load(string_or_null("t"), {"x": None}) == {"x": None}


def test_probability_dict_takes_numbers_only_and_is_required():
    assert _load(probability_dict("p"), {"x": {"hit": 0.25}}) == {"x": {"hit": 0.25}}
    with pytest.raises(ValidationError):
        _load(probability_dict("p"), {"x": {"hit": "1/4"}})
    with pytest.raises(ValidationError, match="required"):
        _load(probability_dict("p"), {})
