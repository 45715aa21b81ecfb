"""The body check's parse: orjson where it reads a body to the very values json.loads gives, json elsewhere;
and the Content-Length check reading plain digits straight from the environ."""
from __future__ import annotations

import json
import math
import random

import pytest
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from service.api.http.bodies import UnreadableNumber, _parse, refuse_oversized

BODIES = [b'{"attack": 12, "defence": 9}', b'{"a": 1.0, "b": -0.0, "c": 1e-7, "d": 0.1, "e": 123456789.123456789}',
          b'{"big": 18446744073709551615, "bigger": 18446744073709551616, "neg": -9223372036854775809}',
          b'{"f": [0.30000000000000004, 2.2250738585072014e-308, 5e-324, 1.7976931348623157e308, 9007199254740993]}',
          b'{"k": 1, "k": 2}', b' \n{"s": "\\u00e6\\ud83d\\ude00"}\t',
          b'{"lone": "\\ud800"}', '{"name": "Ælfric"}'.encode(), '\ufeff{"bom": 1}'.encode(),
          '{"utf16": 1}'.encode("utf-16"), b"[1, [2, [3]]]", b'"text"', b"12", b"null", b"true"]


def same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


@pytest.mark.parametrize("raw", BODIES)
def test_the_parse_gives_what_json_loads_gives(raw):
    assert same(_parse(raw), json.loads(raw))


@pytest.mark.parametrize("raw", [b"{", b'{"a": 1,}', b"{'a': 1}", b'{"a": 01}', b"", b"\xff\xfe\x00", b"1" * 5000])
def test_what_json_loads_refuses_is_refused(raw):
    with pytest.raises(ValueError):
        json.loads(raw)
    with pytest.raises(ValueError):
        _parse(raw)


@pytest.mark.parametrize("raw", [b'{"nan": NaN}', b'{"inf": Infinity}', b'[-Infinity]'])
def test_nan_and_infinity_are_not_json(raw):
    with pytest.raises(ValueError, match="is not a JSON number"):
        _parse(raw)


@pytest.mark.parametrize("raw, path, reads_as", [
    (b'{"av": 1e-400}', "av", "0"), (b'{"a": [1, {"b": -2.5E-999}]}', "a.1.b", "0"),
    (b'{"x": 0.' + b"0" * 400 + b'1}', "x", "0"), (b'{"x": 1e400}', "x", "infinity"),
    (b'{"x": {"y": -' + b"9" * 309 + b'}}', "x.y", "infinity"), (b'{"x": ' + b"1" * 320 + b'.5}', "x", "infinity")])
def test_a_number_a_double_cannot_hold_is_refused_with_its_path(raw, path, reads_as):
    """Issue 22: 1e-400 was read as 0 and answered; such a literal is refused, naming where it is."""
    with pytest.raises(UnreadableNumber) as refused:
        _parse(raw)
    assert refused.value.path == path
    assert f"would read as {reads_as}" in refused.value.message


@pytest.mark.parametrize("raw", [b'{"zero": 0e-999, "tiny": 5e-324, "sub": 2.5e-320, "big": 1.7e308, "m": -0.0e500}',
                                 b'{"n": ' + b"9" * 308 + b"}"])
def test_numbers_a_double_holds_still_parse_as_json_loads(raw):
    assert same(_parse(raw), json.loads(raw))


def test_random_numbers_parse_alike():
    rng = random.Random(3)
    numbers = [repr(rng.uniform(-1e6, 1e6)) for _ in range(500)] + [f"{rng.random():.17e}" for _ in range(500)] + [
        str(rng.randint(-2 ** 63, 2 ** 64)) for _ in range(500)] + [f"{rng.randint(0, 10 ** 18)}.{rng.randint(0, 99)}"
                                                                  for _ in range(500)]
    raw = ("[" + ",".join(numbers) + "]").encode()
    assert same(_parse(raw), json.loads(raw))
    for number in numbers[::7]:
        assert same(_parse(number.encode()), json.loads(number))


def request_with(length: str | None, chunked: bool = False) -> Request:
    environ = EnvironBuilder(method="POST", data=b"{}").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    return Request(environ)


@pytest.mark.parametrize("length, refused", [("100", False), ("101", True), (" 101 ", True), ("-5", False),
                                             ("1_000", False), ("\u0661\u0660\u0661", False), ("abc", False),
                                             (None, False)])
def test_the_content_length_is_read_as_werkzeug_reads_it(length, refused):
    req = request_with(length)
    assert ((req.content_length or 0) > 100) is refused
    if refused:
        with pytest.raises(RequestEntityTooLarge):
            refuse_oversized(request_with(length), 100)
    else:
        refuse_oversized(request_with(length), 100)


def test_a_chunked_body_is_not_judged_by_its_content_length():
    refuse_oversized(request_with("5000", chunked=True), 100)
