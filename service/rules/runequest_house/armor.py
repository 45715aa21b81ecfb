"""Armor layering (rules document §6; seed *Page 68*)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.rules.errors import RulesError, UnknownName


@dataclass(frozen=True, slots=True)
class Layered:
    """The AP of one location: the highest piece, what lower layers add, and the total with protection."""

    ap: int
    highest: int
    layer_bonus: int


def piece_ap(layer: int | str, options: Mapping[str, Any], field: tuple) -> int:
    """One layer's AP: a number, or a piece of the armor pack [CORE] by name."""
    if isinstance(layer, str):
        pack = options["armor_pack"]
        if layer not in pack:
            raise UnknownName(f"unknown armor piece {layer!r}; known: {sorted(pack)}", field)
        return pack[layer]
    return layer


def layered(layers: Sequence[int | str], protection: int, options: Mapping[str, Any],
            field: tuple = ("layers",)) -> Layered:
    """*Page 68*: over two pieces, half the lower one's AP (rounded up) is added to the higher; more than
    two [DEF, option `layering`]: half of each lower piece (`half_each`) or of the second only."""
    aps = sorted((piece_ap(layer, options, (*field, i)) for i, layer in enumerate(layers)), reverse=True)
    if not aps:
        return Layered(protection, 0, 0)
    lower = aps[1:] if options["layering"] == "half_each" else aps[1:2]
    bonus = sum(math.ceil(ap / 2) for ap in lower)
    return Layered(aps[0] + bonus + protection, aps[0], bonus)
