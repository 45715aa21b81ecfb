"""Remembered answers: a calculator's odds depend only on the request's fields and the resolved options
(both are in the key: a caller may pass options that are not in the body), so a question asked again is
answered from memory (seed-independent; rolls are never remembered). Used by the smoting calculators and
runequest-house /damage.
"""
from __future__ import annotations

import itertools
import json
import operator
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

LIMIT = 4096


def remembered(function: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]) -> Callable:
    """Wrap a pure `(body, options) -> answer` whose options are read from `body["options"]` (the odds of
    a smoting calculator, smoting.md section 12; a runequest-house blow's distribution, its section 12)."""
    memory: OrderedDict[Any, Any] = OrderedDict()

    @wraps(function)
    def recall(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        key = _key(body, options)
        found = memory.get(key)
        if found is not None:
            memory.move_to_end(key)
            return found
        memory[key] = found = function(body, options)
        if len(memory) > LIMIT:
            memory.popitem(last=False)
        return found
    return recall


def _key(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
    """Every field of the body but the dice, and every resolved option, as one hashable value: the body as
    JSON text with sorted keys (a string keeps its hash, and tells true, 1 and 1.0 apart), the options as
    a number standing for their values."""
    plain = dict(body)
    plain.pop("seed", None)
    plain.pop("rolls", None)
    try:
        text: Any = _DUMPS(plain)
    except (TypeError, ValueError):  # not plain JSON: nested tuples instead
        text = ("frozen", _frozen(plain))
    try:
        key = (text, _options_token(options))
        hash(key)
        return key
    except TypeError:  # a value that cannot be hashed: its JSON text instead
        return json.dumps([plain, options], sort_keys=True, default=str)


_DUMPS = json.JSONEncoder(sort_keys=True, separators=(",", ":"), check_circular=False).encode
_OPTIONS_SEEN: dict[tuple[str, ...], tuple[tuple[Any, ...], int]] = {}  # names -> (last values, their token)
_TOKENS: dict[Any, int] = {}  # a set of options' frozen form -> its token
_NEXT_TOKEN = itertools.count()  # never reused, even after the tables are cleared


def _options_token(options: Mapping[str, Any]) -> int:
    """A number for the options' values, equal for equal options. Most requests send no options and get
    the ruleset's defaults (a fresh dict of the same value objects every time), so the token of the last
    values seen for these names is reused while every value is the very same object (held here, so no id
    is reused); only other values are frozen and looked up."""
    names, values = tuple(options), tuple(options.values())
    seen = _OPTIONS_SEEN.get(names)
    if seen is not None and len(seen[0]) == len(values) and all(map(operator.is_, seen[0], values)):
        return seen[1]
    frozen = tuple(zip(names, map(_option_key, values)))
    if len(_TOKENS) > 4096:
        _TOKENS.clear()
    token = _TOKENS.get(frozen)
    if token is None:
        token = _TOKENS[frozen] = next(_NEXT_TOKEN)
    if len(_OPTIONS_SEEN) > 64:
        _OPTIONS_SEEN.clear()
    _OPTIONS_SEEN[names] = (values, token)
    return token


_OPTION_KEYS: dict[int, tuple[Any, Any]] = {}  # id -> (the option value, its frozen form)
def _option_key(value: Any) -> Any:
    """One option's part of the key (resolved options come in the specs' order, so no sorting is needed)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is bool:
        return ("b", value)
    if kind is float:
        return ("f", value)
    return _frozen_option(value)


def _frozen_option(value: Any) -> Any:
    """An option's frozen form, worked out once per value object: the defaults (large packs among them) are
    the same objects on every request, so only a caller's own values are frozen again."""
    if not isinstance(value, (Mapping, list, tuple)):
        return _frozen(value)
    known = _OPTION_KEYS.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    if len(_OPTION_KEYS) > 512:
        _OPTION_KEYS.clear()
    frozen = _frozen(value)
    _OPTION_KEYS[id(value)] = (value, frozen)
    return frozen


def _frozen(value: Any) -> Any:
    """A JSON-like value as nested tuples; booleans and floats tagged, because True == 1 == 1.0 in a key."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is dict or isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return ("[", *map(_frozen, value))
    if kind is bool:
        return ("b", value)
    if kind is float:
        return ("f", value)
    return value
