"""One truth for a JSON value's shape: a small JSON Schema (the subset the served spec uses for tables,
packs and other free-form values) that the API publishes as it is and the rules check values against, so
the contract and the server refuse exactly the same values (rules README, "Options"; issue 22).

Supported: type (one or a list, "null" among them), enum, const, minimum, maximum, minLength, maxLength,
pattern, items, minItems, maxItems, uniqueItems, properties, required, additionalProperties,
propertyNames, minProperties, maxProperties, anyOf. `description` and other annotations are ignored.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from service.rules.errors import RulesError

Path = tuple[str | int, ...]
Schema = Mapping[str, Any]


def check(value: Any, schema: Schema, path: Path) -> Any:
    """`value` when it has `schema`'s shape, else a RulesError naming the first bad part's path."""
    problem = _problem(value, schema, path)
    if problem is not None:
        raise RulesError(problem[1], problem[0])
    return value


def _problem(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    """The first (path, message) wrong with `value`, or None."""
    if "anyOf" in schema:
        return _any_of(value, schema["anyOf"], path)
    for test in (_type, _choices, _number, _text, _array, _object):
        found = test(value, schema, path)
        if found is not None:
            return found
    return None


def _any_of(value: Any, branches: list[Schema], path: Path) -> tuple[Path, str] | None:
    problems = [_problem(value, branch, path) for branch in branches]
    if any(found is None for found in problems):
        return None
    typed = [found for branch, found in zip(branches, problems) if _kind_fits(value, branch)]
    return typed[0] if typed else (path, "must be " + " or ".join(_shape_name(b) for b in branches))


def _kind_fits(value: Any, schema: Schema) -> bool:
    """Whether `value` is of the JSON type a branch takes (its `type`, or its constants' type)."""
    if "type" in schema:
        return _type(value, schema, ()) is None
    constants = schema.get("enum", [schema["const"]] if "const" in schema else [])
    return any(type(constant) is type(value) for constant in constants)


def _shape_name(schema: Schema) -> str:
    if "enum" in schema or "const" in schema:
        return " or ".join(repr(v) for v in schema.get("enum", [schema.get("const")]))
    kind = schema.get("type", "a value")
    return " or ".join(kind) if isinstance(kind, list) else f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    if kind == "number":
        return type(value) in (int, float)
    return isinstance(value, _KINDS[kind]) and not (kind != "boolean" and isinstance(value, bool))


_KINDS: dict[str, Any] = {"string": str, "boolean": bool, "null": type(None), "array": (list, tuple),
                          "object": Mapping}


def _type(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    kind = schema.get("type")
    if kind is None:
        return None
    kinds = kind if isinstance(kind, list) else [kind]
    return None if any(_is(value, k) for k in kinds) else (path, "must be " + _shape_name(schema))


def _choices(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    if "const" in schema and not _same(value, schema["const"]):
        return path, f"must be {schema['const']!r}"
    if "enum" in schema and not any(_same(value, choice) for choice in schema["enum"]):
        return path, f"must be one of {list(schema['enum'])}"
    return None


def _same(a: Any, b: Any) -> bool:
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _number(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    if not _is(value, "number"):
        return None
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        return path, f"must be between {low} and {high}"
    return None


def _text(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    if not isinstance(value, str):
        return None
    if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
        return path, f"must be {schema.get('minLength', 0)} to {schema.get('maxLength')} characters"
    if "pattern" in schema and not _regex(schema["pattern"]).search(value):
        return path, f"must match {schema['pattern']}"
    return None


@lru_cache(maxsize=64)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _array(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    if not isinstance(value, (list, tuple)):
        return None
    if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
        return path, f"must have {schema.get('minItems', 0)} to {schema.get('maxItems')} items"
    if schema.get("uniqueItems"):
        seen: set[Any] = set()
        for index, item in enumerate(value):
            if _frozen(item) in seen:
                return (*path, index), "repeats an earlier item"
            seen.add(_frozen(item))
    items = schema.get("items")
    if items is not None:
        for index, item in enumerate(value):
            found = _problem(item, items, (*path, index))
            if found is not None:
                return found
    return None


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("[", *map(_frozen, value))
    return (type(value) is bool, value)


def _object(value: Any, schema: Schema, path: Path) -> tuple[Path, str] | None:
    if not isinstance(value, Mapping):
        return None
    if not schema.get("minProperties", 0) <= len(value) <= schema.get("maxProperties", len(value)):
        return path, f"must have {schema.get('minProperties', 0)} to {schema.get('maxProperties')} entries"
    missing = [name for name in schema.get("required", ()) if name not in value]
    if missing:
        return (*path, missing[0]), "is required"
    properties, extra, names = schema.get("properties", {}), schema.get("additionalProperties", True), \
        schema.get("propertyNames")
    for key, item in value.items():
        where = (*path, key)
        if names is not None and (found := _problem(key, names, where)) is not None:
            return where, "name " + found[1]
        inner = properties.get(key, extra)
        if inner is False:
            return where, "unknown field"
        if inner is not True and (found := _problem(item, inner, where)) is not None:
            return found
    return None
