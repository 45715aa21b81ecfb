"""Schemas of the tactical calculators of where figures stand: knock-back into barriers (F16, F17), melee
spacing (A44) and repeated dodges (F37); shapes and bounds only, the rules live in the domain."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.tactical.maneuver_fields import (
    FEET,
    answer_chance,
    answer_exact,
    answer_int,
    progression_field,
    task_resolution_field,
)
from service.api.tactical.to_hit_schemas import SCORE


class KnockBackRequestSchema(Schema):
    """A blow's full POT as it lands, the target's size and footing, and maybe a barrier (F16, F17)."""

    pot = bounded(validate.Range(0, 100_000), "Full POT as the blow lands, before armor.")
    modified_sta = bounded(SCORE, "The target's modified STA.")
    barrier_feet = JsonFloat(allow_nan=False, validate=FEET, metadata={"description": "Feet to a wall or obstacle "
                                                                                      "behind the target."})
    agl_av = JsonInteger(validate=SCORE, metadata={"description": "The target's AGL AV, for the footing chance."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class KnockBackSchema(Schema):
    """How far the target flies, what a barrier adds to the blow, and keeping his feet."""

    feet = answer_int("Feet knocked back: full POT over modified STA.")
    travelled_feet = JsonFloat(required=True, metadata={"description": "Feet actually travelled (a barrier stops "
                                                                       "him early)."})
    barrier_bonus = answer_int("Feet not travelled, added to the POT for its effects (A25).")
    effective_pot = answer_int("POT for armor, wounds and P-RES: the blow's POT + the barrier bonus (A25).")
    keep_feet_dv = answer_int("DV of the AGL check to stay standing: Progressive(feet).")
    keep_feet_chance = answer_chance("Percent chance to keep his feet (with agl_av).")
    keep_feet_chance_exact = answer_exact()
    trace = trace_field()


class MeleeSpacingRequestSchema(Schema):
    """Weapon Sizes and the foe's height, in one unit (A44)."""

    foe_weapon_size = bounded(validate.Range(0, 100), "Size of the foe's weapon.")
    foe_height = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 1_000, min_inclusive=False),
                           metadata={"description": "The foe's height, in the same unit as Size (A44)."})
    attacker_weapon_size = bounded(validate.Range(0, 100), "Size of the attacker's weapon.")
    scale = fields.String(load_default="25mm", validate=validate.OneOf(["25mm", "10mm", "5mm"]),
                          metadata={"description": "Figure scale for the spacing in mm."})


class MeleeSpacingSchema(Schema):
    """Close or common melee, the spacing between bases, and whether the foe's body is out of reach."""

    mode = fields.String(required=True, metadata={"description": "close or common."})
    spacing_feet = JsonFloat(required=True, metadata={"description": "Size - height/2 (0 in close melee)."})
    spacing_mm = JsonFloat(required=True, metadata={"description": "Between bases at the scale (F44)."})
    spacing_mm_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    body_blocked = JsonBoolean(required=True, metadata={
        "description": "Common melee and the foe's weapon is 2+ Sizes larger than the attacker's: his body is out "
                       "of reach."})
    trace = trace_field()


class DodgeRequestSchema(Schema):
    """A Dodge used again and again within one action (F37)."""

    dodge = bounded(validate.Range(0, 10_000), "The Dodge DV of the first use.")
    use = bounded(validate.Range(1, 100), "Which use in this action (1 = first).")
    sl = bounded(validate.Range(0, 1_000), "Dodge SL (free dodges for the listed trades).", 0)
    trained = JsonBoolean(load_default=False, metadata={"description": "Warrior, Assassin, Huntsman, Acrobat or "
                                                                       "Dancer: SL/10 dodges before halving."})


class DodgeSchema(Schema):
    """Every use's value and the asked use's state (never a DV of 0 standing for exhausted)."""

    free = answer_int("Dodges before the halving starts.")
    values = fields.List(JsonInteger(), required=True, metadata={"description": "Value of each use, in order, up "
                                                                               "to the asked one or the first 0."})
    use = answer_int("The use asked about.")
    dv = answer_int("Its DV, or null when exhausted.", nullable=True)
    state = fields.String(required=True, validate=validate.OneOf(["available", "exhausted"]),
                          metadata={"description": "available or exhausted."})
    trace = trace_field()
