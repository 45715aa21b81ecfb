"""Schemas of the tactical maneuver calculators: combinations, body checks, intimidation, stray fire,
missile flight, knock-back, melee spacing and dodges (shapes and bounds only; rules live in the domain)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.tactical.to_hit_schemas import SCORE, TaskResolutionSchema, _defaults

SMALL = validate.Range(0, 1_000)
SPEED = validate.Range(0, 1_000)
FEET = validate.Range(0, 100_000)
PROGRESSIONS = ("triangular", "linear")


def _int(text: str, default: int | None = None, bounds: validate.Range = SCORE) -> fields.Integer:
    extra = {"load_default": default} if default is not None else {"required": True}
    return JsonInteger(validate=bounds, metadata={"description": text}, **extra)


def _out_int(text: str, nullable: bool = False) -> fields.Integer:
    return JsonInteger(required=True, allow_none=nullable, metadata={"description": text})


def _chance(text: str = "Percent chance of success on the Task Resolution Table.") -> fields.Integer:
    return JsonInteger(required=True, allow_none=True, metadata={"description": text})


def _exact(text: str = "The same chance as an exact fraction of 1.") -> fields.String:
    return fields.String(required=True, allow_none=True, metadata={"description": text})


def task_resolution_field() -> fields.Nested:
    """Which Task Resolution Table turns AV and DV into a chance (RULINGS 4)."""
    return fields.Nested(TaskResolutionSchema, load_default=lambda: _defaults(TaskResolutionSchema),
                         metadata={"description": "Task Resolution Table for the chances (RULINGS 4)."})


def progression_field() -> fields.String:
    """The Progressive scale (RULINGS 3)."""
    return fields.String(load_default="triangular", validate=validate.OneOf(PROGRESSIONS),
                         metadata={"description": "Progressive scale: n(n+1)/2 (triangular) or n (RULINGS 3)."})


class CombinationRequestSchema(Schema):
    """Two attacks (or two defences) worked as one combination (F38), against a DV (or an attack's AV)."""

    kind = fields.String(required=True, validate=validate.OneOf(["in-concert", "separate", "defensive"]),
                         metadata={"description": "in-concert: one roll, POT added; separate: each part rolls; "
                                                  "defensive: two defences against one attack."})
    values = fields.List(JsonInteger(validate=SCORE), required=True, validate=validate.Length(2, 2),
                         metadata={"description": "The two parts' AVs (defensive: DVs), the lead first."})
    combination_sl = _int("The Combination skill SL.", bounds=validate.Range(0, 1_000))
    against = _int("The DV the attack meets (defensive: the attacker's AV).")
    pots = fields.List(JsonInteger(validate=validate.Range(0, 100_000)), validate=validate.Length(2, 2),
                       metadata={"description": "In concert only: the POT of each blow, added before armor."})
    initiative = JsonInteger(validate=SCORE, metadata={"description": "Attack/defence combination: the "
                                                                      "combiner's Initiative (with `foe_initiative`)."})
    foe_initiative = JsonInteger(validate=SCORE, metadata={"description": "The foe's Initiative."})
    task_resolution = task_resolution_field()


class CombinationSchema(Schema):
    """The value each roll of the combination uses, its chance, and the combined POT in concert."""

    values = fields.List(JsonInteger(), required=True, metadata={"description": "AV (or DV) of each roll made."})
    cap = _out_int("The cap: both parts' values added.")
    capped = JsonBoolean(required=True, metadata={"description": "True when the cap cut the bonus."})
    chances = fields.List(JsonInteger(), required=True, metadata={"description": "Percent chance of each roll "
                                                                                 "(defensive: the attack's chance)."})
    chances_exact = fields.List(fields.String(), required=True, metadata={"description": "Exact fractions."})
    pot = _out_int("In concert: both blows' POT added, before armor.", nullable=True)
    order = fields.List(fields.String(), required=True, allow_none=True,
                        metadata={"description": "Attack/defence combination: the order the halves resolve in."})
    trace = trace_field()


class BodySchema(Schema):
    """One party to a body check, side-swipe or tackle."""

    agl_mod = _int("AGL attribute modifier.")
    modified_sta = _int("Modified STA (size).")
    str_mod = _int("STR attribute modifier.")
    strength = _int("STR score (footing check).")
    speed_mph = _int("Speed in mph when moving.", 0, SPEED)
    shield_size = _int("Size of a shield borne (body check).", 0, SMALL)
    armor_layers = _int("Layers of armor worn (Progressive bonus on a body check).", 0, SMALL)
    dodge = JsonInteger(validate=SCORE, metadata={"description": "Defender only: Dodge DV, to dodge instead of "
                                                                 "standing."})
    moving = JsonBoolean(load_default=False, metadata={"description": "Defender only: also moving (speeds add)."})


class BodyCheckRequestSchema(Schema):
    """A body check, side-swipe or tackle: both parties' numbers (F39, F40)."""

    kind = fields.String(load_default="body-check", validate=validate.OneOf(["body-check", "side-swipe", "tackle"]),
                         metadata={"description": "body-check, side-swipe or tackle."})
    attacker = fields.Nested(BodySchema, required=True, metadata={"description": "The one who charges in."})
    defender = fields.Nested(BodySchema, required=True, metadata={"description": "The one who stands or dodges."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class BodyOddsSchema(Schema):
    """Exclusive outcomes of the contested roll."""

    defender_bounced = JsonFloat(required=True, metadata={"description": "The attacker wins: the defender flies."})
    attacker_bounced = JsonFloat(required=True, metadata={"description": "The defender wins by the larger margin "
                                                                         "(after a Dodge: the attacker stumbles)."})
    both_stop = JsonFloat(required=True, metadata={"description": "Both fail, or equal margins: both halt at "
                                                                  "close-melee distance."})


class BodyOddsExactSchema(Schema):
    """The same outcomes as exact fractions."""

    defender_bounced = fields.String(required=True, metadata={"description": "Exact fraction."})
    attacker_bounced = fields.String(required=True, metadata={"description": "Exact fraction."})
    both_stop = fields.String(required=True, metadata={"description": "Exact fraction."})


class BodyCheckSchema(Schema):
    """Both sides' values, the contest odds, bounce distances and the footing check."""

    attacker_av = _out_int("The attacker's AV (F39).")
    defender_dv = _out_int("The defender's value: the same sum, or Dodge + the mSTA bonus.")
    defence = fields.String(required=True, metadata={"description": "stand or dodge."})
    attacker_chance = _out_int("Attacker's percent chance in the contest.")
    defender_chance = _out_int("Defender's percent chance in the contest.")
    probabilities = fields.Nested(BodyOddsSchema, required=True, metadata={"description": "Exclusive outcomes."})
    probabilities_exact = fields.Nested(BodyOddsExactSchema, required=True, metadata={"description": "Exact."})
    defender_bounce_feet = _out_int("Feet the defender flies when he loses (F40).")
    attacker_bounce_feet = _out_int("Feet the attacker flies when he loses (F40).")
    footing_dv = _out_int("DV of the AGL check to keep one's feet after a successful body check.")
    footing_checks = fields.List(fields.String(), required=True,
                                 metadata={"description": "Who must make that AGL check."})
    trace = trace_field()


class IntimidationRequestSchema(Schema):
    """A Presence attack joined to a blow that put POT through (F41)."""

    presence_av = _int("The attacker's Presence (Intimidate) AV.")
    intimidate_sl = _int("The attacker's Intimidate SL (for the guard drop, F41).", bounds=validate.Range(0, 1_000))
    pot_through = _int("POT (or damage) that got through to the target; at least 1.", bounds=validate.Range(1, 100_000))
    reprisal = JsonBoolean(load_default=False, metadata={"description": "The blow was a Reprisal: the POT bonus "
                                                                        "becomes Progressive."})
    target_dv = _int("The target's base DV to resist.")
    target_presence_sl = _int("The target's highest Presence SL.", 0, validate.Range(0, 1_000))
    target_hrt_mod = _int("The target's HRT attribute modifier.", 0)
    allies_standing = _int("Fellows still standing on the target's side.", 0, validate.Range(0, 10_000))
    allies_fallen = _int("Fellows fallen on the target's side.", 0, validate.Range(0, 10_000))
    equal_values = fields.String(load_default="target", validate=validate.OneOf(["target", "attacker"]),
                                 metadata={"description": "When AV equals DV, whose side it counts for ([DEF])."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class IntimidationOddsSchema(Schema):
    """Exclusive outcomes of the intimidation."""

    backs_off = JsonFloat(required=True, metadata={"description": "Success, DV above AV: backs off to retreat."})
    surrenders = JsonFloat(required=True, metadata={"description": "Success, AV above DV: breaks and surrenders."})
    unaffected = JsonFloat(required=True, metadata={"description": "Failure, DV above AV: no effect."})
    guard_drops = JsonFloat(required=True, metadata={"description": "Failure, AV above DV: DV drops next CS (F41)."})


class IntimidationOddsExactSchema(Schema):
    """The same outcomes as exact fractions."""

    backs_off = fields.String(required=True, metadata={"description": "Exact fraction."})
    surrenders = fields.String(required=True, metadata={"description": "Exact fraction."})
    unaffected = fields.String(required=True, metadata={"description": "Exact fraction."})
    guard_drops = fields.String(required=True, metadata={"description": "Exact fraction."})


class IntimidationSchema(Schema):
    """The contest's values, the odds of each outcome, and the follow-up DV drop."""

    av = _out_int("Presence AV + POT bonus.")
    dv = _out_int("Target DV + Presence SL + standing - fallen.")
    attacker_chance = _out_int("Attacker's percent chance in the contest.")
    target_chance = _out_int("Target's percent chance in the contest.")
    probabilities = fields.Nested(IntimidationOddsSchema, required=True, metadata={"description": "Outcomes."})
    probabilities_exact = fields.Nested(IntimidationOddsExactSchema, required=True, metadata={"description": "Exact."})
    guard_drop = _out_int("On guard-drops: the DV the target loses against this attacker next CS (F41).")
    surrender_check_dv = _out_int("On surrenders: the HRT check DV (the POT that got through).")
    trace = trace_field()


class BystanderSchema(Schema):
    """A figure on the line of fire beyond the missed target."""

    id = fields.String(required=True, validate=validate.Length(1, 64), metadata={"description": "Who it is."})
    modified_sta = _int("The figure's modified STA.")
    dv = _int("The DV the figure offers as a target of this shot.")
    distance = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Distance from the shooter, in the band's unit."})


class StrayFireRequestSchema(Schema):
    """A missed shot and who stands beyond the target, up to the end of its range band."""

    av = _int("The shooter's AV.")
    target_modified_sta = _int("The missed target's modified STA.")
    band_end = JsonFloat(required=True, allow_nan=False, validate=FEET,
                         metadata={"description": "Where the target's range band ends (same unit as distance)."})
    bystanders = fields.List(fields.Nested(BystanderSchema), required=True, validate=validate.Length(0, 200),
                             metadata={"description": "Figures whose Zone the extended line crosses."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class StrayTargetSchema(Schema):
    """One figure in line: its DV with the size modifier, its chance, and the chance it is the one hit."""

    id = fields.String(required=True, metadata={"description": "Who it is."})
    size_modifier = _out_int("Progressive DV shift for the size difference (+ smaller, - larger).")
    dv = _out_int("DV with the size modifier.")
    chance = _out_int("Percent chance a shot at it hits.")
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

    pot = _int("Full POT as the blow lands, before armor.", bounds=validate.Range(0, 100_000))
    modified_sta = _int("The target's modified STA.")
    barrier_feet = JsonFloat(allow_nan=False, validate=FEET, metadata={"description": "Feet to a wall or obstacle "
                                                                                      "behind the target."})
    agl_av = JsonInteger(validate=SCORE, metadata={"description": "The target's AGL AV, for the footing chance."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class KnockBackSchema(Schema):
    """How far the target flies, what a barrier adds to the blow, and keeping his feet."""

    feet = _out_int("Feet knocked back: full POT over modified STA.")
    travelled_feet = JsonFloat(required=True, metadata={"description": "Feet actually travelled (a barrier stops "
                                                                       "him early)."})
    barrier_bonus = _out_int("Feet not travelled, added to the POT for its effects (A25).")
    effective_pot = _out_int("POT for armor, wounds and P-RES: the blow's POT + the barrier bonus (A25).")
    keep_feet_dv = _out_int("DV of the AGL check to stay standing: Progressive(feet).")
    keep_feet_chance = _chance("Percent chance to keep his feet (with agl_av).")
    keep_feet_chance_exact = _exact()
    trace = trace_field()


class MeleeSpacingRequestSchema(Schema):
    """Weapon Sizes and the foe's height, in one unit (A44)."""

    foe_weapon_size = _int("Size of the foe's weapon.", bounds=validate.Range(0, 100))
    foe_height = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 1_000, min_inclusive=False),
                           metadata={"description": "The foe's height, in the same unit as Size (A44)."})
    attacker_weapon_size = _int("Size of the attacker's weapon.", bounds=validate.Range(0, 100))
    scale = fields.String(load_default="25mm", validate=validate.OneOf(["25mm", "10mm", "5mm"]),
                          metadata={"description": "Figure scale for the spacing in mm."})


class MeleeSpacingSchema(Schema):
    """Close or common melee, the spacing between bases, and whether the foe's body is out of reach."""

    mode = fields.String(required=True, metadata={"description": "close or common."})
    spacing_feet = JsonFloat(required=True, metadata={"description": "Size - height/2 (0 in close melee)."})
    spacing_mm = JsonFloat(required=True, metadata={"description": "Between bases at the scale (F44)."})
    spacing_mm_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    body_blocked = JsonBoolean(required=True, metadata={"description": "The foe's weapon is 2+ Sizes larger."})
    trace = trace_field()


class DodgeRequestSchema(Schema):
    """A Dodge used again and again within one action (F37)."""

    dodge = _int("The Dodge DV of the first use.", bounds=validate.Range(0, 10_000))
    use = _int("Which use in this action (1 = first).", bounds=validate.Range(1, 100))
    sl = _int("Dodge SL (free dodges for the listed trades).", 0, validate.Range(0, 1_000))
    trained = JsonBoolean(load_default=False, metadata={"description": "Warrior, Assassin, Huntsman, Acrobat or "
                                                                       "Dancer: SL/10 dodges before halving."})


class DodgeSchema(Schema):
    """Every use's value and the asked use's state (never a DV of 0 standing for exhausted)."""

    free = _out_int("Dodges before the halving starts.")
    values = fields.List(JsonInteger(), required=True, metadata={"description": "Value of each use, in order, up "
                                                                               "to the asked one or the first 0."})
    use = _out_int("The use asked about.")
    dv = _out_int("Its DV, or null when exhausted.", nullable=True)
    state = fields.String(required=True, validate=validate.OneOf(["available", "exhausted"]),
                          metadata={"description": "available or exhausted."})
    trace = trace_field()
