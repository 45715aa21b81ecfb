"""Schemas of the tactical maneuvers around the blow: combinations (F38), body checks, side-swipes and tackles
(F39, F40), intimidation (F41), stray fire past a missed target and missile flight (A43), knock-back into
barriers (F16, F17), melee spacing (A44) and repeated dodges (F37); shapes and bounds only, the rules live in
the domain."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.tactical.fields import (
    FEET,
    SCORE,
    SMALL,
    SPEED,
    answer_chance,
    answer_exact,
    answer_int,
    odds_schemas,
    progression_field,
    task_resolution_field,
)


class CombinationRequestSchema(Schema):
    """Two attacks (or two defences) worked as one combination (F38), against a DV (or an attack's AV)."""

    EXAMPLE = {"kind": "in-concert", "values": [45, 30], "combination_sl": 12,
        "against": 40, "pots": [18, 9]}

    kind = fields.String(required=True, validate=validate.OneOf(["in-concert", "separate", "defensive"]),
                         metadata={"description": "in-concert: one roll, POT added; separate: each part rolls; "
                                                  "defensive: two defences against one attack."})
    values = fields.List(JsonInteger(validate=SCORE), required=True, validate=validate.Length(2, 2),
                         metadata={"description": "The two parts' AVs (defensive: DVs), the lead first."})
    combination_sl = bounded(validate.Range(0, 1_000), "The Combination skill SL.")
    against = bounded(SCORE, "The DV the attack meets (defensive: the attacker's AV).")
    pots = fields.List(JsonInteger(validate=validate.Range(0, 100_000)), validate=validate.Length(2, 2),
                       metadata={"description": "In concert only: the POT of each blow, added before armor."})
    initiative = JsonInteger(validate=SCORE, metadata={"description": "Attack/defence combination: the "
                                                                      "combiner's Initiative (with `foe_initiative`)."})
    foe_initiative = JsonInteger(validate=SCORE, metadata={"description": "The foe's Initiative."})
    task_resolution = task_resolution_field()


class CombinationSchema(Schema):
    """The value each roll of the combination uses, its chance, and the combined POT in concert."""

    EXAMPLE = {"values": [57], "cap": 75, "capped": False, "chances": [59], "chances_exact": ["59/100"], "pot": 27,
        "order": None, "trace": [{"rule": "Attack, Defense & Mixed Combinations (F38)",
        "detail": "lead 45 + Combination SL 12, at most 45 + 30 = 75", "value": 57}]}

    values = fields.List(JsonInteger(), required=True, metadata={"description": "AV (or DV) of each roll made."})
    cap = answer_int("The cap: both parts' values added.")
    capped = JsonBoolean(required=True, metadata={"description": "True when the cap cut the bonus."})
    chances = fields.List(JsonInteger(), required=True, metadata={"description": "Percent chance of each roll "
                                                                                 "(defensive: the attack's chance)."})
    chances_exact = fields.List(fields.String(), required=True, metadata={"description": "Exact fractions."})
    pot = answer_int("In concert: both blows' POT added, before armor.", nullable=True)
    order = fields.List(fields.String(), required=True, allow_none=True,
                        metadata={"description": "Attack/defence combination: the order the halves resolve in."})
    trace = trace_field()


class BodySchema(Schema):
    """One party to a body check, side-swipe or tackle."""

    agl_mod = bounded(SCORE, "AGL attribute modifier.")
    modified_sta = bounded(SCORE, "Modified STA (size).")
    str_mod = bounded(SCORE, "STR attribute modifier.")
    strength = bounded(SCORE, "STR score (footing check).")
    speed_mph = bounded(SPEED, "Speed in mph when moving.", 0)
    shield_size = bounded(SMALL, "Size of a shield borne (body check).", 0)
    armor_layers = bounded(SMALL, "Layers of armor worn (Progressive bonus on a body check).", 0)
    dodge = JsonInteger(validate=SCORE, metadata={"description": "Defender only: Dodge DV, to dodge instead of "
                                                                 "standing."})
    moving = JsonBoolean(load_default=False, metadata={"description": "Defender only: also moving (speeds add); implied by a speed_mph above 0."})


class BodyCheckRequestSchema(Schema):
    """A body check, side-swipe or tackle: both parties' numbers (F39, F40)."""

    EXAMPLE = {"kind": "body-check",
        "attacker": {"agl_mod": 2, "modified_sta": 16, "str_mod": 2, "strength": 15, "speed_mph": 8, "armor_layers": 2},
        "defender": {"agl_mod": 1, "modified_sta": 13, "str_mod": 0, "strength": 12}}

    kind = fields.String(load_default="body-check", validate=validate.OneOf(["body-check", "side-swipe", "tackle"]),
                         metadata={"description": "body-check, side-swipe or tackle."})
    attacker = fields.Nested(BodySchema, required=True, metadata={"description": "The one who charges in."})
    defender = fields.Nested(BodySchema, required=True, metadata={"description": "The one who stands or dodges."})
    task_resolution = task_resolution_field()
    progression = progression_field()


BODY_OUTCOMES = {"defender_bounced": "The attacker wins: the defender flies.",
                 "attacker_bounced": "The defender wins by the larger margin (after a Dodge: the attacker stumbles).",
                 "both_stop": "Both fail, or equal margins: both halt at close-melee distance."}
BodyOddsSchema, BodyOddsExactSchema = odds_schemas(
    "BodyOdds", BODY_OUTCOMES, ("Exclusive outcomes of the contested roll.", "The same outcomes as exact fractions."),
    dict.fromkeys(BODY_OUTCOMES, "Exact fraction."))


class BodyCheckSchema(Schema):
    """Both sides' values, the contest odds, bounce distances and the footing check."""

    attacker_av = answer_int("The attacker's AV (F39).")
    defender_dv = answer_int("The defender's value: the same sum, or Dodge + the mSTA bonus.")
    defence = fields.String(required=True, metadata={"description": "stand or dodge."})
    attacker_chance = answer_int("Attacker's percent chance in the contest.")
    defender_chance = answer_int("Defender's percent chance in the contest.")
    probabilities = fields.Nested(BodyOddsSchema, required=True, metadata={"description": "Exclusive outcomes."})
    probabilities_exact = fields.Nested(BodyOddsExactSchema, required=True, metadata={"description": "Exact."})
    defender_bounce_feet = answer_int("Feet the defender flies when he loses: the impact speed (the attacker's "
                                      "mph, + the defender's when both move) + the attacker's mSTA over his "
                                      "(F40, RULINGS 20).")
    attacker_bounce_feet = answer_int("Feet the attacker flies when the defender wins by the larger margin: the "
                                      "same impact speed + the defender's mSTA over his (F40, RULINGS 20); 0 "
                                      "against a Dodge, which bounces nobody.")
    footing_dv = answer_int("DV of the AGL check to keep one's feet after a successful body check.")
    footing_checks = fields.List(fields.String(), required=True,
                                 metadata={"description": "Who must make that AGL check."})
    trace = trace_field()


class IntimidationRequestSchema(Schema):
    """A Presence attack joined to a blow that put POT through (F41)."""

    EXAMPLE = {"presence_av": 30, "intimidate_sl": 14, "pot_through": 6, "target_dv": 35, "target_presence_sl": 4,
        "target_hrt_mod": 2, "allies_standing": 2, "allies_fallen": 1}

    presence_av = bounded(SCORE, "The attacker's Presence (Intimidate) AV.")
    intimidate_sl = bounded(validate.Range(0, 1_000), "The attacker's Intimidate SL (for the guard drop, F41).")
    pot_through = bounded(validate.Range(1, 100_000), "POT (or damage) that got through to the target; at least 1.")
    reprisal = JsonBoolean(load_default=False, metadata={"description": "The blow was a Reprisal: the POT bonus "
                                                                        "becomes Progressive."})
    target_dv = bounded(SCORE, "The target's base DV to resist.")
    target_presence_sl = bounded(validate.Range(0, 1_000), "The target's highest Presence SL.", 0)
    target_hrt_mod = bounded(SCORE, "The target's HRT attribute modifier.", 0)
    allies_standing = bounded(validate.Range(0, 10_000), "Fellows still standing on the target's side.", 0)
    allies_fallen = bounded(validate.Range(0, 10_000), "Fellows fallen on the target's side.", 0)
    equal_values = fields.String(load_default="target", validate=validate.OneOf(["target", "attacker"]),
                                 metadata={"description": "When AV equals DV, whose side it counts for ([DEF])."})
    task_resolution = task_resolution_field()
    progression = progression_field()


INTIMIDATION_OUTCOMES = {"backs_off": "Success, DV above AV: backs off to retreat.",
                         "surrenders": "Success, AV above DV: breaks and surrenders.",
                         "unaffected": "Failure, DV above AV: no effect.",
                         "guard_drops": "Failure, AV above DV: DV drops next CS (F41)."}
IntimidationOddsSchema, IntimidationOddsExactSchema = odds_schemas(
    "IntimidationOdds", INTIMIDATION_OUTCOMES,
    ("Exclusive outcomes of the intimidation.", "The same outcomes as exact fractions."),
    dict.fromkeys(INTIMIDATION_OUTCOMES, "Exact fraction."))


class IntimidationSchema(Schema):
    """The contest's values, the odds of each outcome, and the follow-up DV drop."""

    av = answer_int("Presence AV + POT bonus.")
    dv = answer_int("Target DV + Presence SL + standing - fallen.")
    attacker_chance = answer_int("Attacker's percent chance in the contest.")
    target_chance = answer_int("Target's percent chance in the contest.")
    probabilities = fields.Nested(IntimidationOddsSchema, required=True, metadata={"description": "Outcomes."})
    probabilities_exact = fields.Nested(IntimidationOddsExactSchema, required=True, metadata={"description": "Exact."})
    guard_drop = answer_int("On guard-drops: the DV the target loses against this attacker next CS (F41).")
    surrender_check_dv = answer_int("On surrenders: the HRT check DV (the POT that got through).")
    trace = trace_field()


class BystanderSchema(Schema):
    """A figure on the line of fire beyond the missed target."""

    id = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Who it is."})
    modified_sta = bounded(SCORE, "The figure's modified STA.")
    dv = bounded(SCORE, "The DV the figure offers as a target of this shot.")
    distance = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Distance from the shooter, in the band's unit."})


class StrayFireRequestSchema(Schema):
    """A missed shot and who stands beyond the target, up to the end of its range band."""

    EXAMPLE = {"av": 40, "target_modified_sta": 14, "band_end": 60,
        "bystanders": [{"id": "mule", "modified_sta": 20, "dv": 6, "distance": 48},
        {"id": "boy", "modified_sta": 9, "dv": 12, "distance": 55}]}

    av = bounded(SCORE, "The shooter's AV.")
    target_modified_sta = bounded(SCORE, "The missed target's modified STA.")
    band_end = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Where the target's range band ends (same unit as distance)."})
    bystanders = fields.List(fields.Nested(BystanderSchema), required=True, validate=validate.Length(0, 200),
                             metadata={"description": "Figures whose Zone the extended line crosses."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class StrayTargetSchema(Schema):
    """One figure in line: its DV with the size modifier, its chance, and the chance it is the one hit."""

    id = fields.String(required=True, metadata={"description": "Who it is."})
    size_modifier = answer_int("Progressive DV shift for the size difference (+ smaller, - larger).")
    dv = answer_int("DV with the size modifier.")
    chance = answer_int("Percent chance a shot at it hits.")
    hit_probability = JsonFloat(required=True, metadata={"description": "Chance it is the figure hit (all "
                                                                        "nearer ones missed)."})
    hit_probability_exact = fields.String(required=True, metadata={"description": "Exact fraction."})


class StrayFireSchema(Schema):
    """Every figure in the band, nearest first, and the chance the missile hits no one."""

    targets = fields.List(fields.Nested(StrayTargetSchema), required=True, metadata={"description": "In order."})
    beyond_band = fields.List(fields.String(), required=True,
                              metadata={"description": "Figures past the band's end: the missile falls short."})
    no_one_hit = JsonFloat(required=True, metadata={"description": "Chance every figure is missed."})
    no_one_hit_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    trace = trace_field()


class MissileFlightRequestSchema(Schema):
    """How far a missile flies and what it is (A43)."""

    EXAMPLE = {"distance_feet": 2400, "kind": "missile"}

    distance_feet = JsonFloat(required=True, allow_nan=False, validate=FEET, metadata={"description": "In feet."})
    kind = fields.String(required=True, validate=validate.OneOf(["hurled", "missile"]),
                         metadata={"description": "hurled (about 50 ft/s) or missile: arrow or bolt (about 200)."})
    pulse_move = JsonBoolean(load_default=False, metadata={"description": "Pulse Move in use (changes when it lands)."})


class MissileFlightSchema(Schema):
    """Time aloft and when the missile lands."""

    seconds = JsonFloat(required=True, metadata={"description": "Seconds aloft."})
    seconds_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    delayed = JsonBoolean(required=True, metadata={"description": "True when it lands in the next CS."})
    lands = fields.String(required=True, metadata={"description": "When in play it lands."})
    trace = trace_field()


class KnockBackRequestSchema(Schema):
    """A blow's full POT as it lands, the target's size and footing, and maybe a barrier (F16, F17)."""

    EXAMPLE = {"pot": 24, "modified_sta": 14, "barrier_feet": 4, "agl_av": 30}

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

    EXAMPLE = {"foe_weapon_size": 7, "foe_height": 6, "attacker_weapon_size": 4}

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

    EXAMPLE = {"dodge": 20, "use": 4, "sl": 25, "trained": True}

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
