"""/v1/war-and-combat/wounds, /combatant and /movement (GET and POST) (rules document §12.5-12.7)."""
from __future__ import annotations

from typing import Any

from flask import Response

from service.api.http.blueprint import Blueprint
from service.api.http.caching import cacheable
from service.api.kit import calculator as kit
from service.api.war_and_combat.schemas.sheets import (
    CombatantRequestSchema,
    CombatantSheetSchema,
    MovementQuerySchema,
    MovementRequestSchema,
    MovementSchema,
    WoundsRequestSchema,
    WoundsSchema,
)
from service.rules.trace import Step
from service.rules.war_and_combat import damage, movement, option_specs, task, wounds
from service.rules.war_and_combat.state import read_weapon

blp = Blueprint("war-and-combat-sheets", __name__,
                description="War & Combat (seed 001): wounds, a fighter's derived values, movement.")


@kit.calculator(blp, "/wounds", "warAndCombatWounds", (WoundsRequestSchema, WoundsSchema), signed=False)
def wounds_answer(body: dict[str, Any]) -> dict[str, Any]:
    """What a list of wounds adds up to: the action penalty (worst wound per location, locations added), disabled
    limbs, unconsciousness, immobility, movement, Defense, coup-de-grâce eligibility and defeat (*Wound
    Effects*, *Coup-de-Grâce*)."""
    options = option_specs.read(body.get("options"))
    cond = wounds.condition(body["wounds"], False, options)
    per = {loc: {"worst": cond.worst[loc], "penalty": (damage.PENALTY[cond.worst[loc]] or 0) if cond.worst[loc] else 0}
           for loc in task.SPECIFIC}
    fr, stunned = body.get("fighter_rank"), body["stunned"]
    defence = None if fr is None else wounds.wound_defence(cond, fr, body["agl_mod"], options, stunned)
    stun = wounds.stun_of(cond, options, fr, body["agl_mod"])
    steps = [Step("Wound Effects", "worst wound per location, locations added", cond.action_penalty)]
    if stun is not None:
        steps.append(Step("Wound Effects › Stun (RULINGS 21)", f"stunned {stun.rounds} rounds from the hit: no "
                                                              "action, Defense 5 + FR/2", stun.defence))
    return {"action_penalty": cond.action_penalty, "per_location": per, "disabled_limbs": len(cond.disabled),
            "unconscious": cond.unconscious, "immobile": cond.immobile, "mortal": cond.mortal,
            "can_act": not (cond.unconscious or cond.mortal or stunned),
            "coup_de_grace_eligible": cond.coup_de_grace, "defeated": cond.defeated, "movement": cond.movement,
            "defence": defence, "stun": None if stun is None else {"rounds": stun.rounds, "defence": stun.defence},
            "trace": kit.trace(steps)}


@kit.calculator(blp, "/combatant", "warAndCombatCombatant", (CombatantRequestSchema, CombatantSheetSchema), signed=False)
def combatant_answer(body: dict[str, Any]) -> dict[str, Any]:
    """A fighter's derived values: Defense in every state, actions per flurry, initiative bonus, damage
    thresholds, and each weapon's attack bonus, impact cap and impact dice (*Resolution of Attacks*, IMPACT CAP,
    DAMAGE THRESHOLDS)."""
    options = option_specs.read(body.get("options"))
    fr, agl = body["fighter_rank"], body["agl_mod"]
    impaired, disabled, destroyed = damage.thresholds(body["size"], options)
    lines = []
    for i, raw in enumerate(body.get("weapons") or [] if body.get("strength") is not None else []):
        w = read_weapon(raw, ("weapons", i), options)
        cap = w.get("impact_cap", body["strength"] + w["impact_mod"])
        lines.append({"name": w["name"], "attack_bonus": w["skill"] + (body["dex_mod"] if w["kind"] == "missile"
                                                                          else agl),
                      "impact_cap": cap, "impact_dice": damage.impact_dice(cap, options).text})
    return {"defence": task.base_defence(fr, agl),
            "defence_by_state": {s: task.defence(fr, agl, s, options) for s in task.STATES},
            "actions_per_flurry": task.actions_per_flurry(fr), "initiative_bonus": fr,
            "thresholds": {"impaired": impaired, "disabled": disabled, "destroyed": destroyed}, "weapons": lines,
            "trace": kit.trace([Step("Resolution of Attacks", "Defense = 10 + FR + agility", task.base_defence(fr, agl)),
                            Step("Maneuver Tactics", "actions = 2 + floor(FR / 5)", task.actions_per_flurry(fr))])}


@kit.calculator(blp, "/movement", "warAndCombatMovement", (MovementRequestSchema, MovementSchema), signed=False)
def movement_answer(body: dict[str, Any]) -> dict[str, Any]:
    """Movement points a round and a phase for a pace, with impaired legs, conversions to metres and feet, and
    the cost and phase of each step of a path (*Movement*, TERRAIN EFFECTS CHART, *Facing*)."""
    options = option_specs.read(body.get("options"))
    found = movement.plan(body["pace"], body["legs_impaired"], body.get("steps") or [], options)
    metres = found.hexes * movement.HEX_METRES
    return {"pace": found.pace, "hexes_per_round": found.hexes, "hexes_per_phase": found.per_phase,
            "metres_per_round": float(metres), **kit.exact("metres_per_second", found.metres_per_second),
            **kit.exact("feet_per_round", found.feet_per_round),
            "round_seconds": movement.ROUND_SECONDS, "hex_metres": movement.HEX_METRES,
            "action_penalty": found.action_penalty, "steps": [s.as_dict() for s in found.steps],
            "total_cost": found.steps[-1].total if found.steps else 0, "trace": kit.trace(found.trace)}









@blp.get("/movement")
@blp.doc(operationId="warAndCombatMovementQuery")
@blp.arguments(MovementQuerySchema, location="query")
@blp.response(200, MovementSchema)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def get_movement(query: dict) -> Response:
    """Movement points, phases and conversions of a pace (MOVEMENT RATE BY PACE, *Game Scale*)."""
    return cacheable(MovementSchema().dump(movement_answer({**query, "steps": []})))
