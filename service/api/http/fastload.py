"""Loading a valid JSON body into a request schema's dict without marshmallow's per-field machinery.

`Schema.load` costs about 110 us for a /damage body: every field goes through error stores, getter
closures and collection checks even when nothing is wrong. `compile_loader` turns a schema into plain
nested functions that do what `load` does for the field types this API uses (whole numbers, numbers,
booleans, strings, nested objects, lists, with their validators and defaults) and give up — raise
`NotFast` — at the first value `load` would refuse or any case they do not cover. The caller then runs
marshmallow as before, so every error message, status and field path still comes from the schemas.

Any field type not listed here is loaded by the field itself (`Field.deserialize`), and a schema with
load hooks (`pre_load`, `validates`, `post_load`...) or dotted attributes is not compiled at all. Under
`TESTING` the blueprint loads every body both ways and fails on any difference (see blueprint.py), so
the whole test suite and schemathesis keep the two in step.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields
from marshmallow.utils import missing
from marshmallow.validate import Range, Validator

from service.api.http.json_values import JsonBoolean, JsonFloat, JsonInteger

Loader = Callable[[Any, Any], Any]  # (value, the object holding it) -> loaded value, or raises NotFast


class NotFast(Exception):
    """The fast loader cannot vouch for this value: marshmallow must load (or refuse) it."""


def compile_loader(schema: Schema, unknown: str | None = None) -> Callable[[Any], dict] | None:
    """A function loading a body exactly as `schema.load(body, unknown=unknown)` would, or None when
    the schema uses something the fast path does not reproduce."""
    loader = _schema_loader(schema, unknown or schema.unknown)
    if loader is None:
        return None
    return lambda data: loader(data, None)


def _schema_loader(schema: Schema, unknown: str) -> Loader | None:
    if schema.many or any(schema._hooks.values()) or unknown not in (RAISE, EXCLUDE, INCLUDE):
        return None
    plan, keys = [], set()
    for name, field in schema.load_fields.items():
        key = field.data_key if field.data_key is not None else name
        attribute = field.attribute or name
        load = _field_loader(field, key)
        if load is None or "." in attribute:
            return None
        keys.add(key)
        plan.append((key, attribute, load, field.required, field.load_default, field.allow_none))
    return _object_loader(plan, frozenset(keys), unknown)


def _object_loader(plan: list[tuple], known: frozenset, unknown: str) -> Loader:
    """The loader of one object, its fields written out one after another (a loop over the plan spent a
    third of its time unpacking plan entries). For each field, in order: absent -> NotFast when required,
    else its default (called when callable) or nothing; null -> NotFast unless allowed; else its loader."""
    env: dict[str, Any] = {"NotFast": NotFast, "missing": missing, "known": known, "dict": dict}
    lines = ["def load_object(data, _parent):",
             "    if type(data) is not dict:",
             "        raise NotFast"]
    if unknown == RAISE:
        lines += ["    if not known.issuperset(data):",  # a key the schema does not know
                  "        raise NotFast"]
    elif unknown == INCLUDE:
        lines.append("    extra = data.keys() - known")
    lines.append("    result = {}")
    for i, (key, attribute, load, required, default, allow_none) in enumerate(plan):
        env[f"load_{i}"], env[f"default_{i}"] = load, default
        target = f"result[{attribute!r}]"
        lines += [f"    value = data.get({key!r}, missing)",
                  "    if value is missing:"]
        if required:
            lines.append("        raise NotFast")
        elif default is missing:
            lines.append("        pass")
        else:
            lines.append(f"        {target} = default_{i}{'()' if callable(default) else ''}")
        lines += ["    elif value is None:",
                  f"        {target} = None" if allow_none else "        raise NotFast",
                  "    else:",
                  f"        {target} = load_{i}(value, data)"]
    if unknown == INCLUDE:
        lines += ["    if extra:",
                  "        result.update((key, data[key]) for key in extra)"]
    lines.append("    return result")
    exec(compile("\n".join(lines), f"<fast loader of {len(plan)} fields>", "exec"), env)  # noqa: S102
    return env["load_object"]  # type: ignore[no-any-return]


def _field_loader(field: fields.Field, key: str | None) -> Loader | None:
    """The loader of one field's non-null value (its validators included)."""
    kind = type(field)
    if getattr(field, "pre_load", None):
        convert = None
    elif kind is JsonInteger:
        convert = _whole_number
    elif kind is JsonFloat:
        convert = _number if field.allow_nan else _finite_number
    elif kind is JsonBoolean:
        convert = _boolean
    elif kind is fields.String:
        convert = _string
    elif kind is fields.Nested:
        convert = _nested(field)
    elif kind is fields.List:
        convert = _list(field)
    else:
        return _by_field(field, key)
    if convert is None:
        return _by_field(field, key)
    checks = tuple(field.validators)
    if not checks:
        return convert
    if len(checks) == 1 and type(checks[0]) is Range:
        return _in_range(convert, checks[0])

    def load_and_check(value: Any, parent: Any) -> Any:
        output = convert(value, parent)
        for check in checks:
            try:
                verdict = check(output)
            except Exception:  # noqa: BLE001 - whatever a validator raises, marshmallow decides
                raise NotFast from None
            if verdict is False and not isinstance(check, Validator):
                raise NotFast
        return output
    return load_and_check


def _in_range(convert: Loader, bounds: Range) -> Loader:
    """`convert`, then `bounds` checked as `Range.__call__` checks them (without its call and messages)."""
    low, high, low_in, high_in = bounds.min, bounds.max, bounds.min_inclusive, bounds.max_inclusive

    def load_in_range(value: Any, parent: Any) -> Any:
        output = convert(value, parent)
        if low is not None and (output < low if low_in else output <= low):
            raise NotFast
        if high is not None and (output > high if high_in else output >= high):
            raise NotFast
        return output
    return load_in_range


def _by_field(field: fields.Field, key: str | None) -> Loader:
    """A field type the fast path does not know: let the field load the value itself."""
    def load(value: Any, parent: Any) -> Any:
        try:
            return field.deserialize(value, key, parent)
        except Exception:  # noqa: BLE001 - marshmallow will report it properly
            raise NotFast from None
    return load


def _whole_number(value: Any, _parent: Any) -> int:
    # JsonInteger: 8 or 8.0, never 8.5, "8" or true
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is not int:
        raise NotFast
    return value


def _number(value: Any, _parent: Any) -> float:
    if type(value) is float:
        return value
    if type(value) is not int:
        raise NotFast
    try:
        return float(value)
    except OverflowError:
        raise NotFast from None


def _finite_number(value: Any, parent: Any) -> float:
    number = _number(value, parent)
    if not math.isfinite(number):
        raise NotFast
    return number


def _boolean(value: Any, _parent: Any) -> bool:
    if type(value) is not bool:
        raise NotFast
    return value


def _string(value: Any, _parent: Any) -> str:
    if type(value) is not str:
        raise NotFast
    return value


def _nested(field: fields.Nested) -> Loader | None:
    if field.many:
        return None
    schema = field.schema
    return _schema_loader(schema, field.unknown or schema.unknown)


def _list(field: fields.List) -> Loader | None:
    inner = _field_loader(field.inner, None)  # List hands its items to the inner field without a key
    allow_none = field.inner.allow_none
    if inner is None:
        return None

    def load_list(value: Any, _parent: Any) -> list:
        if type(value) is not list:
            raise NotFast
        out = []
        for item in value:
            if item is None:
                if not allow_none:
                    raise NotFast
                out.append(None)
            else:
                out.append(inner(item, None))
        return out
    return load_list
