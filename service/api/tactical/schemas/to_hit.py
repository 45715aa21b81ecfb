"""Schemas of /v1/tactical/to-hit and /v1/tactical/range: shapes and bounds only (rules live in the domain)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, RollSchema, seed_field, trace_field
from service.api.tactical.fields import SCORE, TaskResolutionSchema, defaults
from service.rules.tactical.ranged import BANDS, WEAPON_NAMES

PENALTY = validate.Range(0, 10_000)
USES = validate.Range(1, 100)
DISTANCE = validate.Range(0, 100_000)


def _float(bounds: validate.Range, text: str, default: float | None = None) -> fields.Float:
    extra = {"load_default": default} if default is not None else {"required": True}
    return JsonFloat(allow_nan=False, validate=bounds, metadata={"description": text}, **extra)



class Whole(fields.Float):
    """A number shown as an integer when it is whole (60, not 60.0), else as a float (57.5)."""

    def _format_num(self, value: Any) -> Any:
        number = float(value)
        return int(number) if number.is_integer() else number


class ThrownObjectSchema(Schema):
    """A non-weapon object thrown on a hurled weapon's ranges (A40); size and height in one unit."""

    size = _float(validate.Range(0, 10_000, min_inclusive=False), "Object size.")
    height = _float(validate.Range(0, 10_000, min_inclusive=False), "Thrower's height (same unit as size).")
    weight_pounds = _float(validate.Range(0, 1_000_000, min_inclusive=False), "Object weight in lb.")
    light_enc = _float(validate.Range(0, 1_000_000, min_inclusive=False), "Thrower's Light ENC limit in lb.")


class RangeShotSchema(Schema):
    """Weapon, shooter's STR, distance and target elevation, in the weapon's unit (yd or ft)."""

    weapon = fields.String(required=True, validate=validate.OneOf(WEAPON_NAMES),
                           metadata={"description": "The ranged weapon (`GET /v1/rulesets/tactical` lists "
                                                    "them)."})
    strength = bounded(validate.Range(0, 100), "Shooter's STR (ignored by crossbows).", 13)
    distance = _float(DISTANCE, "Distance to the target in the weapon's unit.")
    elevation = _float(validate.Range(-100_000, 100_000), "Target height above the shooter (below: no effect).",
                       0)
    object = fields.Nested(ThrownObjectSchema, metadata={"description": "A thrown non-weapon object (hurled "
                                                                        "only)."})


class RangedTargetSchema(Schema):
    """What a ranged target offers (RULINGS 8)."""

    aware = JsonBoolean(load_default=True,
                        metadata={"description": "Whether the target knows he is shot at (aware targets "
                                                 "offer their Dodge DV)."})
    dodge_dv = bounded(validate.Range(0, 10_000), "Dodge DV incl. cover and Acrobat bonus (aware).", 0)
    agl_mod = bounded(validate.Range(-100, 100), "AGL att. mod. (unaware, in motion).", 0)
    moving_mph = _float(validate.Range(0, 1_000), "Speed moving point to point.", 0)
    shield_bonus = bounded(validate.Range(0, 1_000), "Shield coverage bonus.", 0)
    in_motion = JsonBoolean(load_default=False, metadata={"description": "Busy with something that keeps "
                                                                             "it moving."})


class RangedShotSchema(RangeShotSchema):
    """A ranged shot: weapon, STR, distance, elevation and the target's defence."""

    target = fields.Nested(RangedTargetSchema, load_default=lambda: defaults(RangedTargetSchema),
                           metadata={"description": "What the target offers against the shot."})


class ToHitOptionsSchema(Schema):
    """Rule switches of one to-hit roll."""

    heroic = JsonBoolean(load_default=True, metadata={"description": "Heroic Effects (RULINGS 6)."})
    bumble = JsonBoolean(load_default=True, metadata={"description": "Bumbles (RULINGS 6)."})


class ToHitRequestSchema(Schema):
    """AV against either a melee `dv` or a `ranged` shot (exactly one), with the situation around it."""

    EXAMPLE = {"av": 60, "dv": 45, "seed": 42}

    av = bounded(SCORE, "Attacker's weapon AV.")
    dv = JsonInteger(validate=SCORE,
                        metadata={"description": "Defence DV (melee); give this or `ranged`."})
    ranged = fields.Nested(RangedShotSchema, metadata={"description": "A ranged shot; give this or `dv`."})
    task_resolution = fields.Nested(TaskResolutionSchema, load_default=lambda: defaults(TaskResolutionSchema),
                                    metadata={"description": "Which Task Resolution Table to use."})
    attack_use = bounded(USES, "n-th use of the attack skill this CS (RULINGS 7).", 1)
    defence_use = bounded(USES, "n-th use of this defence this CS (RULINGS 7).", 1)
    free_defence_uses = bounded(USES, "Uses before halving starts (RULINGS 7).", 1)
    reprisal_same_weapon = JsonBoolean(load_default=False, metadata={
        "description": "Defending a Reprisal with the weapon that just missed: its DV at `defence_use` (count "
                       "the uses before the failed attack, not that attack) is halved for this Reprisal only "
                       "(seed \"Reprisal\"); the segment resolver does the same."})
    surprise_penalty = bounded(PENALTY, "Surprise penalty off the defence DV.", 0)
    attacker_stun_penalty = bounded(PENALTY, "Attacker's stun-by-pain penalty off his AV (RULINGS 14).", 0)
    defender_stun_penalty = bounded(PENALTY, "Defender's stun-by-pain penalty off his DV (RULINGS 14).", 0)
    options = fields.Nested(ToHitOptionsSchema, load_default=lambda: defaults(ToHitOptionsSchema),
                            metadata={"description": "Rule switches."})
    roll = JsonInteger(validate=validate.Range(1, 100),
                          metadata={"description": "Your own d100 (1..100, 00 = 100); a roll is made only "
                                                   "when this or `seed` is given."})
    seed = seed_field()
    receipt = receipt_field()


class RangeRequestSchema(RangeShotSchema):
    """A ranged weapon, STR, distance and elevation (and maybe a thrown object)."""

    EXAMPLE = {"weapon": "bow", "strength": 13, "distance": 85}


class RangeLimitsSchema(Schema):
    """Where each range band ends, in the weapon's unit."""

    point_blank = JsonInteger(required=True, metadata={"description": "End of point-blank range."})
    short = Whole(required=True, metadata={"description": "End of short range."})
    medium = Whole(required=True, metadata={"description": "End of medium range."})
    long = Whole(required=True, metadata={"description": "End of long range."})
    maximum = JsonInteger(required=True, allow_none=True,
                          metadata={"description": "Maximum range (null: none)."})


class RangeShareSchema(Schema):
    """One band's share of the range DV modifier."""

    band = fields.String(required=True, validate=validate.OneOf(BANDS[1:]),
                         metadata={"description": "The band."})
    share = JsonInteger(required=True, metadata={"description": "DV it adds."})


class RangeReadingSchema(Schema):
    """Band, limits and the range DV modifier with its per-band shares (RULINGS 9, A9)."""

    weapon = fields.String(required=True, metadata={"description": "The weapon."})
    unit = fields.String(required=True, validate=validate.OneOf(["yd", "ft"]),
                         metadata={"description": "The unit of its ranges: yd or ft."})
    band = fields.String(required=True, validate=validate.OneOf(BANDS),
                         metadata={"description": "The band the distance falls in."})
    limits = fields.Nested(RangeLimitsSchema, required=True,
                           metadata={"description": "Where each band ends."})
    dv_modifier = JsonInteger(required=True, metadata={"description": "DV the range adds to the shot."})
    band_shares = fields.List(fields.Nested(RangeShareSchema), required=True,
                              metadata={"description": "The modifier, band by band."})
    object_factor = Whole(allow_none=True, metadata={"description": "A40 multiplier, null when none."})
    too_close = JsonBoolean(required=True, metadata={
        "description": "The figures are under 5 ft apart, too close for ranged combat: the calculators still "
                       "answer, a Combat Segment refuses the shot."})


class RangeSchema(RangeReadingSchema):
    """Range band, band limits and the range DV modifier of a shot, with its trace."""

    trace = trace_field()


class OutcomeProbabilitiesSchema(Schema):
    """Exact chance of each outcome of the d100 (they add up to 1)."""

    heroic = JsonFloat(required=True, metadata={"description": "Chance of a Heroic success."})
    success = JsonFloat(required=True, metadata={"description": "Chance of an ordinary success."})
    failure = JsonFloat(required=True, metadata={"description": "Chance of an ordinary failure."})
    bumble = JsonFloat(required=True, metadata={"description": "Chance of a Bumble."})


class ToHitSchema(Schema):
    """The chance, Heroic/Bumble edges and exact outcome odds; the roll and outcome when dice were asked for."""

    av = JsonInteger(required=True, metadata={"description": "Attack value after adjustments."})
    dv = JsonInteger(required=True,
                     metadata={"description": "Defence value after adjustments (ranged: from the target and "
                                              "the range)."})
    chance_percent = JsonInteger(required=True,
                                 metadata={"description": "Chance to hit, in percent (Task Resolution Table)."})
    heroic_max_roll = JsonInteger(required=True,
                                  metadata={"description": "Highest d100 roll that is Heroic (0: none)."})
    bumble_min_roll = JsonInteger(required=True,
                                  metadata={"description": "Lowest d100 roll that is a Bumble (101: none)."})
    probabilities = fields.Nested(OutcomeProbabilitiesSchema, required=True,
                                  metadata={"description": "Exact chance of each outcome."})
    range = fields.Nested(RangeReadingSchema, required=True, allow_none=True,
                          metadata={"description": "The range reading of a ranged shot (null: melee)."})
    roll = fields.Nested(RollSchema, metadata={"description": "The d100 rolled (with `roll` or `seed`)."})
    outcome = fields.String(validate=validate.OneOf(["heroic", "success", "failure", "bumble"]),
                            metadata={"description": "heroic, success, failure or bumble (when rolled)."})
    seed = JsonInteger(allow_none=True, metadata={"description": "The seed used (when rolled)."})
    trace = trace_field()
    receipt = receipt_answer_field()
