"""Schemas of a fighter's make-up shared by /combatant and the encounter state: characteristics, abilities,
and weapons or armor given as statistics or as a pack name (options `weapon_pack`, `armor_pack`)."""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from service.api.kit.fields import flag, whole
from service.api.kit.schemas import Strict
from service.rules.ars_magica.totals import ABILITIES, CHARACTERISTICS

RANGES = ("touch", "reach", "close", "missile")


class CharacteristicsSchema(Strict):
    """The eight characteristics, -10..10 (default 0)."""

    locals().update({name: whole(-10, 10, f"{name.title()} (default 0).") for name in CHARACTERISTICS})


class AbilitiesSchema(Strict):
    """Abilities used in combat, 0..30 (default 0): the weapon skill in use, Dodge, Athletics, Ride, Brawl."""

    locals().update({name: whole(0, 30, f"{name.title()} (default 0).") for name in ABILITIES})


class WeaponSchema(Strict):
    """A weapon's statistics (ArM4 values; every bonus defaults to 0)."""

    name = fields.String(allow_none=True, validate=validate.Length(1, 40), metadata={"description": "A label."})
    init = whole(-20, 20, "Weapon initiative bonus.")
    attack = whole(-20, 20, "Weapon attack bonus.")
    defence = whole(-20, 20, "Weapon defence bonus.")
    damage = whole(-20, 20, "Weapon damage bonus.")
    missile = flag("A missile weapon (damage without Str and Size).", None)
    range = fields.String(validate=validate.OneOf(RANGES), metadata={"description": "Effective range: touch, "
                                                                                   "reach, close or missile."})


class ArmorSchema(Strict):
    """Armor as its protection."""

    protection = whole(0, 50, "Protection added to Soak.", required=True)


class ShieldSchema(Strict):
    """A shield as its defence bonus."""

    defence = whole(0, 20, "Defence bonus (to Defence and to missile ease factors).", required=True)


def _bonus(text: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": -20, "maximum": 20, "description": text}


SHAPES: dict[str, dict[str, Any]] = {
    "WeaponSchema": {"type": "object", "additionalProperties": False, "description": "Weapon statistics.",
                     "properties": {"name": {"type": ["string", "null"], "minLength": 1, "maxLength": 40},
                                    "init": _bonus("Initiative bonus."), "attack": _bonus("Attack bonus."),
                                    "defence": _bonus("Defence bonus."), "damage": _bonus("Damage bonus."),
                                    "missile": {"type": "boolean", "description": "A missile weapon."},
                                    "range": {"type": "string", "enum": list(RANGES), "description": "Range."}}},
    "ArmorSchema": {"type": "object", "additionalProperties": False, "required": ["protection"],
                    "description": "Armor protection.",
                    "properties": {"protection": {"type": "integer", "minimum": 0, "maximum": 50,
                                                  "description": "Protection added to Soak."}}},
}


class PackOr(fields.Field):
    """Statistics as an object, or a name in the ruleset's pack."""

    def __init__(self, schema: type, pack: str, **kwargs: Any):
        self.schema = schema()
        shape = SHAPES[schema.__name__]
        choices = [shape, {"type": "string", "minLength": 1, "maxLength": 40}]
        if kwargs.get("allow_none") or ("load_default" in kwargs and kwargs["load_default"] is None):
            kwargs["allow_none"] = True
            choices.append({"type": "null"})
        super().__init__(metadata={"oneOf": choices,
                                   "description": f"Statistics, or a name in option `{pack}`."}, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 1 <= len(value) <= 40:
            return value
        if isinstance(value, dict):
            return self.schema.load(value)
        raise ValidationError("must be an object of statistics or a pack name")

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return value
