"""Typed events of an ars-magica round (seed 002, COMBAT SEQUENCE), one schema per event type the round
engine emits (service/rules/ars_magica: phases, melee, botches, fatigue, work, engine), for the contract."""
from __future__ import annotations

from marshmallow import Schema, fields

from service.api.kit.events import described as _d
from service.api.kit.events import event_schema, pascal, shared
from service.api.kit.schemas import JsonFloat, JsonInteger

_S, _I, _N = fields.String, JsonInteger, JsonFloat


def _event(name: str, doc: str, **extra: fields.Field) -> type[Schema]:
    """The schema of event `name`: `seq`, `type`, `round` and `extra`."""
    base = {"seq": shared("seq", "1-based order in the round (the encounter log renumbers it in the whole log).",
                          required=True),
            "type": shared("type", required=True),
            "round": shared("round", "The round it happened in.", required=True)}
    return event_schema("ArsMagica" + pascal(name) + "Event", doc, {**base, **extra})


_WHO = _d(_S, "Who the event is about (or who acted).", required=True)
_TARGET = "The combatant aimed at."
_ROLL = "The stress die as read (0 may explode or call for botch dice)."

EVENT_SCHEMAS = {
    "declared": _event("declared", "*Declarations*: what a combatant does this round.", combatant=_WHO,
                       action=_d(_S, "The declared action (attack, missile, cast, defend, ...).", required=True),
                       target=_d(_S, "Its target (null when the action has none).", required=True, allow_none=True)),
    "moved": _event("moved", "*1. Movement*: a combatant moved along the line of battle.", combatant=_WHO,
                    yards=_d(_N, "Yards moved (signed).", required=True),
                    position_yd=_d(_N, "Its position after the move, in yards.", required=True)),
    "missile_fired": _event("missile_fired", "*2./4. Missiles*: a shot.", combatant=_WHO,
                            target=_d(_S, _TARGET, required=True),
                            phase=_d(_S, "first or second missile phase.", required=True),
                            ease_factor=_d(_I, "The shot's ease factor.", required=True),
                            attack_total=_d(_I, "The shooter's attack total.", required=True),
                            roll=_d(_I, _ROLL, required=True),
                            margin=_d(_I, "Total + roll - ease factor.", required=True, allow_none=True),
                            outcome=_d(_S, "miss, hit, exceptional, friend (a friend in melee was struck) or "
                                           "botch.", required=True),
                            hit=_d(_S, "Who was struck (null: nobody).", required=True, allow_none=True)),
    "initiative_contest": _event("initiative_contest", "*3. Melee*: two engaged combatants' initiative contest.",
                                 combatant=_d(_S, "The winner (strikes first).", required=True),
                                 loser=_d(_S, "The loser.", required=True),
                                 rolls=_d(fields.Dict, "Each one's initiative value (total + stress die).",
                                          keys=_S(), values=_I(), required=True)),
    "pushed_back": _event("pushed_back", "*3. Melee*: the loser of the contest gave one yard.", combatant=_WHO,
                          by=_d(_S, "The contest's winner.", required=True),
                          yards=_d(_I, "Yards given.", required=True),
                          position_yd=_d(_N, "Its position after, in yards.", required=True)),
    "attack_rolled": _event("attack_rolled", "*3. Melee*: an attack against a defence.", combatant=_WHO,
                            target=_d(_S, _TARGET, required=True),
                            hand=_d(_S, "weapon or off_hand.", required=True),
                            attack_total=_d(_I, "Attack total with its modifiers.", required=True),
                            attack_roll=_d(_I, "Attack total + stress die.", required=True),
                            defence_total=_d(_I, "The defender's defence total.", required=True),
                            defence_mode=_d(_S, "How the defence was met (roll, ...).", required=True),
                            margin=_d(_I, "Attack roll - defence roll.", required=True),
                            outcome=_d(_S, "miss, hit or exceptional.", required=True)),
    "defence_rolled": _event("defence_rolled", "*3. Melee*: the defender's stress die.", combatant=_WHO,
                             attacker=_d(_S, "Who attacked.", required=True),
                             defence_total=_d(_I, "Defence total.", required=True),
                             defence_roll=_d(_I, "Defence total + stress die.", required=True)),
    "damage_rolled": _event("damage_rolled", "A blow landed: damage against soak.", combatant=_d(
                                _S, "The striker.", required=True), target=_d(_S, "Who was struck.", required=True),
                            damage_total=_d(_I, "Damage total.", required=True),
                            soak_total=_d(_I, "Soak total.", required=True),
                            damage_roll=_d(_I, "Damage total + margin + stress die.", required=True),
                            soak_roll=_d(_I, "Soak total + stress die.", required=True),
                            margin=_d(_I, "Damage roll - soak roll.", required=True),
                            levels=_d(_I, "Levels the blow takes.", required=True)),
    "exceptional_blow": _event("exceptional_blow", "An exceptional blow's location and effect.",
                               combatant=_d(_S, "The striker.", required=True),
                               target=_d(_S, "Who was struck.", required=True),
                               location=_d(_S, "Where it landed.", required=True),
                               severity=_d(_S, "minor, major or grave.", required=True),
                               effect=_d(_S, "The effect the options' table names.", required=True)),
    "levels_lost": _event("levels_lost", "Body and fatigue levels lost, and where the ladders stand now.",
                          combatant=_WHO, body_levels=_d(_I, "Body levels lost now.", required=True),
                          fatigue_levels=_d(_I, "Fatigue levels lost now.", required=True),
                          cause=_d(_S, "wound, brawling, fatigue, casting, exceptional_blow, ...", required=True),
                          body_level=_d(_S, "The body ladder's level now.", required=True),
                          fatigue_level=_d(_S, "The fatigue ladder's level now.", required=True)),
    "out_of_fight": _event("out_of_fight", "A combatant can no longer act.", combatant=_WHO,
                           status=_d(_S, "unconscious, incapacitated, dead, ...", required=True)),
    "botched": _event("botched", "A botch, and the botch table's entry when dice were rolled on it.",
                      combatant=_WHO, roll=_d(_S, "The roll that botched (attack, defence, damage, soak, cast, "
                                                  "...).", required=True),
                      botches=_d(_I, "Botch dice that came up 0.", required=True),
                      index=_d(_I, "The botch table roll (null: no table).", required=True, allow_none=True),
                      entry=_d(_I, "The table row read (null: none).", required=True, allow_none=True),
                      summary=_d(_S, "What the row does.")),
    "spell_cast": _event("spell_cast", "*5. Magic*: a formulaic casting.", combatant=_WHO,
                         target=_d(_S, _TARGET, required=True, allow_none=True),
                         level=_d(_I, "The spell's level.", required=True),
                         total=_d(_I, "Casting total.", required=True), roll=_d(_I, _ROLL, required=True),
                         outcome=_d(_S, "success, success_fatigue, failure or botch.", required=True)),
    "fatigue_rolled": _event("fatigue_rolled", "*6. Fatigue*: a fatigue roll.", combatant=_WHO,
                             total=_d(_I, "Fatigue total.", required=True),
                             ease_factor=_d(_I, "Its ease factor.", required=True),
                             roll=_d(_I, _ROLL, required=True),
                             outcome=_d(_S, "success, failure or botch.", required=True),
                             cause=_d(_S, "What called for it.", required=True)),
    "round_ended": _event("round_ended", "The round is over.",
                          standing=_d(fields.List, "Who can still act, in state order.", _S(), required=True)),
}
