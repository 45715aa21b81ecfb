"""Remembered answers: odds depend only on the request's fields and the resolved options (both are in
the key: a caller may pass options that are not in the body), so a calculator asked the same question again answers from memory
(seed-independent; rolls are never remembered)."""
from __future__ import annotations

import json
from collections import OrderedDict
from functools import wraps
from typing import Any, Callable, Mapping

LIMIT = 4096


def remembered(function: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]) -> Callable:
    """Wrap a pure `(body, options) -> answer` whose options are read from `body["options"]` (the odds
    of a smoting calculator, smoting.md section 12)."""
    memory: OrderedDict[Any, Any] = OrderedDict()

    @wraps(function)
    def recall(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        key = _key(body, options)
        if key in memory:
            memory.move_to_end(key)
            return memory[key]
        memory[key] = found = function(body, options)
        if len(memory) > LIMIT:
            memory.popitem(last=False)
        return found
    return recall


def _key(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
    """Every field of the body but the dice, and every resolved option, as one hashable value."""
    try:
        key = (_frozen({k: v for k, v in body.items() if k not in ("seed", "rolls")}),
               tuple((name, _option_key(value)) for name, value in options.items()))
        hash(key)
        return key
    except TypeError:  # a value that cannot be hashed: its JSON text instead
        return json.dumps([{k: v for k, v in body.items() if k not in ("seed", "rolls")}, options],
                          sort_keys=True, default=str)


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
