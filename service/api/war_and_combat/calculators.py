"""/v1/war-and-combat/to-hit, /check, /damage and /attack (rules document §12.1-12.4). The answers are worked
out in to_hit_answers, check_answers, damage_answers and attack_answers."""
from __future__ import annotations

from typing import Any

from service.api.http.blueprint import Blueprint
from service.api.kit.receipts import receipted
from service.api.war_and_combat.attack_answers import attack_answer
from service.api.war_and_combat.attack_schemas import AttackRequestSchema, AttackSchema
from service.api.war_and_combat.check_answers import check_answer
from service.api.war_and_combat.check_schemas import CheckRequestSchema, CheckSchema
from service.api.war_and_combat.damage_answers import damage_answer
from service.api.war_and_combat.damage_schemas import DamageRequestSchema, DamageSchema
from service.api.war_and_combat.to_hit_answers import to_hit_answer
from service.api.war_and_combat.to_hit_schemas import ToHitRequestSchema, ToHitSchema

blp = Blueprint("war-and-combat-calculators", __name__,
                description="War & Combat (seed 001): chance to hit, checks, damage, whole attacks.")


def _example(schema: type, body: dict[str, Any], answer: Any) -> dict[str, Any]:
    return answer(schema().load(body))


TO_HIT_EXAMPLE = {"attacker": {"skill": 4, "attribute_mod": 1}, "defender": {"fighter_rank": 2, "agl_mod": 1,
                  "state": "turned"}, "defence_bonus": {"head": 1}, "seed": 7}
CHECK_EXAMPLE = {"kind": "stumble", "attribute_mod": 1, "action_penalty": 1, "seed": 3}
DAMAGE_EXAMPLE = {"impact_cap": 14, "margin": 6, "location": "left_leg",
                  "weapon": {"penetration_value": 1, "damage_type": "cut"},
                  "target": {"size": 9, "armor": {"leg": {"absorption": 1, "penetration_threshold": 2}}},
                  "rolls": {"impact": [2, 5, 6], "critical": [3]}}
ATTACK_EXAMPLE = {"attacker": {"skill": 5, "attribute_mod": 1}, "defender": {"fighter_rank": 3},
                  "impact_cap": 12, "weapon": {"penetration_value": 1, "damage_type": "cut"},
                  "target": {"size": 10, "armor": {"chest": {"absorption": 2, "penetration_threshold": 3},
                                                   "head": {"absorption": 2, "penetration_threshold": 3,
                                                            "defence_bonus": 1}}}, "seed": 11}


@blp.post("/to-hit")
@blp.doc(operationId="warAndCombatToHit")
@blp.arguments(ToHitRequestSchema, example=TO_HIT_EXAMPLE)
@blp.response(200, ToHitSchema, example=_example(ToHitRequestSchema, TO_HIT_EXAMPLE, to_hit_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@receipted
def post_to_hit(body: dict) -> dict:
    """Chance that a melee attack (3d6 + skill + agility against Defense) or a shot (against the range target
    level) lands: exact odds of miss, glance off armor, hit and critical, the extra impact dice and the
    location; with `seed` or `rolls`, the rolled attack (*Resolution of Attacks*, *Critical Hits*,
    *Ranged Combat*)."""
    return to_hit_answer(body)


@blp.post("/check")
@blp.doc(operationId="warAndCombatCheck")
@blp.arguments(CheckRequestSchema, example=CHECK_EXAMPLE)
@blp.response(200, CheckSchema, example=_example(CheckRequestSchema, CHECK_EXAMPLE, check_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@receipted
def post_check(body: dict) -> dict:
    """Any 3d6 task or resistance check — Fumble?/Fumble-N, Stumble?/Stumble-N, Restrict, Shock, balance,
    pass-through — with the exact odds of each miss-by result (*Wound Effects*, *Secondary Effects*)."""
    return check_answer(body)


@blp.post("/damage")
@blp.doc(operationId="warAndCombatDamage")
@blp.arguments(DamageRequestSchema, example=DAMAGE_EXAMPLE)
@blp.response(200, DamageSchema, example=_example(DamageRequestSchema, DAMAGE_EXAMPLE, damage_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@receipted
def post_damage(body: dict) -> dict:
    """One landed blow: impact dice from the impact cap (plus a critical's extra d6), absorption, penetration,
    severity against the size thresholds and the wound's effect, as an exact distribution; non-strike attacks
    answer their COMBAT OPTIONS column (*Strike Results Procedure*, COMBAT OPTIONS)."""
    return damage_answer(body)


@blp.post("/attack")
@blp.doc(operationId="warAndCombatAttack")
@blp.arguments(AttackRequestSchema, example=ATTACK_EXAMPLE)
@blp.response(200, AttackSchema, example=_example(AttackRequestSchema, ATTACK_EXAMPLE, attack_answer))
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@receipted
def post_attack(body: dict) -> dict:
    """One whole attack from the 3d6 roll to the wound, as one exact distribution over the attack roll, the
    location roll and the impact dice (*Flurry Procedure*, *Strike Results Procedure*)."""
    return attack_answer(body)
