"""Remembered answers, bounded by bytes (issue 22 item 5).

A calculator's odds depend only on the request's fields and the resolved options (both are in the key: a
caller may pass options that are not in the body), so a question asked again is answered from memory
(seed-independent; rolls are never remembered). `remembered` does that for a `(body, options)` calculator
(the smoting calculators, runequest-house /damage), `bounded` for a pure function of hashable arguments
(exact distributions and odds in the rules and the HTTP calculators), like `functools.lru_cache`.

Every memo of a process keeps its entries in one least-recently-used `STORE` whose estimated size, keys and
values (`size_of`), stays within `limit` bytes: REFEREE_MEMO_BYTES, 32 MiB per process unless configured.
Counting entries did not bound memory: 17,000 distinct runequest-house /damage bodies (each key a body's
JSON, each value a distribution of up to 400 exact fractions) took a gunicorn worker from 150 to 362 MB. An
entry estimated at over a quarter of the limit is answered but not kept.
"""
from __future__ import annotations

import itertools
import json
import operator
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import wraps
from types import ModuleType
from typing import Any

DEFAULT_LIMIT = 32 * 1024 * 1024
ENTRY_BYTES = 160  # the store's own cost per entry: its slot, the tagged key tuple and the (value, size) pair
MISSING = object()  # what `Store.get` answers for a key it does not hold
new_tag = itertools.count().__next__  # a number of its own for each memo, the first part of its keys


class Store:
    """Least-recently-used entries of every memo of the process, at most `limit` estimated bytes in all."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit, self.bytes = limit, 0
        self._entries: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Any) -> Any:
        """The value kept for `key` (now the most recently used), or `MISSING`."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return MISSING
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Any, value: Any) -> None:
        """Keep `value` for `key`, dropping the least recently used entries past the limit."""
        size = size_of(key) + size_of(value) + ENTRY_BYTES
        if size > self.limit // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self.bytes += size - (old[1] if old else 0)
            self._entries[key] = (value, size)
            self._shrink()

    def resize(self, limit: int) -> None:
        """A new limit (REFEREE_MEMO_BYTES, set by the app factory); entries past it are dropped."""
        with self._lock:
            self.limit = limit
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def _shrink(self) -> None:
        while self.bytes > self.limit and self._entries:
            self.bytes -= self._entries.popitem(last=False)[1][1]


STORE = Store()


def configure(limit_bytes: int) -> None:
    """Bound every memo of this process to `limit_bytes` in all (REFEREE_MEMO_BYTES)."""
    STORE.resize(limit_bytes)


def size_of(value: Any) -> int:
    """Estimated bytes of `value` and everything it holds: containers, strings, numbers, fractions, and the
    fields of dataclasses and other objects (a container reached twice counts once). Classes, functions and
    modules count only their reference (they live anyway). Every remembered answer is measured once when
    stored, so the common shapes (dicts, lists, tuples, plain values) are walked without a call each."""
    getsizeof, leaves = sys.getsizeof, _LEAVES
    total, seen, stack = 0, set(), [value]
    push, pop, mark = stack.extend, stack.pop, seen.add
    while stack:
        item = pop()
        kind = type(item)
        if kind in leaves:
            total += getsizeof(item)
            continue
        if id(item) in seen:
            continue
        mark(id(item))
        total += getsizeof(item)
        if kind is dict:
            push(item.keys())
            push(item.values())
        elif kind is tuple or kind is list or kind is set or kind is frozenset:
            push(item)
        else:
            push(_held(item))
    return total


_LEAVES = frozenset({str, int, float, bool, bytes, type(None)})


def _held(item: Any) -> Any:
    """The objects `item` holds: a mapping's keys and values, a fraction's numerator and denominator, an
    object's `__dict__` values and slots (classes, modules and callables: nothing)."""
    kind = type(item)
    if kind is Fraction:
        return (item.numerator, item.denominator)
    if isinstance(item, Mapping):
        return [*item.keys(), *item.values()]
    if isinstance(item, (type, ModuleType)) or callable(item):
        return ()
    slots = _SLOTS.get(kind)
    if slots is None:
        slots = _SLOTS[kind] = tuple(name for cls in kind.__mro__ for name in getattr(cls, "__slots__", ())
                                     if name not in ("__dict__", "__weakref__"))
    held = list(vars(item).values()) if hasattr(item, "__dict__") else []
    held.extend(getattr(item, name, None) for name in slots)
    return held


_SLOTS: dict[type, tuple[str, ...]] = {}  # each class's slot names, all the way up its MRO


def bounded(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` of hashable arguments, its answers kept in `STORE` (`functools.lru_cache` by bytes)."""
    tag = new_tag()

    @wraps(function)
    def recall(*args: Any, **kwargs: Any) -> Any:
        key = (tag, args, tuple(kwargs.items())) if kwargs else (tag, args)
        found = STORE.get(key)
        if found is MISSING:
            found = function(*args, **kwargs)
            STORE.put(key, found)
        return found
    return recall


def remembered(function: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]) -> Callable:
    """Wrap a pure `(body, options) -> answer` whose options are read from `body["options"]` (the odds of
    a smoting calculator, smoting.md section 12; a runequest-house blow's distribution, its section 12)."""
    tag = new_tag()

    @wraps(function)
    def recall(body: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        key = (tag, _key(body, options))
        found = STORE.get(key)
        if found is MISSING:
            found = function(body, options)
            STORE.put(key, found)
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
_NEXT_TOKEN = itertools.count()  # never reused, even after the store forgets a token
_SEEN, _TOKEN, _FROZEN = new_tag(), new_tag(), new_tag()  # the tables below, kept in STORE


def _options_token(options: Mapping[str, Any]) -> int:
    """A number for the options' values, equal for equal options. Most requests send no options and get
    the ruleset's defaults (a fresh dict of the same value objects every time), so the token of the last
    values seen for these names is reused while every value is the very same object (held in the store,
    so no id is reused); only other values are frozen and looked up. A token the store forgot is made
    anew, which only costs the answers kept under the old one."""
    names, values = tuple(options), tuple(options.values())
    seen = STORE.get((_SEEN, names))
    if seen is not MISSING and len(seen[0]) == len(values) and all(map(operator.is_, seen[0], values)):
        return seen[1]  # type: ignore[no-any-return]
    frozen = (_TOKEN, tuple(zip(names, map(_option_key, values))))
    token = STORE.get(frozen)
    if token is MISSING:
        token = next(_NEXT_TOKEN)
        STORE.put(frozen, token)
    STORE.put((_SEEN, names), (values, token))
    return token  # type: ignore[no-any-return]


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
    known = STORE.get((_FROZEN, id(value)))
    if known is not MISSING and known[0] is value:
        return known[1]
    frozen = _frozen(value)
    STORE.put((_FROZEN, id(value)), (value, frozen))
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
