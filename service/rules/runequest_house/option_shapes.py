"""The JSON shapes of the `runequest-house` table options (rules document §10; the `rq3` pack's tables as
`GET /v1/rulesets/runequest-house/tables/{name}` serves them): published in the spec and checked before
each option's reader (service.rules.shape), so the contract and the server accept the same tables. What
a shape cannot say (rows that must be contiguous, a low bound above a high one) the readers refuse as a
contradiction."""
from __future__ import annotations

from typing import Any

from service.rules.runequest_house.dice_expr import DICE_SHAPE
from service.rules.runequest_house.pack import LOCATIONS

ACTIONS = ("attack", "parry", "dodge", "cast", "missile", "move", "draw")
WEAPON_TYPES = ("crush", "slash", "impale")
WEAPON_KINDS = ("melee", "thrown", "projected")
SHIELD_SIZES = ("buckler", "small", "medium", "hoplite", "large")
FRACTION = {"type": "string", "pattern": "^[0-9]{1,4}(/(?=[0-9]{1,4}$)0*[1-9][0-9]*)?$"}
_NAME = {"type": "string", "maxLength": 64}
_BOUND = {"type": "integer", "minimum": 0, "maximum": 1000}


def _whole(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def _record(required: bool = True, **properties: Any) -> dict[str, Any]:
    out = {"type": "object", "additionalProperties": False, "properties": properties}
    return {**out, "required": list(properties)} if required else out


def ranges(payload: str, value: dict[str, Any]) -> dict[str, Any]:
    """Rows `{min, max, <payload>}` (their cover of the table's span is the reader's to check)."""
    return {"type": "array", "minItems": 1, "maxItems": 300,
            "items": _record(min=_BOUND, max=_BOUND, **{payload: value})}


LOCATION_TABLE = ranges("location", {"enum": list(LOCATIONS)})
SR_TABLE = ranges("sr", _whole(0, 20))
BONUS_TABLE = ranges("bonus", DICE_SHAPE)
LOCATION_HP = _record(rows={"type": "array", "minItems": 1, "maxItems": 300, "items": _record(
    min_hp=_BOUND, max_hp=_BOUND, **{location: _whole(1, 100) for location in LOCATIONS})},
    above_step=_whole(1, 20))
ARMOR_PACK = {"type": "object", "minProperties": 1, "maxProperties": 100, "propertyNames": _NAME,
              "additionalProperties": _whole(0, 30)}
_LENGTH = {"type": ["number", "null"], "minimum": 0, "maximum": 1000}
WEAPON = {**_record(False, damage=DICE_SHAPE, type={"enum": list(WEAPON_TYPES)}, sr=_whole(0, 10), length_m=_LENGTH,
                    ap=_whole(0, 60), hands=_whole(1, 2), flexible={"type": "boolean"}, bladed={"type": "boolean"},
                    hafted={"type": "boolean"}, long_hafted={"type": "boolean"}, hacking={"type": "boolean"},
                    kind={"enum": list(WEAPON_KINDS)}, effective_range_m=_LENGTH),
          "required": ["damage", "type"]}
WEAPON_PACK = _record(
    weapons={"type": "object", "maxProperties": 100, "propertyNames": _NAME, "additionalProperties": WEAPON},
    shields={"type": "object", "maxProperties": 100, "propertyNames": _NAME,
             "additionalProperties": _record(size={"enum": list(SHIELD_SIZES)}, ap=_whole(0, 60))})
DEGREE_FRACTIONS = _record(critical=FRACTION, special=FRACTION, fumble=FRACTION)
CLAMP = {"type": "array", "minItems": 2, "maxItems": 2, "items": _whole(0, 100)}
SHIELD_COVER = _record(**{size: _whole(0, 7) for size in SHIELD_SIZES})
_MISSILE_PARRY = {"anyOf": [{"const": "critical_only"}, FRACTION]}
SMALL_SHIELD_MISSILE = _record(normal=_MISSILE_PARRY, point_blank=_MISSILE_PARRY)
