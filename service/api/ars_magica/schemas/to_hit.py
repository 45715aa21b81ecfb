"""Schemas of /v1/ars-magica/to-hit: shapes and bounds only."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica.fields import (
    CommonAnswerSchema,
    botch_dice_schema,
    exact_text,
    options_field,
    outcome_schema,
    probability,
    rolls_schema,
)
from service.api.kit.fields import choice, flag, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonFloat, JsonInteger, Strict, seed_field

MOVEMENTS = ("still", "walking", "hustling", "sprinting")


class AttackModifiersSchema(Strict):
    """Situational modifiers added to the attack total (OTHER MODIFIERS, *All-out attack*)."""

    high_ground = flag("High ground or horseback: +3.")
    side = flag("Attack from the side: +1.")
    behind = flag("Attack from behind: +3.")
    mounted_vs_foot = flag("Mounted against a footman: +3.")
    all_out = flag("All-out attack (after a preparing round): +3.")
    darkness = whole(0, 3, "Darkness: -1 to -3.", 0)


class DefenceModifiersSchema(Strict):
    """Situational modifiers added to the defence total (OTHER MODIFIERS, *Combat considerations*)."""

    high_ground = flag("High ground or horseback: +3.")
    mounted_vs_foot = flag("Mounted against a footman: +3.")
    desperate = flag("Desperate defence: +6.")
    hold_ground = flag("Holding ground: -2.")


class MissileSchema(Strict):
    """A shot, as the MISSILE FIRE TABLE sees it."""

    distance_yd = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 100_000),
                            metadata={"description": "Distance to the target in yards."})
    spell = flag("Spell targeting: the two nearest bands use the spell column.")
    obscured = flag("Target obscured by darkness or cover: +3.")
    target_movement = choice(MOVEMENTS, "Target's pace: hustling +3, sprinting +6 + its Qik.", "still")
    target_qik = whole(-10, 10, "Target's Quickness (counts when sprinting).", 0)
    target_size = whole(-10, 10, "Target's Size (subtracted).", 0)
    target_dodge = JsonInteger(load_default=None, allow_none=True, validate=validate.Range(-50, 100),
                               metadata={"description": "Target's Dodge total when dodging (null: not dodging)."})
    shield_defence = whole(0, 20, "Defence bonus of the target's shield.", 0)
    into_melee = flag("Shooting into a melee: +3, and a roll that misses only by it hits a friend.")


ROLES = {"attack": "Attack stress die.", "defence": "Defence stress die.",
         "attack_botch": "Botch dice of the attack roll.", "defence_botch": "Botch dice of the defence roll."}


class ToHitRequestSchema(Strict):
    """An attack total against a melee `defence` or a `missile` shot (exactly one)."""

    EXAMPLE = {"attack": 12, "defence": 9, "attack_modifiers": {"side": True}, "seed": 7}
    receipt = receipt_field()

    attack = whole(-50, 100, "Attack total before situational modifiers.", required=True)
    attack_modifiers = fields.Nested(AttackModifiersSchema, load_default=dict,
                                     metadata={"description": "Added to the attack total."})
    defence = JsonInteger(validate=validate.Range(-50, 100),
                          metadata={"description": "Defence total (melee); give this or `missile`."})
    defence_mode = choice(("roll", "total", "surprised"), "roll: the defender's one roll this round; total: a "
                          "later attack (no die); surprised: the die alone.", "roll")
    defence_modifiers = fields.Nested(DefenceModifiersSchema, load_default=dict,
                                      metadata={"description": "Added to the defence total."})
    missile = fields.Nested(MissileSchema, metadata={"description": "A shot; give this or `defence`."})
    botch_dice = botch_dice_schema("ToHitBotchDiceSchema", ("attack", "defence"))
    options = options_field()
    seed = seed_field()
    rolls = rolls_schema("ToHitRollsSchema", ROLES)


class ToHitRollSchema(Schema):
    """The attack as rolled."""

    attack_roll = fields.Integer(required=True, metadata={"description": "Attack total + stress die (0 when "
                                                                         "botched)."})
    defence_roll = fields.Integer(required=True, allow_none=True,
                                  metadata={"description": "Defence total + die, the bare total (`total`), the "
                                                           "die alone (`surprised`); null for missiles."})
    attack_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (attack)."})
    defence_botches = fields.Integer(required=True, metadata={"description": "Botch dice showing 0 (defence)."})
    margin = fields.Integer(required=True, metadata={"description": "attack_roll - defence_roll (missiles: - "
                                                                    "ease_factor)."})
    outcome = fields.String(required=True, validate=validate.OneOf(("miss", "friend", "hit", "exceptional")),
                            metadata={"description": "What the roll did."})


OUTCOMES = ("miss", "friend", "hit", "exceptional")


class ToHitSchema(CommonAnswerSchema):
    """The odds of the attack (exact), and the roll when one was made."""
    receipt = receipt_answer_field()

    mode = choice(("melee", "missile"), "Melee or missile.", required=True)
    attack_total = fields.Integer(required=True, metadata={"description": "After modifiers."})
    defence_total = fields.Integer(required=True, allow_none=True,
                                   metadata={"description": "After modifiers (null for missiles or surprised)."})
    ease_factor = fields.Integer(required=True, allow_none=True, metadata={"description": "Missiles only."})
    chance = probability("P(the attack hits its target), exceptional blows included.", required=True)
    chance_exact = exact_text("P(the attack hits its target)", required=True)
    probabilities = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.Float(),
                                required=True, metadata={"description": "Exclusive outcomes: melee miss, hit, "
                                                                        "exceptional; missiles add friend."})
    probabilities_exact = fields.Dict(keys=fields.String(validate=validate.OneOf(OUTCOMES)), values=fields.String(),
                                      required=True, metadata={"description": "The same, as exact fractions."})
    botch_probabilities = fields.Nested(outcome_schema("BotchOddsSchema", ("attack", "defence"), False,
                                                       "P(that roll botches)."), required=True,
                                        metadata={"description": "P(the attack roll botches), P(the defence roll "
                                                                 "botches)."})
    botch_probabilities_exact = fields.Nested(outcome_schema("BotchOddsExactSchema", ("attack", "defence"), True,
                                                             "P(that roll botches), exact."), required=True,
                                              metadata={"description": "The same, as exact fractions."})
    roll = fields.Nested(ToHitRollSchema, required=True, allow_none=True,
                         metadata={"description": "The roll (null unless `seed` or `rolls` was sent)."})
