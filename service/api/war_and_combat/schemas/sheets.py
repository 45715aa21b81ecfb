"""Schemas of /v1/war-and-combat/wounds, /combatant and /movement (rules document §12.5-12.7): shapes and
bounds only."""
from __future__ import annotations

from marshmallow import fields, validate

from service.api.kit.fields import choice, whole
from service.api.kit.schemas import JsonBoolean, JsonFloat, Strict, trace_field
from service.api.war_and_combat.fields import LOCATION_SPECIFIC, options_field
from service.api.war_and_combat.schemas.damage import ThresholdsSchema
from service.api.war_and_combat.state import WeaponSchema
from service.rules.war_and_combat import movement
from service.rules.war_and_combat.damage import SEVERITIES


class WoundInSchema(Strict):
    """One wound."""

    location = fields.String(required=True, validate=LOCATION_SPECIFIC, metadata={"description": "Specific location."})
    severity = choice(SEVERITIES, "light, serious, critical or mortal.", required=True)
    penetrating = JsonBoolean(load_default=False, metadata={"description": "The blow penetrated."})


class WoundsRequestSchema(Strict):
    """A fighter's wounds."""

    EXAMPLE = {"wounds": [{"location": "left_leg", "severity": "serious", "penetrating": True},
                          {"location": "right_arm", "severity": "light"}], "fighter_rank": 5, "agl_mod": 1}

    wounds = fields.List(fields.Nested(WoundInSchema), required=True, validate=validate.Length(max=100),
                         metadata={"description": "Every wound taken."})
    fighter_rank = whole(0, 50, "Fighter rank (for `defence`).")
    agl_mod = whole(-10, 10, "Agility modifier.", 0)
    stunned = JsonBoolean(load_default=False, metadata={"description": "The fighter is stunned now (RULINGS 21): "
                                                                       "`defence` is then the stunned Defense and "
                                                                       "`can_act` false. Default: the state after "
                                                                       "the stun."})
    options = options_field()


class StunSchema(Strict):
    """The stun a serious head, chest or belly wound causes, timed from the hit (RULINGS 21)."""

    rounds = fields.String(required=True, metadata={"description": "Rounds without action: the `stun_rounds` "
                                                                   "option's dice (default \"1d6\")."})
    defence = whole(-1000, 1000, "Defense while stunned: 5 + floor(FR/2), no agility (with fighter_rank).",
                    required=True, allow_none=True)


class LocationStateSchema(Strict):
    """A location's worst wound and its penalty."""

    worst = fields.String(required=True, allow_none=True, metadata={"description": "Worst severity (null: unhurt)."})
    penalty = whole(-7, 0, "Its action penalty (mortal 0).", required=True)


class WoundsSchema(Strict):
    """What the wounds add up to."""

    action_penalty = whole(-1000, 0, "Sum over locations of each one's worst wound.", required=True)
    per_location = fields.Dict(keys=fields.String(), values=fields.Nested(LocationStateSchema), required=True,
                               metadata={"description": "Every specific location."})
    disabled_limbs = whole(0, 4, "Limbs disabled.", required=True)
    unconscious = JsonBoolean(required=True, metadata={"description": "A head critical."})
    immobile = JsonBoolean(required=True, metadata={"description": "A chest critical."})
    mortal = JsonBoolean(required=True, metadata={"description": "Any mortal wound."})
    can_act = JsonBoolean(required=True, metadata={"description": "Neither unconscious, mortally wounded nor "
                                                                  "stunned (`stunned: true`)."})
    coup_de_grace_eligible = JsonBoolean(required=True, metadata={"description": "Three limbs disabled, "
                                                                  "unconscious or mortally wounded."})
    defeated = JsonBoolean(required=True, metadata={"description": "Out of the fight (§8)."})
    movement = choice(("normal", "half", "crawl", "none"), "Movement left.", required=True)
    defence = whole(-1000, 1000, "Defense in the worst state the wounds leave once any stun is over (the stunned "
                    "Defense with `stunned: true`); with fighter_rank (RULINGS 21).", required=True, allow_none=True)
    stun = fields.Nested(StunSchema, required=True, allow_none=True,
                         metadata={"description": "The stun a serious head, chest or belly wound causes; null: "
                                                  "none (RULINGS 21)."})
    trace = trace_field()


class CombatantRequestSchema(Strict):
    """A fighter's sheet numbers."""

    EXAMPLE = {"fighter_rank": 7, "agl_mod": 1, "size": 10, "strength": 12,
               "weapons": [{"name": "sword", "skill": 6}, {"name": "bow", "skill": 4}]}

    fighter_rank = whole(0, 50, "Fighter rank.", required=True)
    agl_mod = whole(-10, 10, "Agility modifier.", 0)
    dex_mod = whole(-10, 10, "Dexterity modifier (missile weapons).", 0)
    size = whole(0, 200, "Size.", required=True)
    strength = whole(-20, 100, "STR.")
    weapons = fields.List(fields.Nested(WeaponSchema), validate=validate.Length(max=4),
                          metadata={"description": "Weapons (a starter-pack name fills in the rest)."})
    options = options_field()


class WeaponLineSchema(Strict):
    """A weapon's attack bonus and impact."""

    name = fields.String(required=True, metadata={"description": "Weapon name."})
    attack_bonus = whole(-1000, 1000, "Skill + agility (dexterity for missiles).", required=True)
    impact_cap = whole(-1000, 1000, "STR + impact modifier (or the weapon's fixed cap).", required=True)
    impact_dice = fields.String(required=True, metadata={"description": "Impact dice of that cap."})


class CombatantSheetSchema(Strict):
    """A fighter's derived values."""

    defence = whole(-1000, 1000, "Defense = 10 + FR + agility.", required=True)
    defence_by_state = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                                   metadata={"description": "Defense in every state of §4."})
    actions_per_flurry = whole(0, 100, "2 + FR/5.", required=True)
    initiative_bonus = whole(0, 100, "Added to 3d6 for initiative (FR).", required=True)
    thresholds = fields.Nested(ThresholdsSchema, required=True, metadata={"description": "From size."})
    weapons = fields.List(fields.Nested(WeaponLineSchema), required=True,
                          metadata={"description": "With strength and weapons given."})
    trace = trace_field()


class StepSchema(Strict):
    """One step of a path."""

    kind = choice(("step", "pivot"), "A step into a hex, or a pivot in place.", "step")
    direction = choice(("front", "flank", "rear"), "Which side the entered hex is on.", "front")
    terrain = choice(movement.TERRAINS, "Terrain of the entered hex.", "open")
    dominant = choice(tuple(t for t in movement.TERRAINS if t != "treacherous"), "Treacherous ground's dominant "
                      "terrain.", "open")
    uphill = JsonBoolean(load_default=False, metadata={"description": "Uphill: cost doubled."})
    obstacle = JsonBoolean(load_default=False, metadata={"description": "Over, under or through an obstacle: +1 "
                                                                       "and a skill roll."})


class MovementRequestSchema(Strict):
    """A pace, impaired legs and a path of steps."""

    EXAMPLE = {"pace": "jog", "steps": [{"terrain": "open"}, {"direction": "flank", "terrain": "rough"},
                                        {"kind": "pivot"}, {"terrain": "slick", "obstacle": True}]}

    pace = choice(movement.MOVE_PACES, "Pace.", required=True)
    legs_impaired = whole(0, 2, "Impaired legs.", 0)
    steps = fields.List(fields.Nested(StepSchema), load_default=list, validate=validate.Length(max=100),
                        metadata={"description": "Steps in order."})
    options = options_field()


class MovementQuerySchema(Strict):
    """A pace and impaired legs (query parameters)."""

    pace = fields.String(required=True, validate=validate.OneOf(movement.MOVE_PACES),
                         metadata={"description": "Pace.", "example": "walk"})
    legs_impaired = fields.Integer(load_default=0, validate=validate.Range(0, 2),
                                   metadata={"description": "Impaired legs.", "example": 0})


class StepCostSchema(Strict):
    """One step's cost."""

    cost = whole(0, 100, "Points.", required=True)
    total = whole(0, 100_000, "Points so far.", required=True)
    phase = whole(1, 100_000, "1 = movement phase of the first round, 2 = its adjustment phase, ...",
                  required=True, allow_none=True)
    over_max_pace = JsonBoolean(required=True, metadata={"description": "Pace above the terrain's max."})
    roll_needed = JsonBoolean(required=True, metadata={"description": "A balance or obstacle roll is needed."})


class MovementSchema(Strict):
    """Movement points, phases, conversions, step costs."""

    pace = fields.String(required=True, metadata={"description": "Pace."})
    hexes_per_round = whole(0, 100, "Full move.", required=True)
    hexes_per_phase = whole(0, 100, "Half of it (floor).", required=True)
    metres_per_round = JsonFloat(required=True, metadata={"description": "2 m a hex."})
    metres_per_second = JsonFloat(required=True, metadata={"description": "Over 5 s."})
    metres_per_second_exact = fields.String(required=True, metadata={"description": "Exactly."})
    feet_per_round = JsonFloat(required=True, metadata={"description": "Feet a round."})
    feet_per_round_exact = fields.String(required=True, metadata={"description": "Exactly."})
    round_seconds = whole(5, 5, "Seconds a round.", required=True)
    hex_metres = whole(2, 2, "Metres a hex.", required=True)
    action_penalty = whole(-10, 0, "Pace penalty to skill rolls.", required=True)
    steps = fields.List(fields.Nested(StepCostSchema), required=True, metadata={"description": "Each step."})
    total_cost = whole(0, 100_000, "All steps.", required=True)
    trace = trace_field()


