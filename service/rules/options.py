"""Ruleset options: every ruling a game master may make otherwise, as a named, typed, checked value.

A ruleset lists its options as `OptionSpec`s; callers send any subset in an `options` object. An
unknown name, a value of the wrong kind or outside its choices or range answers 422 with the path of
the bad option (rules documents, "Options"; README of the rules documents, "Options").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from service.rules import shape
from service.rules.errors import RulesError

Path = tuple[str | int, ...]
KINDS = ("bool", "int", "number", "enum", "ordering", "dice", "custom")
DICE = re.compile(r"^[+-]?(\d*d\d+|\d+)([+-](\d*d\d+|\d+))*$")


@dataclass(frozen=True)
class OptionSpec:
    """One option: its default, what values it takes, where it comes from (DOC/INF/CORE/DEF) and what
    it stands for. `kind` picks the check; `custom` options (tables, packs) bring their own `reader`."""

    default: Any
    tag: str
    summary: str
    kind: str = "custom"
    choices: tuple[Any, ...] | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    reader: Callable[[Any, Path], Any] | None = None
    extra: Mapping[str, Any] | None = None  # more catalogue fields (e.g. tactical's `where`)
    schema: Mapping[str, Any] | None = None  # a custom option's JSON shape (service.rules.shape), as published

    def describe(self) -> dict[str, Any]:
        """The catalogue entry: {default, choices (enumerations), tag, summary, minimum/maximum}."""
        out: dict[str, Any] = {"default": self.default}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        out.update({"tag": self.tag, "summary": self.summary, **(self.extra or {})})
        return out

    def read(self, value: Any, path: Path) -> Any:
        """The caller's value, checked against this option's kind, choices and range."""
        if self.schema is not None:
            shape.check(value, self.schema, path)
        check = _CHECKS[self.kind]
        return check(self, value, path)


_DEFAULTS: dict[int, tuple[Mapping[str, "OptionSpec"], dict[str, Any]]] = {}


def read_options(specs: Mapping[str, OptionSpec], raw: Mapping[str, Any] | None, path: Path) -> dict[str, Any]:
    """All options resolved: the caller's (checked) where sent, each default elsewhere."""
    if not raw and raw is not None and type(raw) is not dict and not isinstance(raw, Mapping):
        raise RulesError("options must be an object", path)
    if not raw:  # most requests send none: the defaults, worked out once per set of specs
        cached = _DEFAULTS.get(id(specs))
        if cached is None or cached[0] is not specs:
            if len(_DEFAULTS) > 256:  # specs are module constants; a caller making them per call must not leak
                _DEFAULTS.clear()
            cached = _DEFAULTS[id(specs)] = (specs, {name: spec.default for name, spec in specs.items()})
        return dict(cached[1])
    if not isinstance(raw, Mapping):
        raise RulesError("options must be an object", path)
    for name in raw:
        if name not in specs:
            raise RulesError(f"unknown option {name!r}", (*path, name))
    return {name: spec.read(raw[name], (*path, name)) if name in raw else spec.default
            for name, spec in specs.items()}


def whole(value: Any, path: Path, low: int | None = None, high: int | None = None) -> int:
    """An integer from JSON: booleans and floats with a fractional part are refused."""
    if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
        return value  # the usual case, answered before the checks below
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesError("must be an integer", path)
    if isinstance(value, float):
        if not value.is_integer():
            raise RulesError("must be a whole number", path)
        value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise RulesError(f"must be between {low} and {high}", path)
    return value


def _bool(spec: OptionSpec, value: Any, path: Path) -> bool:
    if not isinstance(value, bool):
        raise RulesError("must be true or false", path)
    return value


def _int(spec: OptionSpec, value: Any, path: Path) -> int:
    return whole(value, path, spec.minimum, spec.maximum)  # type: ignore[arg-type]


def _number(spec: OptionSpec, value: Any, path: Path) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise RulesError("must be a number", path)
    if (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
        raise RulesError(f"must be between {spec.minimum} and {spec.maximum}", path)
    return value


def _enum(spec: OptionSpec, value: Any, path: Path) -> Any:
    if isinstance(value, bool) != isinstance(spec.default, bool) or value not in (spec.choices or ()):
        raise RulesError(f"must be one of {list(spec.choices or ())}", path)
    return value


def _ordering(spec: OptionSpec, value: Any, path: Path) -> list[Any]:
    """An ordered list of distinct names drawn from `choices` (e.g. tie-break keys)."""
    if not isinstance(value, list) or not value:
        raise RulesError("must be a non-empty list", path)
    for index, item in enumerate(value):
        if item not in (spec.choices or ()) or value.index(item) != index:
            raise RulesError(f"must be distinct names from {list(spec.choices or ())}", (*path, index))
    return list(value)


def _dice(spec: OptionSpec, value: Any, path: Path) -> str:
    if not isinstance(value, str) or len(value) > 40 or not DICE.match(value.replace(" ", "")):
        raise RulesError("must be a dice expression like \"1d6\" or \"2d6-1\"", path)
    return value.replace(" ", "")


def _custom(spec: OptionSpec, value: Any, path: Path) -> Any:
    if spec.reader is None:
        raise RulesError("this option cannot be changed", path)
    return spec.reader(value, path)


_CHECKS: dict[str, Callable[[OptionSpec, Any, Path], Any]] = {
    "bool": _bool, "int": _int, "number": _number, "enum": _enum, "ordering": _ordering, "dice": _dice,
    "custom": _custom,
}
