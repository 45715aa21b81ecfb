"""The events a war-and-combat round emits, one schema each (rules document §12.8), for typed docs."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import described as _d
from service.api.kit.events import event_schema, pascal, shared


def _event(name: str, doc: str, **extra: fields.Field) -> type[Schema]:
    base = {"seq": shared("seq", "1-based within the answer.", required=True, kind=fields.Integer),
            "type": shared("type", required=True),
            "combatant": shared("combatant", "Who it happened to (or who acted).")}
    return event_schema("WarAndCombat" + pascal(name) + "Event", doc, {**base, **extra})


_S, _I, _B = fields.String, fields.Integer, fields.Boolean


_TARGET = "The fighter attacked or shot at."
_LOCATION = "The specific location struck."
_OUTCOME = "miss, glance, hit or critical (to-hit, §12.1)."
EVENT_SCHEMAS = {
    "initiative_rolled": _event("initiative_rolled", "3d6 + FR for the round.",
                                dice=_d(fields.List, "The three d6 faces.", _I()),
                                total=_d(_I, "3d6 + fighter rank (+ the wound penalty when option "
                                             "`penalties_apply_to_initiative`); highest acts first.")),
    "moved": _event("moved", "A step, a stand-up or a maneuver's hex.",
                    kind=_d(_S, "step, stood_up, press, pressed or retreat."),
                    to=_d(fields.Dict, "The axial hex {q, r} the fighter is now in."),
                    cost=_d(_I, "Movement points the step cost (`step` only): 1 forward, 2 otherwise."),
                    phase=_d(_S, "movement or adjustment (`step` only).")),
    "engaged": _event("engaged", "Two fighters engage.", target=_d(_S, "The fighter engaged.")),
    "flurry_started": _event("flurry_started", "A flurry begins.",
                             combatants=_d(fields.List, "The engagement group in flurry-initiative order.", _S()),
                             actions=_d(fields.Dict, "Actions per fighter for this flurry (by FR, less actions "
                                                     "lost).", keys=_S(), values=_I())),
    "attack_rolled": _event("attack_rolled", "An attack roll.", target=_d(_S, _TARGET),
                            total=_d(_I, "3d6 + the attack bonus."), tl=_d(_I, "The defender's target level."),
                            state=_d(_S, "The defender's state (Defense by state, §4)."),
                            outcome=_d(_S, _OUTCOME),
                            indefensible=_d(_B, "The blow struck when the defender ran out of actions.")),
    "glanced": _event("glanced", "The blow slid off armor.", target=_d(_S, _TARGET),
                      location=_d(_S, _LOCATION)),
    "blow_landed": _event("blow_landed", "A blow's impact.", target=_d(_S, _TARGET), location=_d(_S, _LOCATION),
                          critical=_d(_B, "The to-hit outcome was a critical."),
                          impact=_d(_I, "Impact rolled."),
                          effective_impact=_d(_I, "Impact less absorption (all of it on a critical)."),
                          penetrating=_d(_B, "The blow penetrated the armor."),
                          severity=_d(_S, "none, light, serious, critical or mortal.")),
    "wound_taken": _event("wound_taken", "A wound recorded.", location=_d(_S, _LOCATION),
                          severity=_d(_S, "light, serious, critical or mortal."),
                          penetrating=_d(_B, "The wound is penetrating."),
                          wound_type=_d(_S, "blunt, cut or pierce (null for none).", allow_none=True),
                          effects=_d(fields.List, "The wound's effects, applied in order.", _S())),
    "check_rolled": _event("check_rolled", "A Fumble?/Stumble? or resistance check.",
                           kind=_d(_S, "The check's kind (as in /check)."), tl=_d(_I, "Target level."),
                           total=_d(_I, "3d6 + attribute modifier + wound penalty."),
                           outcome=_d(_S, "success or the kind's failure band.")),
    "action_lost": _event("action_lost", "An action lost this round.",
                          reason=_d(_S, "The cause: a wound effect or check (fumble, stumble, fumble_check, "
                                        "stumble_check, restrict...), disarmed or weapon_broken.")),
    "stunned": _event("stunned", "Stunned for some rounds.",
                      rounds=_d(_I, "Rounds rolled (option `stun_rounds` or `shock_failure_rounds`).")),
    "fell": _event("fell", "The fighter falls."),
    "knocked_out": _event("knocked_out", "Knocked unconscious."),
    "out_of_fight": _event("out_of_fight", "Out of the fight.",
                           status=_d(_S, "The status word (§8): dying, incapacitated, unconscious, immobile...")),
    "shot": _event("shot", "An arrow loosed (`stray`: a missed shot into a melee striking a bystander).",
                   target=_d(_S, _TARGET), band=_d(_S, "The range band (absent when out of range)."),
                   total=_d(_I, "3d6 + the attack bonus."), tl=_d(_I, "The target level of the shot."),
                   outcome=_d(_S, "miss, glance, hit, critical, or out_of_range."),
                   stray=_d(_B, "A missed shot into a melee striking a bystander.")),
    "flurry_ended": _event("flurry_ended", "A flurry ends.",
                           combatants=_d(fields.List, "The engagement group in flurry-initiative order.", _S()),
                           hits=_d(fields.Dict, "Blows landed per fighter in this flurry.", keys=_S(), values=_I())),
    "round_ended": _event("round_ended", "The round is over.", round=_d(_I, "The number of the round just ended.")),
}
