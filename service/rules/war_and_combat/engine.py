"""One whole round for any number of combatants: initiative, the movement phase, flurries by engagement
group, the adjustment phase (rules document §8; *Combat Sequence*, *Initiative*, *Close Combat*, *Flurry
Procedure*, *Running Out of Actions*, *Defensive Responses*, *Maneuver Tactics*, *Ranged Strike Procedure*)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from service.rules.dice import DiceSource
from service.rules.errors import RulesError
from service.rules.interface import StepResult
from service.rules.options import whole
from service.rules.war_and_combat import checks, damage, hexes, movement, task, to_hit, wounds
from service.rules.war_and_combat.option_specs import INTENTIONS, TACTICS
from service.rules.war_and_combat.state import State, read_state, write_state

ACTIONS = ("engage", "shoot", "move", "hold", "none")
MOVE_PACES = ("creep", "crawl", "walk", "jog", "run", "sprint", "swim")
DICE_SIDES = {"initiative": 6, "flurry_initiative": 6, "attack": 6, "location": 6, "side": 2, "impact": 6,
              "critical": 6, "check": 6, "stun": 1000, "coin": 6, "stray": 200}
NON_STRIKE = {"subdue": "subdual", "disarm": "disarm", "grapple": "grapple", "tackle": "tackle", "throw": "throw"}
TERM = re.compile(r"([+-]?)(\d*)d(\d+)|([+-]?)(\d+)")


class Events:
    """The round's events, numbered from 1."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, event_type: str, /, **fields: Any) -> None:
        """Append one event."""
        self.items.append({"seq": len(self.items) + 1, "type": event_type, **fields})


def roll_expression(expr: str, role: str, dice: DiceSource, combatant: str | None) -> int:
    """Roll a plain dice expression such as "1d6" or "2d6-1" (options `stun_rounds`, `shock_failure_rounds`)."""
    total, pos = 0, 0
    for match in TERM.finditer(expr):
        sign = -1 if (match.group(1) or match.group(4)) == "-" else 1
        if match.group(3):
            count = int(match.group(2) or 1)
            total += sign * dice.roll(role, count, int(match.group(3)), combatant=combatant).total
        else:
            total += sign * int(match.group(5))
        pos = match.end()
    return max(total, 0) if pos else 0


class Round:
    """The working copy of one round."""

    def __init__(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource):
        self.state, self.options, self.dice = state, state.options, dice
        self.people = state.copy_combatants()
        self.ids = [c["id"] for c in state.combatants]
        self.decl = {d["combatant"]: d for d in declarations}
        self.events = Events()
        self.stunned_at_start = {i for i, c in self.people.items() if c["stunned_rounds"] > 0}
        self.stunned = set(self.stunned_at_start)
        self.flurry_actions: dict[str, int] = {}
        self.engaged: set[str] = set()
        self.moved_points: dict[str, int] = {}
        self.path_done: dict[str, int] = {}
        self.flurries: list[dict[str, Any]] = []
        self._conditions: dict[str, tuple[int, bool, wounds.Condition]] = {}
        # surprise (first round only, option `surprise_rule`): no actions in the first flurry, no defence
        self.surprised = {i for i, c in self.people.items() if c["surprised"]} \
            if state.round == 0 and state.options["surprise_rule"] == "no_first_flurry" else set()

    # --- what a fighter can do -------------------------------------------------------------------
    def cond(self, ident: str) -> wounds.Condition:
        """The fighter's wounds summed up (worked out again only when a wound or a knockout changed them)."""
        c = self.people[ident]
        cached = self._conditions.get(ident)
        if cached is not None and cached[0] == len(c["wounds"]) and cached[1] == c["unconscious"]:
            return cached[2]
        made = wounds.known_condition(c["wounds"], c["unconscious"], self.options)
        self._conditions[ident] = (len(c["wounds"]), c["unconscious"], made)
        return made

    def out(self, ident: str) -> bool:
        """Out of the fight (rules document §8)."""
        return self.cond(ident).defeated

    def can_act(self, ident: str) -> bool:
        """Takes actions this round: not out, not stunned."""
        return not self.out(ident) and ident not in self.stunned

    def can_attack(self, ident: str) -> bool:
        """Can swing a weapon: acts, holds one, and has an arm for it."""
        return self.can_act(ident) and not self.people[ident]["disarmed"] and bool(self.cond(ident).usable_arms)

    def hostile(self, a: str, b: str) -> bool:
        """Different sides (one side never attacks itself)."""
        return a != b and self.people[a]["side"] != self.people[b]["side"]

    def pos(self, ident: str) -> tuple[int, int]:
        """Axial position."""
        p = self.people[ident]["position"]
        return p["q"], p["r"]

    def weapon(self, ident: str) -> dict[str, Any]:
        """The declared weapon (index 0 when none)."""
        c, d = self.people[ident], self.decl.get(ident, {})
        return c["weapons"][d.get("weapon", 0)]

    def reach(self, ident: str) -> int:
        """Hexes the ready weapon reaches (missiles have no zone of threat)."""
        w = self.weapon(ident)
        return 0 if w["kind"] == "missile" else w["range"]

    def penalty(self, ident: str) -> int:
        """Wound action penalty (negative) for every task roll (*Wound Effects*)."""
        return self.cond(ident).action_penalty

    def lose_action(self, ident: str, why: str) -> None:
        """One action lost this round (*Wound Effects*, *Secondary Effects*)."""
        c = self.people[ident]
        c["actions_lost"] += 1
        if self.flurry_actions.get(ident, 0) > 0:
            self.flurry_actions[ident] -= 1
        self.events.add("action_lost", combatant=ident, reason=why)

    # --- phases ------------------------------------------------------------------------------------
    def run(self) -> StepResult:
        """The whole round (*Combat Sequence*)."""
        self.upkeep()
        order, initiative = self.initiative()
        for ident in order:
            self.move_phase(ident, first=True)
        groups = self.engagement_groups(order)
        rank = {ident: i for i, ident in enumerate(order)}
        for group in sorted(groups, key=lambda g: min(rank[m] for m in g)):
            self.flurry(group, rank)
        for ident in reversed(order):
            self.move_phase(ident, first=False)
        for ident in self.ids:
            c = self.people[ident]
            if ident in self.stunned_at_start and c["stunned_rounds"] > 0:
                c["stunned_rounds"] -= 1
            c["actions_lost"] = 0
            c["surprised"] = False
        self.events.add("round_ended", round=self.state.round + 1)
        new = replace(self.state, round=self.state.round + 1,
                      combatants=tuple(self.people[i] for i in self.ids))
        return StepResult(self.events.items, new, {"order": order, "initiative": initiative,
                                                   "flurries": self.flurries})

    def upkeep(self) -> None:
        """Before initiative: a fallen fighter who can stand does so (a quick action of his movement phase)."""
        for ident in self.ids:
            c = self.people[ident]
            if c["fallen"] and self.can_act(ident) and self.cond(ident).bad_legs == 0:
                c["fallen"] = False
                self.moved_points[ident] = 10_000  # standing up takes this round's movement
                self.events.add("moved", combatant=ident, kind="stood_up", to=dict(c["position"]))

    def initiative(self) -> tuple[list[str], list[dict[str, Any]]]:
        """3d6 + FR for every fighter still in the fight, highest first; ties by option (*Initiative*)."""
        rolled = []
        for ident in self.ids:
            if self.out(ident):
                continue
            c = self.people[ident]
            r = self.dice.roll("initiative", 3, 6, c["fighter_rank"], combatant=ident)
            total = r.total + (self.penalty(ident) if self.options["penalties_apply_to_initiative"] else 0)
            rolled.append({"combatant": ident, "dice": list(r.dice), "total": total})
            self.events.add("initiative_rolled", combatant=ident, dice=list(r.dice), total=total)
        keys: dict[str, list[Any]] = {e["combatant"]: [e["total"]] for e in rolled}
        for name in self.options["initiative_tie_break"]:
            if name != "coin":
                for ident in keys:
                    keys[ident].append(self.people[ident][name])
                continue
            groups: dict[tuple, list[str]] = {}
            for ident in keys:
                groups.setdefault(tuple(keys[ident]), []).append(ident)
            for members in groups.values():
                for ident in members:
                    keys[ident].append(self.dice.roll("coin", 1, 6, combatant=ident).total if len(members) > 1 else 0)
        rolled.sort(key=lambda e: [-k for k in keys[e["combatant"]]])
        return [e["combatant"] for e in rolled], rolled

    def points(self, ident: str) -> int:
        """Movement points a phase: half the pace's full move (floor), legs permitting (*Movement*)."""
        pace = self.decl.get(ident, {}).get("pace", "walk")
        full = movement.hexes_per_round(pace, self.options)
        mode = self.cond(ident).movement
        full = 0 if mode == "none" else min(full, 2) if mode == "crawl" else full // 2 if mode == "half" else full
        return full // 2

    def occupied(self, hexpos: tuple[int, int], me: str) -> bool:
        """Whether another fighter stands in the hex."""
        return any(self.pos(o) == hexpos for o in self.ids if o != me)

    def threatening(self, ident: str, hexpos: tuple[int, int]) -> str | None:
        """A hostile fighter whose weapon reaches the hex (zones of threat and danger) (*Zones of Danger*)."""
        for other in self.ids:
            if self.hostile(ident, other) and not self.out(other) and 0 < self.reach(other) \
                    and hexes.distance(self.pos(other), hexpos) <= self.reach(other):
                return other
        return None

    def move_phase(self, ident: str, first: bool) -> None:
        """Movement (first) or adjustment phase of one fighter: walk the declared path with at most half the
        points, stopping on entering a zone; shooters shoot once (*Movement*, *Terrain Effects*, *Ranged
        Strike Procedure*)."""
        d = self.decl.get(ident)
        if d is None or self.out(ident) or ident in self.stunned:
            return
        if d["action"] == "shoot" and self.can_attack(ident):
            self.shoot(ident, d)
        if d["action"] not in ("move", "engage", "shoot") or ident in self.engaged:
            return
        path = d.get("path") or []
        left = self.points(ident) - (self.moved_points.get(ident, 0) if first else 0)
        done = self.path_done.get(ident, 0)
        c = self.people[ident]
        while done < len(path) and left > 0:
            nxt = (path[done]["q"], path[done]["r"])
            if self.occupied(nxt, ident) or hexes.distance(self.pos(ident), nxt) != 1:
                break
            direction = hexes.direction_to(self.pos(ident), nxt)
            front = (direction - c["facing"]) % 6 in (0, 1, 5)
            cost = 1 if front else 2
            if cost > left:
                break
            left -= cost
            if front:
                c["facing"] = direction
            c["position"] = {"q": nxt[0], "r": nxt[1]}
            done += 1
            self.events.add("moved", combatant=ident, kind="step", to=dict(c["position"]), cost=cost,
                            phase="movement" if first else "adjustment")
            if self.threatening(ident, nxt) and first:
                break
        self.path_done[ident] = done

    def engagement_groups(self, order: list[str]) -> list[list[str]]:
        """Fighters engaged after movement: an engage declaration whose target is within reach, or a mover
        stopped in a hostile's zone; linked pairs form one group (*Engaging an Opponent*)."""
        pairs = []
        for ident in order:
            d = self.decl.get(ident)
            if d is None or d["action"] != "engage" or not self.can_act(ident):
                continue
            target = d.get("target")
            if target in self.people and not self.out(target) \
                    and hexes.distance(self.pos(ident), self.pos(target)) <= self.reach(ident):
                pairs.append((ident, target))
            else:
                other = self.threatening(ident, self.pos(ident))
                if other is not None:
                    pairs.append((ident, other))
        parent: dict[str, str] = {}

        def root(x: str) -> str:
            while parent.get(x, x) != x:
                x = parent[x]
            return x
        for a, b in pairs:
            parent[root(a)] = root(b)
            self.events.add("engaged", combatant=a, target=b)
        groups: dict[str, list[str]] = {}
        for ident in order:
            if any(ident in p for p in pairs):
                groups.setdefault(root(ident), []).append(ident)
                self.engaged.add(ident)
        self.primary = {a: b for a, b in reversed(pairs)}
        for a, b in pairs:
            self.primary.setdefault(b, a)
        return list(groups.values())

    # --- flurries -------------------------------------------------------------------------------------
    def flurry_initiative(self, group: list[str]) -> list[str]:
        """3d6 + FR each at the start of a flurry, highest first; ties rolled again or by FR (*Flurry
        Initiative*)."""
        totals = {}
        for ident in group:
            totals[ident] = self.dice.roll("flurry_initiative", 3, 6, self.people[ident]["fighter_rank"],
                                           combatant=ident).total
        for _ in range(10):
            values = list(totals.values())
            tied = [i for i in group if values.count(totals[i]) > 1]
            if not tied or self.options["flurry_initiative_tie"] != "reroll":
                break
            for ident in tied:
                totals[ident] = self.dice.roll("flurry_initiative", 3, 6, self.people[ident]["fighter_rank"],
                                               combatant=ident).total
        return sorted(group, key=lambda i: (-totals[i], -self.people[i]["fighter_rank"], group.index(i)))

    def target_of(self, ident: str, group: list[str]) -> str | None:
        """Whom a fighter strikes: his declared target when in the flurry and standing, else the one he is
        engaged with, else the nearest standing foe in reach."""
        d = self.decl.get(ident, {})
        for choice in (d.get("target"), self.primary.get(ident)):
            if choice in group and self.hostile(ident, choice) and not self.out(choice) \
                    and hexes.distance(self.pos(ident), self.pos(choice)) <= max(self.reach(ident), 1):
                return choice
        foes = [o for o in group if self.hostile(ident, o) and not self.out(o)
                and hexes.distance(self.pos(ident), self.pos(o)) <= max(self.reach(ident), 1)]
        return min(foes, key=lambda o: hexes.distance(self.pos(ident), self.pos(o))) if foes else None

    def flurry(self, group: list[str], rank: dict[str, int]) -> None:
        """One flurry of an engagement group: attacks alternate on misses, the attacker keeps the initiative
        after a hit unless the defender can respond, a fighter out of actions ends his part and may take an
        indefensible blow (*Flurry Procedure*, *Defensive Responses*, *Running Out of Actions*)."""
        seq = self.flurry_initiative(group)
        turned = set()
        for ident in seq:
            c = self.people[ident]
            self.flurry_actions[ident] = (0 if not self.can_attack(ident) or ident in self.surprised else
                                          max(0, task.actions_per_flurry(c["fighter_rank"]) - c["actions_lost"]))
            target = self.target_of(ident, group)
            if target is not None and self.can_act(ident) and \
                    hexes.side_of(c["facing"], self.pos(ident), self.pos(target)) != "front":
                c["facing"] = hexes.direction_to(self.pos(ident), self.pos(target))
                turned.add(ident)
        record: dict[str, Any] = {"combatants": seq, "actions": {i: self.flurry_actions[i] for i in seq},
                                  "attacks": []}
        self.flurries.append(record)
        self.events.add("flurry_started", combatants=seq, actions=dict(record["actions"]))
        hits: dict[str, int] = {i: 0 for i in seq}
        done: set[str] = set()
        attacker = next((i for i in seq if self.flurry_actions[i] > 0 and self.target_of(i, group)), None)
        guard = 0
        while attacker is not None and guard < 500:
            guard += 1
            target = self.target_of(attacker, group)
            if target is None or attacker in done:
                done.add(attacker)
                attacker = self.next_attacker(seq, group, done)
                continue
            if self.flurry_actions[attacker] == 0 or not self.can_attack(attacker):
                # running out of actions: an opponent with two or more left may strike one indefensible blow
                cost = self.options["indefensible_attack_cost"]
                if self.flurry_actions.get(target, 0) >= 2 and self.can_attack(target) \
                        and self.target_of(target, group) == attacker:
                    self.flurry_actions[target] -= min(cost, self.flurry_actions[target])
                    if self.strike(target, attacker, group, turned, record, indefensible=True):
                        hits[target] += 1
                done.add(attacker)
                if len(seq) == 2:
                    break  # a pair's flurry ends there
                attacker = self.next_attacker(seq, group, done)
                continue
            self.flurry_actions[attacker] -= 1
            lost_before = self.people[target]["actions_lost"]
            landed = self.strike(attacker, target, group, turned, record)
            if landed:
                hits[attacker] += 1
            if self.out(target):
                if self.target_of(attacker, group) is None:
                    done.add(attacker)
                    attacker = self.next_attacker(seq, group, done)
                continue
            if not landed:
                attacker = target if target not in done else attacker
                continue
            rule = self.options["hit_swap_rule"]
            able = (self.flurry_actions.get(target, 0) > 0 and self.can_attack(target)
                    and not self.people[target]["fallen"] and target not in done)
            if rule == "always" and able or rule == "defender_if_able" and able and \
                    self.people[target]["actions_lost"] == lost_before:
                attacker = target
        self.events.add("flurry_ended", combatants=seq, hits=hits)
        if self.options["tactic_winner_moves"] and len(seq) == 2:
            self.maneuver(seq, hits)

    def next_attacker(self, seq: list[str], group: list[str], done: set[str]) -> str | None:
        """The next fighter in flurry-initiative order who still has actions and a foe in reach."""
        for ident in seq:
            if ident not in done and self.flurry_actions.get(ident, 0) > 0 and self.can_attack(ident) \
                    and self.target_of(ident, group) is not None:
                return ident
        return None

    def maneuver(self, pair: list[str], hits: dict[str, int]) -> None:
        """The net maneuver after a flurry: the fighter with more hits presses his foe back one hex (and
        follows), or retreats one hex (*Maneuver Tactics*)."""
        a, b = pair
        if hits[a] == hits[b]:
            return
        winner, loser = (a, b) if hits[a] > hits[b] else (b, a)
        tactic = self.decl.get(winner, {}).get("tactic", "hold")
        if self.out(winner) or tactic not in ("press", "retreat"):
            return
        if tactic == "press" and not self.out(loser):
            away = hexes.direction_to(self.pos(winner), self.pos(loser))
            spot = hexes.step(self.pos(loser), away)
            if not self.occupied(spot, loser):
                old = self.pos(loser)
                self.people[loser]["position"] = {"q": spot[0], "r": spot[1]}
                self.people[winner]["position"] = {"q": old[0], "r": old[1]}
                self.events.add("moved", combatant=loser, kind="pressed", to=dict(self.people[loser]["position"]))
                self.events.add("moved", combatant=winner, kind="press", to=dict(self.people[winner]["position"]))
        elif tactic == "retreat":
            away = hexes.direction_to(self.pos(loser), self.pos(winner))
            spot = hexes.step(self.pos(winner), away)
            if not self.occupied(spot, winner):
                self.people[winner]["position"] = {"q": spot[0], "r": spot[1]}
                self.events.add("moved", combatant=winner, kind="retreat", to=dict(self.people[winner]["position"]))

    # --- one attack ------------------------------------------------------------------------------------
    def defender_state(self, attacker: str, defender: str, turned: set[str], indefensible: bool) -> str:
        """The defender's state for Defense: wounds and falls first, then where the attacker stands."""
        if indefensible:
            return "defenceless"
        if defender in self.surprised:
            return "unaware"
        c = self.people[defender]
        state = wounds.defence_state(self.cond(defender), c["fallen"], defender in self.stunned)
        if state != "normal":
            return state
        where = hexes.side_of(c["facing"], self.pos(defender), self.pos(attacker))
        if where == "rear":
            return "rear"
        if where == "flank":
            return "flank"
        return "turned" if defender in turned else "normal"

    def attack_bonus(self, ident: str, missile: bool) -> int | None:
        """Skill + attribute + wound penalty (+ off-arm penalty); None without a usable arm."""
        c, w = self.people[ident], self.weapon(ident)
        arms = self.cond(ident).usable_arms
        if not arms:
            return None
        off = 0 if "right_arm" in arms else self.options["off_arm_penalty"]
        return w["skill"] + (c["dex_mod"] if missile else c["agl_mod"]) + self.penalty(ident) + off

    def strike(self, attacker: str, defender: str, group: list[str], turned: set[str], record: dict[str, Any],
               indefensible: bool = False) -> bool:
        """One melee attack (*Resolution of Attacks*): returns whether it landed."""
        c_def = self.people[defender]
        state = self.defender_state(attacker, defender, turned, indefensible)
        tl = task.defence(c_def["fighter_rank"], c_def["agl_mod"], state, self.options)
        if self.options["penalties_apply_to_defence"]:
            tl += self.penalty(defender)
        bonus = self.attack_bonus(attacker, False) or 0
        question = to_hit.Question("melee", tl, bonus, self._bonuses(defender))
        rolled = to_hit.roll(question, self.options, self.dice, attacker)
        self.events.add("attack_rolled", combatant=attacker, target=defender, total=rolled.total, tl=tl,
                        state=state, outcome=rolled.outcome, indefensible=indefensible)
        entry = {"attacker": attacker, "defender": defender, "total": rolled.total, "tl": tl,
                 "outcome": rolled.outcome, "location": rolled.location, "severity": None, "effective_impact": None,
                 "penetrating": None}
        record["attacks"].append(entry)
        if rolled.outcome == "glance":
            self.events.add("glanced", combatant=attacker, target=defender, location=rolled.location)
        if rolled.outcome in ("miss", "glance"):
            return False
        self.land(attacker, defender, rolled, entry, missile=False)
        return True

    def _bonuses(self, ident: str) -> dict[str, int]:
        return {loc: a["defence_bonus"] for loc, a in self.people[ident]["armor"].items()}

    def land(self, attacker: str, defender: str, rolled: to_hit.Rolled, entry: dict[str, Any], missile: bool) -> None:
        """A landed blow: impact, wound and its effects, or a non-strike intention's secondary effect
        (*Strike Results Procedure*, *Wound Effects*, COMBAT OPTIONS)."""
        c_att, c_def, w = self.people[attacker], self.people[defender], self.weapon(attacker)
        intention = self.decl.get(attacker, {}).get("intention", "kill")
        attack_type = "strike" if missile or intention == "kill" else NON_STRIKE[intention]
        cap = w.get("impact_cap", c_att["strength"] + w["impact_mod"])
        if attack_type != "strike":
            cap = c_att["strength"]
        innate = c_def["innate_absorption"] if c_def["innate_absorption"] is not None \
            else self.options["innate_absorption"]
        blow = damage.make_blow(cap, rolled.margin if rolled.outcome == "critical" else 1, rolled.general or "chest",
                                c_def["size"], innate, c_def["armor"].get(rolled.general, {}), w, self.options,
                                attack_type)
        impact = damage.roll_impact(blow, self.dice, attacker)
        result = damage.land(blow, impact, wound=attack_type == "strike")
        entry.update(severity=result.severity, effective_impact=result.effective, penetrating=result.penetrating)
        self.events.add("blow_landed", combatant=attacker, target=defender, location=rolled.location,
                        critical=rolled.outcome == "critical", impact=impact, effective_impact=result.effective,
                        penetrating=result.penetrating, severity=result.severity)
        if attack_type != "strike":
            self.secondary(defender, attack_type, damage.column(result.effective, blow.limits))
            return
        if result.severity == "none":
            return
        was_out = self.out(defender)
        c_def["wounds"].append({"location": rolled.location, "severity": result.severity,
                                "penetrating": result.penetrating, "type": result.wound_type})
        self.events.add("wound_taken", combatant=defender, location=rolled.location, severity=result.severity,
                        penetrating=result.penetrating, wound_type=result.wound_type, effects=result.effects)
        for effect in result.effects:
            self.effect(defender, effect, rolled.location)
        if not was_out and self.out(defender):
            self.events.add("out_of_fight", combatant=defender, status=status_of(self, defender))

    def check(self, ident: str, kind: str, attribute: str, tl: int) -> checks.CheckRoll:
        """A resistance check of the victim (*Wound Effects*, *Secondary Effects*)."""
        c = self.people[ident]
        bonus = c[attribute] + self.penalty(ident)
        rolled = checks.roll(kind, tl, bonus, self.options["tie_succeeds"], self.dice, ident)
        self.events.add("check_rolled", combatant=ident, kind=kind, tl=tl, total=rolled.total,
                        outcome=rolled.outcome)
        return rolled

    def fall(self, ident: str) -> None:
        """The fighter falls (DEF 5 + FR while he can move)."""
        if not self.people[ident]["fallen"]:
            self.people[ident]["fallen"] = True
            self.events.add("fell", combatant=ident)

    def stun(self, ident: str, expression: str) -> None:
        """No action for the rolled number of rounds (*Wound Effects › Stun*)."""
        rounds = roll_expression(expression, "stun", self.dice, ident)
        c = self.people[ident]
        c["stunned_rounds"] = max(c["stunned_rounds"], rounds)
        self.stunned.add(ident)
        self.flurry_actions[ident] = 0
        self.events.add("stunned", combatant=ident, rounds=rounds)

    def effect(self, ident: str, effect: str, location: str) -> None:
        """Apply one wound effect (*Wound Effects*)."""
        if effect == "fumble_check":
            if self.check(ident, "fumble", "dex_mod", 10).outcome != "success":
                self.lose_action(ident, "fumble_check")
        elif effect == "stumble_check":
            if self.check(ident, "stumble", "agl_mod", 10).outcome != "success":
                self.fall(ident)
                self.lose_action(ident, "stumble_check")
        elif effect == "stun":
            self.stun(ident, self.options["stun_rounds"])
        elif effect == "fumble":
            self.lose_action(ident, "fumble")
        elif effect == "stumble":
            self.fall(ident)
            self.lose_action(ident, "stumble")
        elif effect == "disabled" and (location.endswith("leg") or location == "belly"):
            self.fall(ident)
        elif effect == "knockout":
            self.people[ident]["unconscious"] = True
            self.fall(ident)
            self.events.add("knocked_out", combatant=ident)

    def secondary(self, ident: str, attack_type: str, col: str) -> None:
        """A disarm, grapple, subdual, tackle or throw: the victim's check and its miss-by result (COMBAT
        OPTIONS, *Secondary Effects*)."""
        option = damage.combat_option(attack_type, col)
        attribute = {"dex": "dex_mod", "str": "str_mod", "agl": "agl_mod"}[option["check_attribute"]]
        if option["effect"] == "break":
            self.people[ident]["disarmed"] = True
            self.events.add("action_lost", combatant=ident, reason="weapon_broken")
            return
        kind = {"fumble": "fumble", "stumble": "stumble"}.get(option["effect"], "task")
        rolled = self.check(ident, kind, attribute, option["tl"])
        if rolled.outcome == "success":
            return
        effect = option["effect"]
        if rolled.outcome == "slip" or effect == "restrict":
            self.lose_action(ident, effect)
        elif effect == "fumble":
            self.people[ident]["disarmed"] = True
            self.lose_action(ident, "disarmed")
        elif effect == "stumble":
            self.fall(ident)
        elif effect == "shock":
            self.stun(ident, self.options["shock_failure_rounds"])

    # --- missiles ---------------------------------------------------------------------------------------
    def shoot(self, ident: str, d: dict[str, Any]) -> None:
        """One arrow at the declared target, in the movement or the adjustment phase; a miss into a melee
        strikes at a random figure beside the target as if shot with skill -5 (*Ranged Strike Procedure*,
        MOVING TARGET MODIFIERS TO RANGED ATTACKS, *Firing Into a Mêlée*, *Missed Shots*)."""
        target = d.get("target")
        if target not in self.people or self.out(target):
            return
        w = self.weapon(ident)
        distance = Fraction(hexes.distance(self.pos(ident), self.pos(target)) * 2)
        try:
            band = to_hit.missile_band(distance, Fraction(w["base_range_m"]))
        except RulesError:
            self.events.add("shot", combatant=ident, target=target, outcome="out_of_range")
            return
        pace = task.pace_penalty(d.get("pace", "walk"), self.options) if d.get("path") else 0
        bystanders = sorted(o for o in self.ids if o not in (ident, target) and not self.out(o)
                            and hexes.distance(self.pos(o), self.pos(target)) == 1)
        crowded = any(self.hostile(target, o) for o in bystanders)
        rolled = self.arrow(ident, target, band, crowded, (self.attack_bonus(ident, True) or 0) + pace, False)
        if rolled.outcome == "miss" and crowded:
            pick = self.dice.roll("stray", 1, len(bystanders), combatant=ident).total
            skill = self.weapon(ident)["skill"]
            self.arrow(ident, bystanders[pick - 1], band, False,
                       (self.attack_bonus(ident, True) or 0) - skill - 5 + pace, True)

    def arrow(self, ident: str, target: str, band: str, crowded: bool, bonus: int, stray: bool) -> to_hit.Rolled:
        """Roll one arrow against a figure and land it."""
        t = self.people[target]
        state = "aware_evading" if self.can_act(target) and not stray else "unaware_unmoving"
        tl = to_hit.missile_tl(state, band, crowded, {"fighter_rank": t["fighter_rank"], "agl_mod": t["agl_mod"]},
                               self.options, [])
        rolled = to_hit.roll(to_hit.Question("missile", tl, bonus, self._bonuses(target)), self.options, self.dice,
                             ident)
        self.events.add("shot", combatant=ident, target=target, band=band, total=rolled.total, tl=tl,
                        outcome=rolled.outcome, stray=stray)
        entry = {"attacker": ident, "defender": target, "total": rolled.total, "tl": tl, "outcome": rolled.outcome,
                 "location": rolled.location, "severity": None, "effective_impact": None, "penetrating": None}
        if rolled.outcome == "glance":
            self.events.add("glanced", combatant=ident, target=target, location=rolled.location)
        if rolled.outcome in ("hit", "critical"):
            self.land(ident, target, rolled, entry, missile=True)
        return rolled


def status_of(rnd: Round | None, ident: str, person: Mapping[str, Any] | None = None,
              options: Mapping[str, Any] | None = None) -> str:
    """A fighter's status word: dying, incapacitated, unconscious, immobile, disabled, stunned or standing
    (rules document §8)."""
    c = person if person is not None else rnd.people[ident]  # type: ignore[union-attr]
    cond = wounds.condition(c["wounds"], c["unconscious"], options if options is not None else rnd.options)  # type: ignore[union-attr]
    if cond.dying:
        return "dying"
    if cond.mortal:
        return "incapacitated"
    if cond.unconscious:
        return "unconscious"
    if cond.immobile:
        return "immobile"
    if cond.defeated:
        return "disabled"
    return "standing"


class Engine:
    """The `RoundEngine` of `war-and-combat` (one step = one 5-second round)."""

    step = "round"

    def read_state(self, data: Mapping[str, Any], path: tuple = ()) -> State:
        """The encounter state from JSON (rules document §3)."""
        return read_state(data, path)

    def write_state(self, state: State) -> dict[str, Any]:
        """The canonical JSON of a state."""
        return write_state(state)

    def check_declarations(self, state: State, declarations: list[dict[str, Any]],
                           path: tuple = ("declarations",)) -> list[dict[str, Any]]:
        """Declarations checked against the state (unknown combatant or target, a friend as target, a
        shot without a missile weapon, a path that is not a chain of neighbouring hexes) (rules §12.8)."""
        people = {c["id"]: c for c in state.combatants}
        out, seen = [], set()
        if not isinstance(declarations, list) or len(declarations) > 200:
            raise RulesError("declarations are a list of at most 200", path)
        for i, raw in enumerate(declarations):
            where = (*path, i)
            if not isinstance(raw, Mapping):
                raise RulesError("a declaration is an object", where)
            extra = set(raw) - {"combatant", "action", "target", "intention", "tactic", "weapon", "pace", "path"}
            if extra:
                raise RulesError(f"unknown field {sorted(extra)[0]!r}", (*where, sorted(extra)[0]))
            ident = raw.get("combatant")
            if ident not in people:
                raise RulesError(f"no combatant {ident!r}", (*where, "combatant"))
            if ident in seen:
                raise RulesError(f"{ident!r} already has a declaration", (*where, "combatant"))
            seen.add(ident)
            me = people[ident]

            def pick(key: str, choices: tuple, default: str) -> str:
                value = raw.get(key, default)
                if value not in choices:
                    raise RulesError(f"must be one of {list(choices)}", (*where, key))
                return value
            action = pick("action", ACTIONS, "engage" if raw.get("target") else "hold")
            target = raw.get("target")
            if target is not None:
                if target not in people:
                    raise RulesError(f"no combatant {target!r}", (*where, "target"))
                if target == ident or people[target]["side"] == me["side"]:
                    raise RulesError("a fighter attacks only fighters of another side", (*where, "target"))
            if action in ("engage", "shoot") and target is None:
                raise RulesError(f"`{action}` needs a target", (*where, "target"))
            weapon = raw.get("weapon", 0)
            if isinstance(weapon, str):
                names = [w["name"] for w in me["weapons"]]
                if weapon not in names:
                    raise RulesError(f"no weapon {weapon!r}", (*where, "weapon"))
                weapon = names.index(weapon)
            else:
                weapon = whole(weapon, (*where, "weapon"), 0, len(me["weapons"]) - 1)
            kind = me["weapons"][weapon]["kind"]
            if action == "shoot" and kind != "missile":
                raise RulesError("a shot needs a missile weapon", (*where, "weapon"))
            if action == "engage" and kind == "missile":
                raise RulesError("a missile weapon cannot engage", (*where, "weapon"))
            path_in = raw.get("path", [])
            if not isinstance(path_in, list) or len(path_in) > 50:
                raise RulesError("a path is a list of at most 50 hexes", (*where, "path"))
            hexes_out, at = [], (me["position"]["q"], me["position"]["r"])
            for j, h in enumerate(path_in):
                if not isinstance(h, Mapping) or set(h) - {"q", "r"}:
                    raise RulesError("a hex is {q, r}", (*where, "path", j))
                nxt = (whole(h.get("q"), (*where, "path", j, "q"), -10_000, 10_000),
                       whole(h.get("r"), (*where, "path", j, "r"), -10_000, 10_000))
                if hexes.distance(at, nxt) != 1:
                    raise RulesError("each hex of a path neighbours the one before", (*where, "path", j))
                hexes_out.append({"q": nxt[0], "r": nxt[1]})
                at = nxt
            out.append({"combatant": ident, "action": action, "target": target,
                        "intention": pick("intention", INTENTIONS, "kill"), "tactic": pick("tactic", TACTICS, "hold"),
                        "weapon": weapon, "pace": pick("pace", MOVE_PACES, "walk"), "path": hexes_out})
        return out

    def resolve(self, state: State, declarations: list[dict[str, Any]], dice: DiceSource) -> StepResult:
        """Resolve one round; every die comes from `dice` (rules document §8)."""
        dice.check_queues(DICE_SIDES, combatants=[c["id"] for c in state.combatants])
        return Round(state, declarations, dice).run()


ENGINE = Engine()
