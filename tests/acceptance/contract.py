"""What every ruleset's acceptance suite checks the same way: exact fraction strings in lowest terms, their
float twins, and a POST to one ruleset's path that must answer a given status (rules README, conventions)."""
from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

EXACT = re.compile(r"^-?\d+/[1-9]\d*$")


def exact_fraction(text: str) -> Fraction:
    """The fraction an `*_exact` string states, which must be "n/d" in lowest terms."""
    assert EXACT.match(text), text
    value = Fraction(text)
    assert f"{value.numerator}/{value.denominator}" == text, f"{text} not in lowest terms"
    return value


def poster(base: str) -> Callable[..., Any]:
    """`post(client, path, body, status=200)` under `base`: the JSON answer, once its status is the one expected."""
    def post(client: Any, path: str, body: Any, status: int = 200) -> Any:
        answer = client.post(base + path, json=body)
        assert answer.status_code == status, answer.get_json()
        return answer.get_json()
    return post


def assert_exact_pairs(body: dict, null_entries: bool = False) -> None:
    """Every probability number with an `_exact` twin is the double nearest that lowest-terms fraction (an
    entry of a twin object may be null only when `null_entries`)."""
    for key, value in body.items():
        if key.endswith("_exact") and value is not None:
            plain = body[key[: -len("_exact")]]
            if isinstance(value, str):
                assert plain == float(exact_fraction(value))
            else:
                assert set(value) == set(plain)
                for sub, text in value.items():
                    if text is None and null_entries:
                        continue
                    assert plain[sub] == float(exact_fraction(text)), (key, sub)
