"""Schemas of the tactical task, catch, surprise-check and after-the-blow calculators (shapes and bounds only)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.kit.fields import bounded
from service.api.kit.schemas import JsonBoolean, JsonFloat, JsonInteger, trace_field
from service.api.tactical.fields import (
    SCORE,
    answer_chance,
    answer_exact,
    answer_int,
    odds_schemas,
    progression_field,
    task_resolution_field,
)

SMALL = validate.Range(0, 1_000)
TASKS = ("action", "rummage", "untie", "string-bow", "cock-crossbow")
TOOLS = ("none", "goatsfoot", "belt-hook", "crannequin", "windlass")
OUTCOMES = ("none", "not-surprised", "stunned", "overwhelmed")


class TaskRequestSchema(Schema):
    """A task from table 4-1 or its footnotes; only the fields its `kind` names are read."""

    EXAMPLE = {"kind": "rummage", "items": 5, "mph": 0, "av": 25}

    kind = fields.String(required=True, validate=validate.OneOf(TASKS),
                         metadata={"description": "action (a table 4-1 row), rummage, untie, string-bow or "
                                                  "cock-crossbow."})
    action = fields.String(validate=validate.Length(1, 200), metadata={"description": "kind action: the row's name, "
                                                                                      "e.g. \"Aketon/Coat\"."})
    doff = JsonBoolean(load_default=False, metadata={"description": "kind action: taking clothing or armor off."})
    items = JsonInteger(validate=validate.Range(0, 1_000), metadata={"description": "rummage: objects in the "
                                                                                    "container."})
    mph = bounded(validate.Range(0, 1_000), "rummage: speed while rummaging (added to the DV).", 0)
    tier_str = JsonInteger(validate=SMALL, metadata={"description": "untie: STR of whoever tied the knot."})
    tier_trade_sl = bounded(SMALL, "untie: the tier's Huntsman/Woodsman/Guide/Mariner SL.", 0)
    untier_crd_mod = bounded(SCORE, "untie: the untier's CRD attribute modifier.", 0)
    untier_str = JsonInteger(validate=SMALL, metadata={"description": "untie: the untier's STR."})
    bow_str = JsonInteger(validate=SMALL, metadata={"description": "string-bow: the bow's STR rating."})
    strength = JsonInteger(validate=SMALL, metadata={"description": "string-bow: the character's STR."})
    crossbow = fields.String(load_default="light", validate=validate.OneOf(["light", "heavy"]),
                             metadata={"description": "cock-crossbow: light or heavy."})
    tool = fields.String(load_default="none", validate=validate.OneOf(TOOLS),
                         metadata={"description": "cock-crossbow: the cocking tool."})
    built_in = JsonBoolean(load_default=False, metadata={"description": "cock-crossbow: the tool is built in."})
    tool_at_hand = JsonBoolean(load_default=True, metadata={"description": "cock-crossbow: the tool lies within "
                                                                           "reach (else 1 more action to fetch)."})
    days_cocked = bounded(validate.Range(0, 365), "cock-crossbow: full days the bow is then kept cocked before "
                                                  "it shoots (RULINGS 25; the GM's call).", 0)
    double_time = JsonBoolean(load_default=False, metadata={"description": "Take twice the time in adverse "
                                                                           "conditions: the DV is halved."})
    av = JsonInteger(validate=SCORE, metadata={"description": "The AV of the check (CRD or STR), for its chance."})
    task_resolution = task_resolution_field()
    progression = progression_field()


class TaskSchema(Schema):
    """The actions a task takes, the DV of its check and the chance."""

    actions = JsonFloat(required=True, metadata={"description": "Actions (CS) it takes; per try when per_attempt."})
    actions_exact = fields.String(required=True, metadata={"description": "Exact fraction of actions."})
    check = fields.String(required=True, allow_none=True, metadata={"description": "CRD or STR; null: no check."})
    dv = answer_int("DV of the check, or null.", nullable=True)
    per_attempt = JsonBoolean(required=True, metadata={"description": "True when a failed check can be tried again, "
                                                                      "each try taking `actions`."})
    pot_penalty = answer_int("cock-crossbow: POT the shot loses after `days_cocked` full days kept cocked, -1 a day "
                             "(RULINGS 25); null for other kinds.", nullable=True)
    chance = answer_chance("Percent chance of the check (with av).")
    chance_exact = answer_exact()
    trace = trace_field()


class CatcherSchema(Schema):
    """Whoever tries to catch a falling object."""

    modified_sta = bounded(validate.Range(0, 1_000), "Modified STA.")
    str_mod = bounded(validate.Range(-100, 100), "STR attribute modifier.")
    crd_mod = bounded(validate.Range(-100, 100), "CRD attribute modifier.")
    armor_dr = bounded(validate.Range(0, 1_000), "Armor DR worn.", 0)
    cnd = bounded(validate.Range(0, 1_000), "CND score (wound threshold).")
    wounds = bounded(validate.Range(0, 11), "Wounds already taken.", 0)
    crd_av = JsonInteger(validate=SCORE, metadata={"description": "CRD AV for the catch, for its chance."})


class CatchRequestSchema(Schema):
    """An object falling and who catches it (F33-F35, A39)."""

    EXAMPLE = {"distance_feet": 30, "weight_pounds": 150,
        "catcher": {"modified_sta": 15, "str_mod": 2, "crd_mod": 1, "armor_dr": 2, "cnd": 14, "crd_av": 40}}

    distance_feet = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 100_000),
                              metadata={"description": "Feet it falls."})
    weight_pounds = JsonFloat(required=True, allow_nan=False, validate=validate.Range(0, 1_000_000),
                              metadata={"description": "Its weight in pounds."})
    catcher = fields.Nested(CatcherSchema, required=True, metadata={"description": "The catcher."})
    task_resolution = task_resolution_field()


class CatchSchema(Schema):
    """The catch DV and chance, and what the impact does to the catcher."""

    pulses = answer_int("Pulses of movement to reach the point of impact (0: adjacent only).")
    catch_dv = answer_int("DV of the CRD check to catch it (F34).")
    catch_chance = answer_chance("Percent chance to catch it (with crd_av).")
    catch_chance_exact = answer_exact()
    impact_pot = answer_int("POT of the impact (F34).")
    capacity = answer_int("What the catcher absorbs: mSTA + STR mod + CRD mod + armor DR (F35).")
    excess_pot = answer_int("POT left to wound him.")
    wound_threshold = JsonFloat(required=True, metadata={"description": "(mSTA + CND)/8 (F23)."})
    wounds = answer_int("Wounds the excess gives (F24).")
    total_wounds = answer_int("Wounds after the catch.")
    level = fields.String(required=True, metadata={"description": "Level of Wounding after the catch."})
    trace = trace_field()


class SurpriseCheckRequestSchema(Schema):
    """The target's check against a Surprise, with magic, wait-and-see and trap rules (F7, A31, A33)."""

    EXAMPLE = {"kind": "concealed-trap", "target_av": 30, "spirit_sl": 6,
        "craft_av": 45}

    kind = fields.String(required=True, validate=validate.OneOf(["ambush", "ruse", "mechanical-trap",
                                                                 "concealed-trap", "glamourie-trap"]),
                         metadata={"description": "What springs it: contested for ambush, ruse and glamourie; a "
                                                  "simple roll for mechanical and concealed traps."})
    target_av = bounded(SCORE, "The target's Perception (or AWA) AV.")
    spirit_sl = bounded(SMALL, "A magic user's highest Spirit Skill SL, added to his AV.", 0)
    wait_and_see_sl = bounded(SMALL, "Trade SL of a PC who voiced suspicion (A33), added to his AV.", 0)
    dv = JsonInteger(validate=SCORE, metadata={"description": "The check's DV (F7, or the trap's); concealed-trap "
                                                              "may give craft_av instead."})
    craft_av = JsonInteger(validate=SCORE, metadata={"description": "concealed-trap: the craftsman's craft AV, "
                                                                    "which is the DV."})
    aggressor_chance = JsonInteger(validate=validate.Range(0, 100),
                                   metadata={"description": "Contested kinds: the aggressor's percent chance."})
    task_resolution = task_resolution_field()


SurpriseOddsSchema, SurpriseOddsExactSchema = odds_schemas(
    "SurpriseCheckOdds", {o: f"Chance of outcome {o}." for o in OUTCOMES},
    ("Chance of each outcome of the target's Surprise check, as floats (they add up to 1).",
     "Chance of each outcome of the target's Surprise check, as exact fractions."),
    {o: f"Exact chance of outcome {o}." for o in OUTCOMES})


class SurpriseCheckSchema(Schema):
    """The target's AV, DV and chance, and the odds of each Surprise outcome."""

    target_av = answer_int("AV with the magic and wait-and-see bonuses.")
    dv = answer_int("The DV the target checks against.")
    target_chance = answer_int("The target's percent chance.")
    probabilities = fields.Nested(SurpriseOddsSchema, required=True, metadata={"description": "Outcomes."})
    probabilities_exact = fields.Nested(SurpriseOddsExactSchema, required=True, metadata={"description": "Exact."})
    expected_duration_cs = JsonFloat(required=True, metadata={"description": "Expected CS of stun."})
    expected_duration_cs_exact = fields.String(required=True, metadata={"description": "Exact fraction."})
    trace = trace_field()


class MortalWoundRequestSchema(Schema):
    """A Mortally wounded character moving unaided, and the 10th-wound checks (F45, A27)."""

    EXAMPLE = {"wounds": 9, "feet": 3, "str_mod": 2, "cnd_mod": 1, "cnd": 14,
        "p_res_av": 30}

    wounds = bounded(validate.Range(7, 10), "Wounds taken (7 or more: Mortal).")
    feet = JsonFloat(load_default=0, allow_nan=False, validate=validate.Range(0, 100_000),
                     metadata={"description": "Feet moved alone."})
    str_mod = bounded(validate.Range(-100, 100), "STR attribute modifier.")
    cnd_mod = bounded(validate.Range(-100, 100), "CND attribute modifier.")
    cnd = bounded(validate.Range(0, 1_000), "CND score: minutes left to live after the 10th wound.")
    p_res_av = JsonInteger(validate=SCORE, metadata={"description": "P-RES AV, for the chance of the checks vs 55."})
    task_resolution = task_resolution_field()


class MortalWoundSchema(Schema):
    """Wounds added by moving, the new total and what the 10th wound asks."""

    feet_per_wound = answer_int("Feet per added wound (STR mod + CND mod, at least 1).")
    added_wounds = answer_int("Wounds the move added: one per full stretch of feet_per_wound, never rounded up "
                              "(F45, RULINGS 24).")
    total_wounds = answer_int("Wounds after the move.")
    level = fields.String(required=True, metadata={"description": "Level of Wounding."})
    status = fields.String(required=True, metadata={"description": "alive, collapsed (10th) or dead (11th+)."})
    death_check_dv = answer_int("P-RES DV at the 10th wound (null before it or once dead).", nullable=True)
    survive_chance = answer_chance("Percent chance to pass that check (with p_res_av).")
    survive_chance_exact = answer_exact()
    minutes_to_live = answer_int("Minutes of life after surviving the 10th wound, without a healer.", nullable=True)
    trace = trace_field()


class AfterBattleRequestSchema(Schema):
    """STR and wounds once the fighting ends (A28)."""

    EXAMPLE = {"strength": 15, "wounds": 5}

    strength = bounded(validate.Range(0, 1_000), "STR score.")
    wounds = bounded(validate.Range(0, 10), "Wounds taken.")


class AfterBattleSchema(Schema):
    """STR once the adrenaline is gone, and the END recovery multiplier."""

    level = fields.String(required=True, metadata={"description": "Level of Wounding."})
    level_number = answer_int("1 Light .. 4 Mortal (0: unwounded).")
    strength = answer_int("Effective STR after the battle: STR x (1 - level/4), half up.")
    end_recovery_factor = answer_int("END recovery takes this many times as long (2^level).")
    trace = trace_field()


class HealingRequestSchema(Schema):
    """Wounds (or Body Point damage) to heal and the healer's skill (The Healing Process)."""

    EXAMPLE = {"wounds": 3, "healer_sl": 8}

    wounds = JsonInteger(validate=validate.Range(0, 10), metadata={"description": "Wounds to heal (or damage)."})
    damage = JsonInteger(validate=validate.Range(0, 10_000),
                         metadata={"description": "Body Point option: points of damage to heal (instead of wounds)."})
    healer_sl = bounded(SMALL, "The healer's trade SL (1 week or day less per 4).", 0)
    cnd_mod = bounded(validate.Range(-100, 100), "Body Point option: the patient's CND attribute modifier.", 0)


class HealingSchema(Schema):
    """Days to heal each wound (or point) in turn, the total, and the care it needs."""

    schedule_days = fields.List(JsonInteger(), required=True,
                                metadata={"description": "Days for each wound (point) in turn, worst first."})
    total_days = answer_int("Days until every wound (point) is healed.")
    bed_rest = JsonBoolean(required=True, metadata={"description": "Worse than Light: bed rest and a healer."})
    needs_skilled_healer = JsonBoolean(required=True, metadata={"description": "Mortal wounds need one."})
    heals = JsonBoolean(required=True, metadata={"description": "False when Mortal wounds have no healer."})
    trace = trace_field()
