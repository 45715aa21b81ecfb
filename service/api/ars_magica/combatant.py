"""POST /v1/ars-magica/combatant: the combat totals of one fighter (MELEE TOTALS), penalties, missile rate
and two-weapon adjustments."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.ars_magica import answers
from service.api.ars_magica.common import options_field
from service.api.ars_magica.gear import (
    AbilitiesSchema,
    ArmorSchema,
    CharacteristicsSchema,
    PackOr,
    ShieldSchema,
    WeaponSchema,
)
from service.api.http.blueprint import Blueprint
from service.api.kit.fields import choice, flag, whole
from service.api.kit.schemas import Strict, trace_field
from service.rules.ars_magica import ladders, totals
from service.rules.trace import Step

blp = Blueprint("ars-magica-combatant", __name__, description="Ars Magica: a fighter's combat totals (seed 002, "
                "Common totals).")
MODES = ("attack_twice", "attack_and_defend", "defend_twice")
ASSUMPTIONS = ("defence_uses", "defence_size_sign", "missile_attack_characteristic", "encumbrance_magnitude",
               "penalties_apply", "shield_defence", "body_levels", "fatigue_levels", "weapon_pack", "armor_pack",
               "missile_schedule_start")


class CombatantRequestSchema(Strict):
    """A fighter: characteristics, Size, abilities, gear, encumbrance and current levels."""

    characteristics = fields.Nested(CharacteristicsSchema, load_default=dict,
                                    metadata={"description": "Characteristics (default 0)."})
    size = whole(-10, 10, "Size (default 0).", 0)
    abilities = fields.Nested(AbilitiesSchema, load_default=dict, metadata={"description": "Abilities."})
    weapon = PackOr(WeaponSchema, "weapon_pack", load_default=None)
    off_hand = PackOr(WeaponSchema, "weapon_pack", load_default=None)
    two_weapons = choice(MODES, "Two-weapon mode (null: one weapon).", allow_none=True, load_default=None)
    ambidextrous = flag("No two-weapon penalties.")
    armor = PackOr(ArmorSchema, "armor_pack", load_default=None)
    shield = fields.Nested(ShieldSchema, allow_none=True, load_default=None,
                           metadata={"description": "A shield (null: none)."})
    encumbrance = whole(0, 30, "Encumbrance (a magnitude, subtracted).", 0)
    wound_level = fields.String(load_default="unhurt", validate=validate.Length(1, 40),
                                metadata={"description": "Body level name (option `body_levels`)."})
    fatigue_level = fields.String(load_default="fresh", validate=validate.Length(1, 40),
                                  metadata={"description": "Fatigue level name (option `fatigue_levels`)."})
    mounted = flag("On horseback: weapon skill capped at Ride, Enc 0.")
    options = options_field()


class MissileRateSchema(Schema):
    """How often each missile phase fires: every N rounds (1 = every round; null = never)."""

    first_phase_every = fields.Integer(required=True, allow_none=True, metadata={"description": "First phase."})
    second_phase_every = fields.Integer(required=True, allow_none=True, metadata={"description": "Second phase."})


class TwoWeaponsSchema(Schema):
    """*Two weapons* adjustments (not included in the totals)."""

    attack_bonus = fields.Integer(required=True, metadata={"description": "Half the off hand's attack bonus, "
                                                                          "rounded up (attack_and_defend)."})
    defence_bonus = fields.Integer(required=True, metadata={"description": "Half the weapon's defence bonus, "
                                                                           "rounded up (attack_and_defend)."})
    main_penalty = fields.Integer(required=True, metadata={"description": "-1 (0 when ambidextrous)."})
    off_penalty = fields.Integer(required=True, metadata={"description": "-3 (0 when ambidextrous)."})


class CombatantSchema(Schema):
    """The six totals with the weapon alone, the penalty, the missile rate and two-weapon adjustments."""

    initiative = fields.Integer(required=True, metadata={"description": "Qik + skill + weapon init - Enc + penalty."})
    attack = fields.Integer(required=True, metadata={"description": "Dex (Per for missiles) + skill + attack + "
                                                                    "penalty."})
    defence = fields.Integer(required=True, metadata={"description": "Skill + defence bonus or Qik - Size - Enc "
                                                                     "+ shield + penalty."})
    damage = fields.Integer(required=True, metadata={"description": "Str + positive Size + skill + damage."})
    dodge = fields.Integer(required=True, metadata={"description": "Qik + Dodge - Size - Enc + penalty."})
    soak = fields.Integer(required=True, metadata={"description": "Stm + Size + protection."})
    penalty = fields.Integer(required=True, metadata={"description": "Wound + fatigue penalty (<= 0)."})
    missile_rate = fields.Nested(MissileRateSchema, required=True,
                                 metadata={"description": "MISSILE RATE TABLE row of the Initiative total."})
    two_weapons = fields.Nested(TwoWeaponsSchema, required=True, allow_none=True,
                                metadata={"description": "*Two weapons* adjustments (null: one weapon)."})
    assumptions = fields.List(fields.String(), required=True,
                              metadata={"description": "Ids of the assumptions (GET /v1/rulesets/ars-magica) "
                                                       "this answer relied on."})
    trace = trace_field()


EXAMPLE_REQUEST = {"characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2}, "abilities": {"weapon": 5},
                   "weapon": "longsword", "armor": "partial_chain", "shield": {"defence": 3}, "encumbrance": 2}
EXAMPLE_ANSWER = {"initiative": 6, "attack": 11, "defence": 8, "damage": 12, "dodge": -1, "soak": 10, "penalty": 0,
                  "missile_rate": {"first_phase_every": 1, "second_phase_every": 2}, "two_weapons": None,
                  "assumptions": ["defence_uses", "penalties_apply"],
                  "trace": [{"rule": "Common totals: MELEE TOTALS", "detail": "Initiative", "value": 6}]}


@blp.post("/combatant")
@blp.arguments(CombatantRequestSchema, example=EXAMPLE_REQUEST)
@blp.response(200, CombatantSchema, example=EXAMPLE_ANSWER)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(operationId="arsMagicaCombatant")
def combatant_view(body: dict) -> dict:
    """A fighter's Initiative, Attack, Defence, Damage, Dodge and Soak totals, penalty and missile rate."""
    answers.require_body()
    opts = answers.options(body)
    fighter = fighter_of(body, opts)
    found = totals.totals(fighter, opts)
    weapon = fighter.weapon
    off = totals.weapon_of(body.get("off_hand"), opts["weapon_pack"], ("off_hand",))
    two = totals.two_weapon_adjustments(body["two_weapons"], weapon, off, body["ambidextrous"])
    steps = [*found.steps, Step("MISSILE RATE TABLE", "read from the initiative total", found.initiative)]
    return {"initiative": found.initiative, "attack": found.attack, "defence": found.defence,
            "damage": found.damage, "dodge": found.dodge, "soak": found.soak, "penalty": found.penalty,
            "missile_rate": totals.missile_rate(found.initiative), "two_weapons": two,
            "assumptions": list(ASSUMPTIONS), "trace": [s.as_dict() for s in steps]}


def fighter_of(body: dict, opts: dict, path: tuple = ()) -> totals.Fighter:
    """The Fighter described by a combatant body (pack names looked up, level names read)."""
    body_ladder, fatigue_ladder = opts["body_levels"], opts["fatigue_levels"]
    wound = ladders.index_of(body_ladder, body.get("wound_level", "unhurt"), (*path, "wound_level"))
    tired = ladders.index_of(fatigue_ladder, body.get("fatigue_level", "fresh"), (*path, "fatigue_level"))
    return totals.Fighter(
        body.get("characteristics") or {}, body.get("size", 0), body.get("abilities") or {},
        totals.weapon_of(body.get("weapon"), opts["weapon_pack"], (*path, "weapon")),
        totals.protection_of(body.get("armor"), opts["armor_pack"], (*path, "armor")),
        (body.get("shield") or {}).get("defence", 0), body.get("encumbrance", 0),
        ladders.penalty(body_ladder, wound), ladders.penalty(fatigue_ladder, tired), body.get("mounted", False))
