"""Catalog look-ups the encounter state needs: an armor type's DR pair (RULINGS 12).

Seed: "Armor/Shield DR Recap (Optional Armor Wear Rules)". An L/R armor subtracts L and wears from R;
a single-number armor has L = R. The numbers come from the ruleset's table (`armor.catalog`).
"""
from __future__ import annotations

from typing import Any

from service.rules.errors import UnknownName
from service.rules.tactical.armor import catalog


def armor_layer(kind: Any, path: tuple) -> tuple[int, int]:
    """(L, R) of an armor or shield type as new; UnknownName for anything else."""
    known = catalog()
    if not isinstance(kind, str) or kind not in known:
        raise UnknownName(f"unknown armor type {kind!r}; known: {sorted(known)}", path)
    return known[kind]
