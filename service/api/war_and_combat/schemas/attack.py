"""Schemas of /v1/war-and-combat/attack (rules document §12.4): the to-hit and damage fields together and the
whole attack as one exact distribution."""
from __future__ import annotations

from marshmallow import fields

from service.api.kit.fields import choice, probability_dict, whole
from service.api.kit.receipts import receipt_answer_field, receipt_field
from service.api.kit.schemas import JsonBoolean, JsonFloat, Strict, calculator_rolls_field, trace_field
from service.api.war_and_combat.fields import answer_seed_field, assumptions_field, dice_field, exact_field
from service.api.war_and_combat.schemas.damage import DAMAGE_ROLES, ImpactFieldsSchema
from service.api.war_and_combat.schemas.to_hit import TO_HIT_ROLES, AttackerSchema, ToHitFieldsSchema


class AttackAttackerSchema(AttackerSchema):
    """The attacker's roll, and his STR when the impact cap is not sent."""

    strength = whole(-20, 100, "STR (impact cap = STR + weapon impact modifier; or send `impact_cap`).")


class AttackRequestSchema(ToHitFieldsSchema, ImpactFieldsSchema):
    """One whole attack: the to-hit fields plus the impact and the target."""

    EXAMPLE = {"attacker": {"skill": 5, "attribute_mod": 1}, "defender": {"fighter_rank": 3},
               "impact_cap": 12, "weapon": {"penetration_value": 1, "damage_type": "cut"},
               "target": {"size": 10, "armor": {"chest": {"absorption": 2, "penetration_threshold": 3},
                                                "head": {"absorption": 2, "penetration_threshold": 3,
                                                         "defence_bonus": 1}}}, "seed": 11}
    receipt = receipt_field()

    attacker = fields.Nested(AttackAttackerSchema, required=True,
                             metadata={"description": "The attacker's roll and STR."})

    rolls = calculator_rolls_field({**TO_HIT_ROLES, **DAMAGE_ROLES})


class AttackRollSchema(Strict):
    """A rolled attack from the 3d6 to the wound."""

    total = whole(-1000, 1000, "3d6 + roll_bonus.", required=True)
    margin = whole(-1000, 1000, "As in to-hit.", required=True)
    outcome = choice(("miss", "glance", "hit", "critical"), "What happened.", required=True)
    location = fields.String(required=True, allow_none=True, metadata={"description": "Specific location."})
    impact = whole(-1000, 10_000, "Impact rolled (null unless landed).", required=True, allow_none=True)
    effective_impact = whole(-1000, 10_000, "Effective impact.", required=True, allow_none=True)
    penetrating = JsonBoolean(required=True, allow_none=True,
                              metadata={"description": "The blow penetrated (null unless landed)."})
    severity = fields.String(required=True, allow_none=True, metadata={"description": "Wound severity."})
    wound_type = fields.String(required=True, allow_none=True,
                               metadata={"description": "blunt, cut or pierce (null for none)."})
    effects = fields.List(fields.String(), required=True, metadata={"description": "The wound's effect (0 or 1)."})


class AttackSchema(Strict):
    """The whole attack as one exact distribution."""
    receipt = receipt_answer_field()

    tl = whole(-1000, 1000, "Target level.", required=True)
    roll_bonus = whole(-1000, 1000, "Everything added to 3d6.", required=True)
    need = whole(-1000, 1000, "Smallest 3d6 total that beats the TL.", required=True)
    chance = JsonFloat(required=True, metadata={"description": "P(the blow lands)."})
    chance_exact = fields.String(required=True, metadata={"description": "The same, exactly."})
    probabilities = probability_dict("miss, glance and the nine damage results, exclusive.")
    probabilities_exact = exact_field("The same")
    roll = fields.Nested(AttackRollSchema, required=True, allow_none=True,
                         metadata={"description": "The rolled attack (null without `seed` or `rolls`)."})
    dice = dice_field()
    seed = answer_seed_field()
    assumptions = assumptions_field()
    trace = trace_field()


