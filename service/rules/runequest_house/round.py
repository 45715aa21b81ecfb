"""One melee round (rules document §8; seed *1) Statement of Intent* to *4) Post Melee Move Phase*):
Statement of Intent in INT order, the Move phase in DEX order, every attack, missile and spell in strike-rank
order, the Post-Melee Move. Every die comes from the round's DiceSource, by role and combatant."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from service.rules.dice import DiceSource
from service.rules.interface import StepResult
from service.rules.runequest_house import armor, geometry, grapple, percentile, stats, status, to_hit
from service.rules.runequest_house.contest import resistance as contest_resistance
from service.rules.runequest_house.damage import blow, passage, wound
from service.rules.runequest_house.declarations import FOLLOW_UPS
from service.rules.runequest_house.dice_expr import parse
from service.rules.runequest_house.knockback import Target, knockback
from service.rules.runequest_house.model import State
from service.rules.runequest_house.options import fraction

TIMED = ("attack", "missile", "cast")
PARRY_DEGREE = {"parried": "success", "parried_special": "special", "parried_critical": "critical"}
NO_SITUATION = {"same_weapon_twice": False, "high_ground": False, "mounted": False, "terrain_bonus": 0,
                "prone_attacker": False, "prone_target": False, "target_movement": "none", "point_blank": False,
                "giant_exposed": False, "closed_vs_long": False, "shooter_adjacent": False,
                "high_ground_location": False}
DEFENCE_BASE = {"modifier": 0, "defensive_abort": False, "double_dodge": False, "opponent_number": 1,
                "same_sr_attacks": 0, "braced": False, "high_ground": False, "two_attackers_same_weapon": False}


def clone(combatant: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a combatant whose mutable parts (HP, weapons, shield, flags) can change this round."""
    out = dict(combatant)
    out["location_hp"] = dict(combatant["location_hp"])
    out["characteristics"] = dict(combatant["characteristics"])
    out["skills"] = dict(combatant["skills"])
    out["armor"] = {loc: list(layers) for loc, layers in combatant["armor"].items()}
    out["weapons"] = [dict(w) for w in combatant["weapons"]]
    out["shield"] = dict(combatant["shield"]) if combatant["shield"] else None
    out["position"] = dict(combatant["position"]) if combatant["position"] else None
    for key in ("engaged_with", "closed_with", "conditions"):
        out[key] = list(combatant[key])
    out["holding"] = dict(combatant["holding"]) if combatant.get("holding") else None
    return out


class Round:
    """The working state of one round being resolved."""

    def __init__(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource):
        self.state, self.options, self.dice = state, state.options, dice
        self.people = {c["id"]: clone(c) for c in state.combatants}
        self.declared = {d["combatant"]: d for d in declarations}
        self.events: list[dict[str, Any]] = []
        self.lost: set[tuple[str, int]] = set()
        self.done: set[tuple[str, int]] = set()
        self.defended: dict[str, dict[str, list[str]]] = {}
        self.changes = 0  # wounds and falls so far (what can change a status)
        self.dodged_on: dict[str, list[int]] = {}
        self.adjacent_at_start = {ident: bool(c["engaged_with"]) for ident, c in self.people.items()}

    def emit(self, kind: str, **fields: Any) -> dict[str, Any]:
        event = {"seq": len(self.events) + 1, "type": kind, **fields}
        self.events.append(event)
        return event

    # --- 1) Statement of Intent ---------------------------------------------------------------------

    def intent_order(self) -> list[str]:
        """Lowest INT declares first; ties by the `intent_tie` d20, lower first [DOC *1) Statement of Intent*]."""
        return self._ordered(lambda c: c["characteristics"]["int"], "intent_tie", lowest_first=True)

    def movement_order(self) -> list[str]:
        """Highest DEX moves first; ties by the `movement_tie` d20, higher first [DOC *2) Move Phase*]."""
        return self._ordered(lambda c: c["characteristics"]["dex"], "movement_tie", lowest_first=False)

    def _ordered(self, key: Any, role: str, lowest_first: bool) -> list[str]:
        ids = [ident for ident in self.people if ident in self.declared]
        values = {ident: key(self.people[ident]) for ident in ids}
        counts: dict[int, int] = {}
        for value in values.values():
            counts[value] = counts.get(value, 0) + 1
        ties = {ident: self.dice.roll(role, 1, 20, combatant=ident).total if counts[values[ident]] > 1 else 0
                for ident in ids}
        sign = 1 if lowest_first else -1
        return sorted(ids, key=lambda i: (sign * values[i], sign * ties[i]))

    # --- 2) and 4) movement ---------------------------------------------------------------------------

    def move_phase(self, order: list[str], phase: str) -> None:
        """Move toward the declared target, MOV x (1 + move actions) metres [INF]; a figure that starts the
        Move phase engaged goes a third as far unless it wins a Maneuver contest (*Maneuver*); coming next to
        an enemy ends the Move phase's movement (engagement); braced figures stay in the Post-Melee Move."""
        for ident in order:
            who, decl = self.people[ident], self.declared[ident]
            moves = [a for a in decl["actions"] if a["type"] == "move"]
            if not moves or not status.can_fight(who) or (phase == "post_melee" and decl["braced"]):
                continue
            if who["prone"]:
                if phase == "move":
                    who["prone"] = False
                    self.emit("moved", combatant=ident, phase=phase, metres=0, stood_up=True, position=who["position"])
                continue
            k = 1 + sum(a["move_actions"] for a in moves)
            if phase == "post_melee" and decl["abort"] == "movement":
                k += 1
            metres = who["mov"] * k
            target_id = next((a["target"] for a in moves if a["target"]), None)
            leaving = phase == "move" and who["engaged_with"] and target_id not in who["engaged_with"]
            if leaving and not self.maneuver(who, self.people[who["engaged_with"][0]]):
                metres = 0
            self.walk(who, target_id, metres, phase)

    def maneuver(self, mover: dict[str, Any], foe: dict[str, Any]) -> bool:
        """A contest of Maneuver (+5% per metre of basic MOV above the other); the higher degree wins."""
        a_skill = mover["skills"]["maneuver"] + 5 * max(0, mover["mov"] - foe["mov"])
        b_skill = foe["skills"]["maneuver"] + 5 * max(0, foe["mov"] - mover["mov"])
        a = self.dice.roll("maneuver", 1, 100, combatant=mover["id"]).total
        b = self.dice.roll("maneuver", 1, 100, combatant=foe["id"]).total
        a_degree = percentile.bands(a_skill, self.options).degree(a)
        b_degree = percentile.bands(b_skill, self.options).degree(b)
        won = percentile.better(a_degree, b_degree)
        self.emit("maneuver_contest", combatant=mover["id"], opponent=foe["id"], roll=a, degree=a_degree,
                  opponent_roll=b, opponent_degree=b_degree, winner=mover["id"] if won else (
                      foe["id"] if percentile.better(b_degree, a_degree) else None))
        if won:
            self._disengage(mover, foe)
        return won

    def walk(self, who: dict[str, Any], target_id: str | None, metres: int, phase: str) -> None:
        start = dict(who["position"]) if who["position"] else None
        target = self.people.get(target_id) if target_id else None
        moved = 0
        if start and target and target["position"]:
            taken = {(c["position"]["q"], c["position"]["r"]) for c in self.people.values()
                     if c["position"] and c["id"] != who["id"] and status.status(c) != "dead"}
            while moved < metres and geometry.distance(who["position"], target["position"]) > 1:
                nxt = geometry.step_toward(who["position"], target["position"], taken)
                if nxt is None:
                    break
                who["position"], moved = nxt, moved + 1
                if phase == "move" and self._engage(who):
                    break
        else:
            moved = metres
        self.emit("moved", combatant=who["id"], phase=phase, metres=moved, position=who["position"])

    def _engage(self, who: dict[str, Any]) -> bool:
        """Engagement (*2) Move Phase*): within reach of an enemy who declared a melee attack."""
        engaged = False
        for other in self.people.values():
            if other["side"] == who["side"] or other["id"] == who["id"] or not status.can_fight(other):
                continue
            attack = next((a for a in self.declared.get(other["id"], {"actions": []})["actions"]
                           if a["type"] == "attack"), None)
            if attack is None:
                continue
            d = geometry.distance(who["position"], other["position"])
            if d is not None and d <= geometry.reach(other["weapons"][attack["weapon"]]):
                self._mark_engaged(who, other)
                engaged = True
        return engaged

    def _mark_engaged(self, a: dict[str, Any], b: dict[str, Any]) -> None:
        if b["id"] in a["engaged_with"]:
            return
        a["engaged_with"] = sorted({*a["engaged_with"], b["id"]})
        b["engaged_with"] = sorted({*b["engaged_with"], a["id"]})
        self.emit("engaged", combatant=a["id"], opponent=b["id"])

    def _disengage(self, a: dict[str, Any], b: dict[str, Any]) -> None:
        a["engaged_with"] = [i for i in a["engaged_with"] if i != b["id"]]
        b["engaged_with"] = [i for i in b["engaged_with"] if i != a["id"]]

    # --- 3) Melee phase -----------------------------------------------------------------------------------

    def strike_order(self) -> list[dict[str, Any]]:
        """Every attack, missile and spell with its SR, ascending; ties by higher DEX, then simultaneous
        [CORE/DEF `sr_tie`]. One weapon twice: -10% each, the second min(SR + 3, 10) (*1) Statement of Intent*)."""
        entries = []
        for order, (ident, decl) in enumerate(self.declared.items()):
            who = self.people[ident]
            dex, siz = who["characteristics"]["dex"], who["characteristics"]["siz"]
            actions = decl["actions"]
            twice = [a["type"] for a in actions] == ["attack", "attack"] and actions[0]["weapon"] == actions[1]["weapon"]
            srs: list[int | None] = []
            for index, action in enumerate(actions):
                sr = None
                if action["type"] == "attack" and action["mode"] in FOLLOW_UPS:
                    sr = stats.dex_sr(dex, self.options)  # *Page 60*: at DEX SR
                elif action["type"] == "attack":
                    weapon_sr = 0 if action["mode"] == "grapple" else who["weapons"][action["weapon"]]["sr"]
                    sr = stats.melee_sr(dex, siz, weapon_sr, self.options)
                    if twice and index == 1:
                        sr = stats.second_attack_sr(srs[0])  # type: ignore[arg-type]
                elif action["type"] == "missile":
                    sr = stats.dex_sr(dex, self.options)
                elif action["type"] == "cast":
                    sr = action["spell_sr"] if action["spell_sr"] is not None else stats.spell_sr(
                        dex, action["magic_points"], self.options)
                    if index == 1 and actions[0]["type"] == "cast":
                        sr += srs[0]  # type: ignore[operator]
                srs.append(sr)
                if sr is not None:
                    entries.append({"combatant": ident, "action": action["type"], "sr": sr, "index": index,
                                    "target": action["target"], "twice": twice, "dex": dex, "order": order})
        entries.sort(key=lambda e: (e["sr"], -e["dex"], e["order"], e["index"]))
        return entries

    def melee_phase(self, entries: list[dict[str, Any]]) -> None:
        """Resolve in SR order; a figure disabled before its SR loses its remaining actions (those on the
        same SR and DEX act simultaneously)."""
        able_at: dict[tuple[int, int], set[str]] = {}
        seen, able = -1, set()
        for entry in entries:
            key = (entry["sr"], entry["dex"])
            if key not in able_at:
                if seen != self.changes:  # statuses change only through wounds and falls
                    able, seen = {i for i, c in self.people.items() if status.can_fight(c)}, self.changes
                able_at[key] = able
            ident, index = entry["combatant"], entry["index"]
            if ident not in able_at[key] or (ident, index) in self.lost:
                continue
            self.done.add((ident, index))
            action = self.declared[ident]["actions"][index]
            if action["type"] == "attack" and action["mode"] in FOLLOW_UPS:
                self.follow_up(self.people[ident], action)
            elif entry["action"] in ("attack", "missile"):
                self.attack(self.people[ident], action, index, entry)

    def attack(self, who: dict[str, Any], action: Mapping[str, Any], index: int, entry: Mapping[str, Any]) -> None:
        """One attack: attack roll, the target's declared defence, degrees compared, then location, damage,
        parry, armor, HP and knockback."""
        target = self.people[action["target"]]
        if status.status(target) == "dead":
            return
        grapple = action["mode"] == "grapple"
        weapon = who["weapons"][action["weapon"]]
        distance = geometry.distance(who["position"], target["position"])
        if not grapple and weapon["kind"] == "melee" and distance is not None and distance > geometry.reach(weapon):
            self.emit("attack_rolled", combatant=who["id"], target=target["id"], sr=entry["sr"], roll=None,
                      effective=None, degree=None, out_of_reach=True)
            return
        point_blank = False
        if weapon["kind"] != "melee" and distance is not None and weapon["effective_range_m"]:
            point_blank = distance <= weapon["effective_range_m"] * fraction(self.options["point_blank_fraction"])
        situation = {**NO_SITUATION, "same_weapon_twice": bool(entry["twice"]), "prone_attacker": who["prone"],
                     "prone_target": target["prone"], "point_blank": point_blank,
                     "shooter_adjacent": self.adjacent_at_start[who["id"]] and weapon["kind"] != "melee"}
        base = who["skills"]["grapple"] if grapple else weapon["attack"]
        check = to_hit.attack_check(base, 0, weapon, situation, self.options)
        defence, item = self.defence_for(target, who, weapon, situation, entry["sr"])
        face = self.dice.roll("attack", 1, 100, combatant=who["id"]).total
        degree = check.bands.degree(face)
        self.emit("attack_rolled", combatant=who["id"], target=target["id"], sr=entry["sr"], weapon=weapon["name"],
                  mode=action["mode"], roll=face, effective=check.effective, degree=degree)
        d_degree = None
        if defence.type != "none":
            counting = defence.counting_bands()
            d_face = self.dice.roll("defence", 1, 100, combatant=target["id"]).total
            d_degree = counting.degree(d_face) if counting else "failure"
            self.emit("defence_rolled", combatant=target["id"], attacker=who["id"], defence=defence.type,
                      roll=d_face, effective=defence.check.effective if defence.check else None, degree=d_degree)
            if d_degree == "fumble":
                self.fumbled(target)
        result = to_hit.outcome(degree, defence.type, d_degree)
        if degree == "fumble":
            self.fumbled(who, index)
        if defence.type == "dodge" and d_degree in ("success", "special", "critical"):
            self.emit("dodged", combatant=target["id"], attacker=who["id"], degree=d_degree, outcome=result)
        if result in PARRY_DEGREE:
            self.emit("parried", combatant=target["id"], attacker=who["id"], degree=PARRY_DEGREE[result],
                      item=item["name"] if item else None)
        if result in ("fumble", "miss"):
            if defence.type == "parry" and degree == "failure" and d_degree in ("success", "special", "critical"):
                self.bladed_parry(who, weapon, item, d_degree)
            return
        if result == "parried_critical":
            return
        self.landed(who, target, weapon, result, item, grapple, degree)

    def follow_up(self, who: dict[str, Any], action: Mapping[str, Any]) -> None:
        """A grapple follow-up (*Page 60*): a second grapple roll (throw +10%, damage -10%; a failure releases
        the hold), then the resistance roll (immobilise STR vs STR/2, throw STR + DEX vs SIZ/2 + DEX); a throw
        does 1d6 + damage bonus to a random location, armor at most half, halved by a DEX x1 success; damage
        does 1d4 + damage bonus to the held location, armor ignored, protective spells at half. The held
        figure may break an immobilising hold with STR/2 vs STR (`escape`)."""
        mode, other = action["mode"], self.people[action["target"]]
        if status.status(other) == "dead":
            return
        if mode == "escape":
            self._resist(who, grapple.half(who["characteristics"]["str"]), other["characteristics"]["str"], mode,
                         lambda: other.update(holding=None))
            return
        hold = who["holding"]
        if not hold or hold["target"] != other["id"]:
            return
        skill = who["skills"]["grapple"] + grapple.SKILL_SHIFT[mode]
        face = self.dice.roll("grapple", 1, 100, combatant=who["id"]).total
        degree = percentile.bands(skill, self.options).degree(face)
        self.emit("attack_rolled", combatant=who["id"], target=other["id"], sr=None, weapon=None, mode=mode,
                  roll=face, effective=skill, degree=degree)
        if degree in ("failure", "fumble"):
            who["holding"] = None
            self.emit("grappled", combatant=who["id"], target=other["id"], location=None, caught=None, released=True)
            return
        chars, foe = who["characteristics"], other["characteristics"]
        if mode == "immobilise":
            self._resist(who, chars["str"], grapple.half(foe["str"]), mode, lambda: hold.update(immobilised=True))
        elif mode == "throw":
            self._resist(who, chars["str"] + chars["dex"], grapple.half(foe["siz"]) + foe["dex"], mode,
                         lambda: self._thrown(who, other))
        else:
            bonus = stats.damage_bonus(chars["str"], chars["siz"], self.options)
            amount = max(0, parse("1d4").roll(self.dice, "damage", who["id"]) + parse(bonus).roll(self.dice, "bonus",
                                                                                                  who["id"]))
            self.emit("damage_rolled", combatant=who["id"], target=other["id"], expression=f"1d4{bonus if bonus[0] in '+-' else ''}",
                      damage=amount, degree=degree, location=hold["location"])
            self._grapple_wound(other, hold["location"], max(0, amount - other["protection"] // 2))

    def _resist(self, active_side: dict[str, Any], active: int, passive: int, mode: str, won: Any) -> None:
        chance = contest_resistance(active, passive, self.options)
        face = self.dice.roll("resistance", 1, 100, combatant=active_side["id"]).total
        self.emit("grappled", combatant=active_side["id"], target=None, location=None, caught=None, mode=mode,
                  resistance=chance, roll=face, success=face <= chance)
        if face <= chance:
            won()

    def _thrown(self, who: dict[str, Any], other: dict[str, Any]) -> None:
        bonus = stats.damage_bonus(who["characteristics"]["str"], who["characteristics"]["siz"], self.options)
        face = self.dice.roll("location", 1, 20, combatant=who["id"]).total
        location = to_hit.location_of(self.options["melee_locations"], face)
        amount = max(0, parse("1d6").roll(self.dice, "damage", who["id"]) + parse(bonus).roll(self.dice, "bonus",
                                                                                              who["id"]))
        dex = self.dice.roll("dex_roll", 1, 100, combatant=other["id"]).total
        if percentile.bands(other["characteristics"]["dex"], self.options).degree(dex) in ("success", "special",
                                                                                          "critical"):
            amount = amount // 2
        layers = armor.layered(other["armor"].get(location, []), other["protection"], self.options)
        who["holding"] = None
        self.emit("damage_rolled", combatant=who["id"], target=other["id"], expression="1d6" + (
            bonus if bonus[0] in "+-" else ""), damage=amount, degree="success", location=location)
        if not other["prone"]:
            other["prone"] = True
            self.changes += 1
            self.emit("fell", combatant=other["id"], cause="thrown")
        self._grapple_wound(other, location, max(0, amount - layers.ap // 2))

    def _grapple_wound(self, target: dict[str, Any], location: str, amount: int) -> None:
        before = status.status(target)
        if amount > 0:
            self.wound(target, location, amount)
        self.status_changed(target, before)

    def fumbled(self, who: dict[str, Any], index: int | None = None) -> None:
        """A fumble without a core table: the fumbler loses its other declared action [DEF `fumble_effect`]."""
        for other in range(2):
            if other != index and (who["id"], other) not in self.done:
                self.lost.add((who["id"], other))

    def defence_for(self, target: dict[str, Any], attacker: dict[str, Any], weapon: Mapping[str, Any],
                    situation: Mapping[str, Any], sr: int | None = None) -> tuple[to_hit.Defence, dict[str, Any] | None]:
        """The target's declared dodge or parry for this attack: one action defends against one attack, two
        against everything (parries: from two sources; dodges: -10% per opponent after the first); else a
        defensive abort of an unused melee action at -20% (*Altering Statement of Intent*)."""
        none = to_hit.Defence("none", None, False)
        decl = self.declared.get(target["id"])
        if decl is None or not status.can_fight(target):
            return none, None
        used = self.defended.setdefault(target["id"], {"parry": [], "dodge": []})
        free = [i for i, a in enumerate(decl["actions"]) if (target["id"], i) not in self.lost]
        abort = False
        for kind in ("parry", "dodge"):
            count = sum(1 for i in free if decl["actions"][i]["type"] == kind)
            sources = list(dict.fromkeys(used[kind]))
            if count == 2 and (kind == "dodge" or attacker["id"] in sources or len(sources) < 2):
                break
            if count == 1 and not used[kind]:
                break
        else:
            unused = [i for i in free if decl["actions"][i]["type"] in ("attack", "missile")
                      and (target["id"], i) not in self.done]
            if decl["abort"] != "defensive" or not unused:
                return none, None
            self.lost.add((target["id"], unused[0]))
            kind, abort = ("parry" if self.parry_item(target, decl) else "dodge"), True
        if kind == "dodge" and decl["braced"]:
            return none, None
        item = self.parry_item(target, decl) if kind == "parry" else None
        if kind == "parry" and item is None:
            return none, None
        used[kind].append(attacker["id"])
        opponents = list(dict.fromkeys(used[kind]))
        defence = {**DEFENCE_BASE, "type": kind, "defensive_abort": abort,
                   "skill": item["parry"] if item else target["skills"]["dodge"],
                   "item": item["item"] if item else "weapon",
                   "double_dodge": kind == "dodge" and not abort, "opponent_number": opponents.index(attacker["id"]) + 1,
                   "same_sr_attacks": self._same_sr(target, kind, sr)}
        return to_hit.defence_check(defence, weapon, situation, self.options), item

    def _same_sr(self, target: dict[str, Any], kind: str, sr: int | None) -> int:
        """Attacks already dodged on this SR this round: each costs `same_sr_dodge_penalty` [DEF]."""
        if kind != "dodge" or sr is None:
            return 0
        dodged = self.dodged_on.setdefault(target["id"], [])
        earlier = dodged.count(sr)
        dodged.append(sr)
        return earlier

    def parry_item(self, target: dict[str, Any], decl: Mapping[str, Any]) -> dict[str, Any] | None:
        """What parries: the parry action's weapon, else the shield, else the first weapon with a parry %."""
        chosen = next((a["weapon"] for a in decl["actions"] if a["type"] == "parry" and a["weapon"] is not None), None)
        if chosen is not None:
            w = target["weapons"][chosen]
            return {"name": w["name"], "item": "weapon", "parry": w["parry"], "ap": w["ap"], "ref": ("weapon", chosen),
                    "bladed": w["bladed"], "hafted": w["hafted"], "long_hafted": w["long_hafted"]}
        if target["shield"] and target["location_hp"]["left_arm"] > 0:
            s = target["shield"]
            name = "buckler" if s["size"] == "buckler" else f"{s['size']}_shield"
            return {"name": name, "item": name, "parry": s["parry"], "ap": s["ap"], "ref": ("shield", 0),
                    "bladed": False, "hafted": False, "long_hafted": False}
        for i, w in enumerate(target["weapons"]):
            if w["parry"] > 0 and w["kind"] == "melee":
                return {"name": w["name"], "item": "weapon", "parry": w["parry"], "ap": w["ap"], "ref": ("weapon", i),
                        "bladed": w["bladed"], "hafted": w["hafted"], "long_hafted": w["long_hafted"]}
        return None

    def bladed_parry(self, attacker: dict[str, Any], weapon: dict[str, Any], item: Mapping[str, Any] | None,
                     parry_degree: str) -> None:
        """*Standard Parry*: a bladed parry damages a failed attacking weapon; hafted blades need a special,
        long-hafted a critical [DOC]; by `parry_weapon_damage` AP [DEF]."""
        if not item or not item["bladed"]:
            return
        needed = "critical" if item["long_hafted"] else "special" if item["hafted"] else "success"
        if percentile.RANK[parry_degree] < percentile.RANK[needed]:
            return
        loss = self.options["parry_weapon_damage"]
        weapon["ap"] = max(0, weapon["ap"] - loss)
        self.emit("weapon_damaged", combatant=attacker["id"], item=weapon["name"], ap_loss=loss, ap=weapon["ap"])

    def landed(self, who: dict[str, Any], target: dict[str, Any], weapon: dict[str, Any], result: str,
               item: dict[str, Any] | None, grapple: bool, rolled: str = "success") -> None:
        """Location, damage, parry absorption, armor, wounds and knockback of a blow that got through."""
        table = "missile" if weapon["kind"] != "melee" else "melee"
        face = self.dice.roll("location", 1, 20, combatant=who["id"]).total
        location = to_hit.location_of(self.options[f"{table}_locations"], face)
        if grapple:
            if result not in PARRY_DEGREE:
                who["holding"] = {"target": target["id"], "location": location, "immobilised": False}
            if result in PARRY_DEGREE:
                self.emit("grappled", combatant=who["id"], target=target["id"], location=None,
                          caught=item["name"] if item else None)
            else:
                self.emit("grappled", combatant=who["id"], target=target["id"], location=location, caught=None)
            return
        # a parried blow keeps the attack roll's degree; an unparried one the degree the defence left it
        degree = rolled if result in PARRY_DEGREE else ("success" if result == "hit" else result)
        bonus = stats.damage_bonus(who["characteristics"]["str"], who["characteristics"]["siz"], self.options)
        damage, expression = self.roll_blow(who, weapon, bonus, degree)
        self.emit("damage_rolled", combatant=who["id"], target=target["id"], expression=expression, damage=damage,
                  degree=degree, location=location)
        parry_degree = PARRY_DEGREE.get(result, "failure")
        layers = armor.layered(target["armor"].get(location, []), target["protection"], self.options)
        went = passage(damage, degree, parry_degree, item["ap"] if item else 0, layers.ap, self.options)
        if went.parry_ap_loss and item:
            kind, index = item["ref"]
            holder = target["weapons"][index] if kind == "weapon" else target["shield"]
            holder["ap"] = max(0, holder["ap"] - went.parry_ap_loss)
            self.emit("weapon_damaged", combatant=target["id"], item=item["name"], ap_loss=went.parry_ap_loss,
                      ap=holder["ap"], parrying=True)
        if went.armor_absorbed:
            self.emit("armor_absorbed", combatant=target["id"], location=location, absorbed=went.armor_absorbed,
                      ap=layers.ap)
        before = status.status(target)
        if went.to_location > 0:
            self.wound(target, location, went.to_location)
        self.knock(target, who, weapon, went, degree)
        self.status_changed(target, before)

    def roll_blow(self, who: Mapping[str, Any], weapon: Mapping[str, Any], bonus: str, degree: str) -> tuple[int, str]:
        """Roll the blow's dice: weapon dice under role `damage` (twice for a special impale or slash),
        the damage bonus under `bonus` (at its maximum for a special crush)."""
        made = blow(weapon["damage"], weapon["type"], bonus, degree, self.options)
        if degree == "critical_max":
            return made.constant, made.text()
        base, db = parse(weapon["damage"]), parse(bonus)
        special = degree in ("special", "critical") and self.options["special_damage"] == "rq3"
        total = base.roll(self.dice, "damage", who["id"])
        if special and weapon["type"] != "crush":
            total += base.roll(self.dice, "damage", who["id"])
        total += db.maximum() if special and weapon["type"] == "crush" else db.roll(self.dice, "bonus", who["id"])
        return max(0, total), made.text()

    def wound(self, target: dict[str, Any], location: str, amount: int) -> None:
        full = stats.location_hp(stats.hit_points(target["characteristics"]["con"], target["characteristics"]["siz"]),
                                 self.options)
        hurt = wound(location, amount, target["location_hp"][location], full[location], target["hp"])
        target["location_hp"][location], target["hp"] = hurt.location_hp_after, hurt.hp_after
        self.changes += 1
        if hurt.location_state == "dying" and "dying" not in target["conditions"]:
            target["conditions"] = sorted({*target["conditions"], "dying"})
        if hurt.location_state == "severed":
            target["conditions"] = sorted({*target["conditions"], f"severed:{location}"})
        self.emit("location_damaged", combatant=target["id"], location=location, damage=amount,
                  location_hp=hurt.location_hp_after, hp=hurt.hp_after, location_state=hurt.location_state)
        falls = (location in ("right_leg", "left_leg", "abdomen", "chest") and hurt.location_hp_after <= 0)
        if falls and not target["prone"]:
            target["prone"] = True
            self.emit("fell", combatant=target["id"], cause="wound", location=location)

    def knock(self, target: dict[str, Any], attacker: Mapping[str, Any], weapon: Mapping[str, Any], went: Any,
              degree: str) -> None:
        """Knockback of the blow (*Page 49*), the DEX roll (role `dex_roll`) and the fall."""
        counted = went.through_parry if self.options["knockback_damage"] == "after_parry_before_armor" \
            else went.to_location
        impaled = weapon["type"] == "impale" and degree != "success" and went.to_location > 0 \
            and self.options["special_damage"] == "rq3"
        chars = target["characteristics"]
        who = Target(chars["siz"], chars["str"], chars["dex"], target["braced"])
        pushed = knockback(counted, weapon["type"], who, self.options, went.to_location > 0, impaled)
        if pushed.metres == 0:
            return
        event = self.emit("knockback", combatant=target["id"], attacker=attacker["id"], metres=pushed.metres,
                          dex_multiplier=pushed.dex_multiplier, roll=None, fell=False)
        self.push(target, attacker, pushed.metres)
        if target["prone"]:
            return
        if pushed.automatic_fall:
            fell = True
        else:
            face = self.dice.roll("dex_roll", 1, 100, combatant=target["id"]).total
            event["roll"] = face
            fell = percentile.bands(chars["dex"] * pushed.dex_multiplier, self.options).degree(face) in (
                "failure", "fumble")
        if fell:
            self.changes += 1
            event["fell"] = True
            target["prone"] = True
            self.emit("fell", combatant=target["id"], cause="knockback")

    def push(self, target: dict[str, Any], attacker: Mapping[str, Any], metres: int) -> None:
        if not target["position"] or not attacker["position"]:
            return
        taken = {(c["position"]["q"], c["position"]["r"]) for c in self.people.values()
                 if c["position"] and c["id"] != target["id"]}
        for _ in range(metres):
            best, far = None, geometry.distance(target["position"], attacker["position"])
            for dq, dr in geometry.NEIGHBOURS:
                hexagon = {"q": target["position"]["q"] + dq, "r": target["position"]["r"] + dr}
                d = geometry.distance(hexagon, attacker["position"])
                if (hexagon["q"], hexagon["r"]) not in taken and d is not None and far is not None and d > far:
                    best, far = hexagon, d
            if best is None:
                return
            target["position"] = best

    def status_changed(self, target: dict[str, Any], before: str) -> None:
        after = status.status(target)
        if after == before or after in ("standing", "prone"):
            return
        if after == "dead":
            self.emit("killed", combatant=target["id"])
        else:
            self.emit("disabled", combatant=target["id"], status=after)


def resolve(state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
    """One round: intent, move, melee in SR order, post-melee move; events in order and the new state."""
    work = Round(state, declarations, dice)
    for ident, decl in work.declared.items():
        work.people[ident]["braced"] = decl["braced"]
    for ident in work.people:
        if ident not in work.declared:
            work.people[ident]["braced"] = False
    intent = work.intent_order()
    for ident in intent:
        decl = work.declared[ident]
        work.emit("intent_declared", combatant=ident,
                  actions=[{k: a[k] for k in ("type", "target", "weapon", "mode")} for a in decl["actions"]],
                  braced=decl["braced"], abort=decl["abort"])
    movement = work.movement_order()
    work.move_phase(movement, "move")
    entries = work.strike_order()
    work.melee_phase(entries)
    work.move_phase(movement, "post_melee")
    for entry in entries:
        if entry["action"] == "attack" and entry["target"] and geometry.distance(
                work.people[entry["combatant"]]["position"], work.people[entry["target"]]["position"]) is None:
            work._mark_engaged(work.people[entry["combatant"]], work.people[entry["target"]])
    number = state.round + 1
    work.emit("round_ended", round=number)
    new_state = replace(state, round=number, combatants=tuple(work.people[c["id"]] for c in state.combatants))
    strike = [{"combatant": e["combatant"], "action": e["action"], "sr": e["sr"], "target": e["target"]}
              for e in entries]
    return StepResult(work.events, new_state,
                      {"intent_order": intent, "movement_order": movement, "strike_order": strike})
