"""The round's phases other than melee (COMBAT SEQUENCE): declarations, movement, missile phases and magic,
plus the blow both melee and missiles land (damage roll against soak roll); the fatigue roll is fatigue.py's."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.rules.ars_magica import botches, checks, movement, stress, to_hit, totals
from service.rules.ars_magica.damage import roll_damage
from service.rules.ars_magica.state import totals_of
from service.rules.ars_magica.work import Round
from service.rules.rounding import exact


def declarations(work: Round) -> None:
    """*0. Declarations*: each declaration as an event, lowest Initiative total first (option
    `declaration_order`)."""
    reverse = work.options["declaration_order"] == "highest_initiative_first"
    keyed = sorted(work.declared.values(), key=lambda d: (work.totals(d["combatant"])
                                                          .initiative, work.order.index(d["combatant"])),
                   reverse=reverse)
    for d in keyed:
        work.emit("declared", combatant=d["combatant"], action=d["action"], target=d["target"])


def allowance(c: dict, options: Any, acting: bool) -> int:
    """*1. Movement*: yards the combatant may move (sprint pace; halved when also acting; ride mounted)."""
    f = totals_of(c, options)
    yards = movement.yards_per_round(c["characteristics"]["qik"], c["encumbrance"], c["abilities"]["athletics"],
                                     c["abilities"]["ride"], f.penalty)
    pace = yards["ride"] if c["mounted"] else yards["sprint"]
    return pace // 2 if acting else pace


def move(work: Round) -> None:
    """*1. Movement*: everyone able moves the yards declared (checked against the allowance)."""
    for ident in work.order:
        d = work.declared.get(ident)
        if d is None or not d["move_yd"] or not work.able(ident):
            continue
        person = work.people[ident]
        person["position_yd"] = _number(exact(person["position_yd"]) + exact(d["move_yd"]))
        person["engaged_with"] = [] if d["action"] == "move" else person["engaged_with"]
        work.emit("moved", combatant=ident, yards=d["move_yd"], position_yd=person["position_yd"])


def initiative_roll(work: Round, ident: str) -> dict[str, Any]:
    """Initiative total + stress die (*3. Melee*, *2. First Missiles*: order of shots); no botch dice."""
    total = work.totals(ident).initiative
    die = stress.roll_stress(work.dice, "initiative", 0, "botch", ident)
    return {"combatant": ident, "total": total, "roll": die.value, "value": total + die.value}


def missile_phase(work: Round, phase: str) -> list[str]:
    """*2. First Missiles* / *4. Second Missiles*: shooters entitled by the MISSILE RATE TABLE fire in order
    of initiative rolls, highest first; returns who fired."""
    shooters = []
    for ident in work.order:
        d = work.declared.get(ident)
        if d is None or d["action"] != "missile" or not work.able(ident) or not work.able(d["target"]):
            continue
        person = work.people[ident]
        if person["missile_first_round"] is None:
            person["missile_first_round"] = work.number
        rate = totals.missile_rate(work.totals(ident).initiative)
        if totals.fires(rate, phase, work.number, person["missile_first_round"]):
            shooters.append(ident)
    rolls = [initiative_roll(work, ident) for ident in shooters]
    rolls.sort(key=lambda r: (-r["value"], -r["total"], work.order.index(r["combatant"])))
    fired = []
    for r in rolls:
        if work.able(r["combatant"]) and work.able(work.declared[r["combatant"]]["target"]):
            shoot(work, r["combatant"], phase)
            fired.append(r["combatant"])
    return fired


def shoot(work: Round, ident: str, phase: str) -> None:
    """One shot against its ease factor (MISSILE FIRE TABLE); a friend is hit when it misses only by the
    into-melee +3."""
    d, shooter = work.declared[ident], work.people[ident]
    target = work.people[d["target"]]
    mine = work.totals(ident)
    theirs = work.totals(d["target"])
    shot = to_hit.Missile(abs(exact(target["position_yd"]) - exact(shooter["position_yd"])),
                          target_movement=_pace(work, d["target"]), target_qik=target["characteristics"]["qik"],
                          target_size=target["size"],
                          target_dodge=theirs.dodge if work.action(d["target"]) in ("defend", "desperate_defence")
                          else None, shield_defence=(target["shield"] or {}).get("defence", 0),
                          into_melee=bool(target["engaged_with"]))
    ef, _ = to_hit.ease_factor(shot)
    attack = mine.attack + work.effect(ident, "attack")
    swing = to_hit.roll_missile(attack, ef, shot.into_melee, work.options["botch_dice"], work.options, work.dice,
                                ident, ("missile", "botch"))
    hit = d["target"]
    if swing.outcome == "friend":
        friends = [f for f in target["engaged_with"] if work.people[f]["side"] == shooter["side"] and work.able(f)]
        hit = friends[0] if friends else None
    work.emit("missile_fired", combatant=ident, target=d["target"], phase=phase, ease_factor=ef,
              attack_total=attack, roll=swing.attack_roll, margin=swing.margin, outcome=swing.outcome, hit=hit)
    if swing.attack_botches:
        botches.botch(work, ident, "attack", swing.attack_botches, d["target"], self_damage(work))
    if hit is not None and swing.outcome != "miss":
        land(work, ident, hit, mine.damage + work.effect(ident, "damage"), swing.outcome == "exceptional",
             d["location"], all_out=False)


def _pace(work: Round, ident: str) -> str:
    d = work.declared.get(ident)
    if d is None or not d["move_yd"]:
        return "still"
    yards = abs(exact(d["move_yd"]))
    c = work.people[ident]
    paces = movement.yards_per_round(c["characteristics"]["qik"], c["encumbrance"], c["abilities"]["athletics"], 0, 0)
    return "sprinting" if yards > paces["hustle"] else "hustling" if yards > paces["walk"] else "walking"


def land(work: Round, striker: str, victim: str, damage: int, exceptional: bool, location: str | None,
         all_out: bool, brawling: bool = False) -> None:
    """A landed blow (*3. Melee*): damage roll against soak roll (armor dropped on an exceptional blow),
    body (or brawling fatigue) levels, the exceptional effect, botches of either roll."""
    target = work.people[victim]
    soak = work.totals(victim)
    protection = totals.protection_of(target["armor"], work.options["armor_pack"], ("armor",))
    soak_total = soak.soak - (protection if exceptional else 0)
    place = (location or "head") if exceptional else None
    n = work.options["botch_dice"]
    blow = roll_damage(damage, soak_total, {"damage": n, "soak": n}, work.dice, work.options, all_out, brawling,
                       place, striker, victim, ("damage", "botch", "soak", "botch"))
    work.emit("damage_rolled", combatant=striker, target=victim, damage_total=damage, soak_total=soak_total,
              damage_roll=blow.damage_roll, soak_roll=blow.soak_roll, margin=blow.margin, levels=blow.levels)
    work.lose(victim, blow.body_levels, blow.fatigue_levels, "brawling" if brawling else "wound")
    if exceptional and blow.effect is not None:
        work.emit("exceptional_blow", combatant=striker, target=victim, location=place, severity=blow.severity,
                  effect=blow.effect)
        if work.able(victim):
            exceptional_effect(work, victim, blow.effect)
    if blow.damage_die.botched:
        botches.botch(work, striker, "damage", blow.damage_die.botches, victim, self_damage(work))
    if blow.soak_die.botched:
        botches.botch(work, victim, "soak", blow.soak_die.botches, striker, self_damage(work))


def exceptional_effect(work: Round, victim: str, effect: str) -> None:
    """What an effect name of option `exceptional_effects` does in the engine: `unconscious...`,
    `incapacitated`, `..._fatigue_N`, `penalty_N` (attack and defence for the combat); the rest is recorded
    as a condition."""
    person = work.people[victim]
    person["conditions"] = [*person["conditions"], effect][-100:]
    if effect.startswith("unconscious"):
        work.set_level(victim, "fatigue", "unconscious", "exceptional_blow")
    if effect == "incapacitated":
        work.set_level(victim, "body", "incapacitated", "exceptional_blow")
    parts = effect.split("_")
    for i, part in enumerate(parts[:-1]):
        if part == "fatigue" and parts[i + 1].isdigit():
            work.lose(victim, fatigue=int(parts[i + 1]), cause="exceptional_blow")
        if part == "penalty" and parts[i + 1].isdigit():
            for kind in ("attack", "defence"):
                work.add_effect(victim, kind, -int(parts[i + 1]), None)


def self_damage(work: Round):  # type: ignore[no-untyped-def]
    """The botch entries "own damage against own soak" (*Combat Botch Result Table*)."""
    def hurt(who: str, opponent: str | None) -> None:
        if work.able(who):
            land(work, who, who, work.totals(who).damage, False, None, False)
    return hurt


def magic(work: Round) -> None:
    """*5. Magic*: formulaic castings in order Finesse + Qik - Enc (Finesse: not kept, so Qik - Enc)."""
    casters = [i for i in work.order if work.action(i) == "cast" and work.able(i)]
    casters.sort(key=lambda i: (-(work.people[i]["characteristics"]["qik"] - work.people[i]["encumbrance"]),
                                work.order.index(i)))
    for ident in casters:
        spell, person = work.declared[ident]["spell"], work.people[ident]
        total, _ = checks.casting_total(spell["technique"], spell["form"], person["characteristics"]["stm"],
                                        person["encumbrance"], False, 0, 0, "firm", "bold")
        check = checks.Check("formulaic", total, spell["level"], work.options["botch_dice"])
        value, word, rolled = checks.roll_check(check, work.dice, work.options, ident, ("cast", "botch"))
        work.emit("spell_cast", combatant=ident, target=work.declared[ident]["target"], level=spell["level"],
                  total=total, roll=value, outcome=word)
        if word == "botch":
            work.emit("botched", combatant=ident, roll="cast", botches=rolled.botches, index=None, entry=None)
        if word == "success_fatigue":
            work.lose(ident, fatigue=1, cause="casting")


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)
