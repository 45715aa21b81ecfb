"""The seed's tables as package data, loaded once and checked on load. (Filled in by the tables work.)"""
from __future__ import annotations

from typing import Any, Callable

CATALOG: dict[str, tuple[str, Callable[[], Any]]] = {}
