"""The `tactical` simulation options: the numpy engine's rule switches (a matchup's `options`)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.schemas import JsonBoolean, JsonInteger


class OptionsSchema(Schema):
    """Rule switches of a simulation (defaults: RULINGS and the digest's defaults)."""

    method = fields.String(load_default="ratio", validate=validate.OneOf(["ratio", "linear"]),
                           metadata={"description": "Task Resolution Table method (RULINGS 4)."})
    heroic = JsonBoolean(load_default=True, metadata={"description": "A Heroic hit doubles the POT."})
    bumble = JsonBoolean(load_default=True, metadata={"description": "Count Bumbles (a miss either way)."})
    armor_wear = JsonBoolean(load_default=True, metadata={"description": "The optional Armor Wear rules (F20)."})
    reprisals = JsonBoolean(load_default=True, 
                               metadata={"description": "A missed attack gives a Reprisal."})
    progression = fields.String(load_default="triangular", validate=validate.OneOf(["triangular", "linear"]),
                                metadata={"description": "Progressive DVs and penalties (RULINGS 3)."})
    targeting = fields.String(load_default="first", validate=validate.OneOf(["first", "random"]),
                              metadata={"description": "Whom each attack strikes when it resolves: the "
                                                       "first foe still standing in matchup order (the "
                                                       "resolver's `target_policy: first-standing`), or "
                                                       "one of them at random (`random-standing`)."})
    policy = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "The fight policy: only `attack` (every standing combatant attacks with his first "
                       "weapon) is played; any other (`body-check`, `side-swipe`, `tackle`...) is refused "
                       "with a 422 naming this field, since the simulator leaves those maneuvers out.",
        "example": "attack"})
    max_segments = JsonInteger(load_default=100, validate=validate.Range(1, 1000),
                                  metadata={"description": "A fight still on after this many segments is "
                                                           "a draw."})
