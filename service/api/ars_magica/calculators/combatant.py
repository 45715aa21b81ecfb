"""POST /v1/ars-magica/combatant: the combat totals of one fighter (MELEE TOTALS), penalties, missile rate
and two-weapon adjustments."""
from __future__ import annotations

from service.api.ars_magica.calculators import options, require_body
from service.api.ars_magica.schemas.combatant import CombatantRequestSchema, CombatantSchema
from service.api.http.blueprint import Blueprint
from service.api.kit import calculator as kit
from service.rules.ars_magica import ladders, totals
from service.rules.trace import Step

blp = Blueprint("ars-magica-combatant", __name__, description="Ars Magica: a fighter's combat totals (seed 002, "
                "Common totals).")


ASSUMPTIONS = ("defence_uses", "defence_size_sign", "missile_attack_characteristic", "encumbrance_magnitude",
               "penalties_apply", "shield_defence", "body_levels", "fatigue_levels", "weapon_pack", "armor_pack",
               "missile_schedule_start")


@kit.calculator(blp, "/combatant", "arsMagicaCombatant", (CombatantRequestSchema, CombatantSchema),
                signed=False)
def combatant_view(body: dict) -> dict:
    """A fighter's Initiative, Attack, Defence, Damage, Dodge and Soak totals, penalty and missile rate."""
    require_body()
    opts = options(body)
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
