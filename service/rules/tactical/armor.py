"""Getting Hit: The Virtue of Armor, Optional Rule: Armor Wear, Slash and Thrust/Lunge (RULINGS 12).

A layer is (L, R): L is what it subtracts from a blow, R takes the wear; effective DR = min(L, R)
(digest F19-F22, A21-A24). Layers are listed outermost first.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Callable, Literal, Sequence

from service.rules.errors import Contradiction, UnknownName
from service.rules.rounding import round_half_up
from service.rules.tactical import tables
from service.rules.trace import Step

Attack = Literal["common", "slash", "thrust"]
ATTACKS = ("common", "slash", "thrust")
ARMOR_TYPES = ("padded", "studded-padding", "trellised-padding", "bezainted-padding", "ringed-padding",
               "singlemail", "banded-singlemail", "doublemail", "banded-doublemail", "jazeraint", "laminated",
               "brigandine", "field-plate", "cuerbully-plate", "wood-shield", "steel-bound-shield",
               "steel-shield")
PIERCEABLE = frozenset({"padded", "studded-padding", "trellised-padding", "bezainted-padding",
                        "ringed-padding", "singlemail", "banded-singlemail", "doublemail",
                        "banded-doublemail"})
SLASH_IMMUNE = frozenset({"field-plate"})
SLASH_HALF = frozenset({"cuerbully-plate"})
ARMOR_RULE = "Getting Hit: The Virtue of Armor"
WEAR_RULE = "Optional Rule: Armor Wear"


@cache
def catalog() -> dict[str, tuple[int, int]]:
    """Armor type -> (L, R) as new, from the Armor/Shield DR Recap (Optional Armor Wear Rules)."""
    return {row["type"]: (row["dr"], row["durability"]) for row in tables.load("armor-dr-wear")["rows"]}


@dataclass(frozen=True, slots=True)
class Layer:
    """One worn layer: type, L (`limit`), R (`rating`) and whether it is rated Proof."""

    type: str
    limit: int
    rating: int
    proof: bool = False

    @property
    def dr(self) -> int:
        """Effective DR: the left number until the right one falls to meet it (Armor Wear)."""
        return max(0, min(self.limit, self.rating))

    def worn(self, amount: int) -> Layer:
        """This layer after `amount` comes off its right-hand number (never below 0)."""
        return replace(self, rating=max(0, self.rating - max(0, amount)))

    def cut(self, amount: int) -> Layer:
        """Without Armor Wear a layer has one DR: `amount` comes off that DR itself (F21, F22; never below 0).

        Kept as R = the DR left, so the effective DR min(L, R) is that one number."""
        return replace(self, rating=max(0, self.dr - max(0, amount)))

    def lose(self, amount: int, armor_wear: bool) -> Layer:
        """A pierce or a slash taking `amount`: off R under Armor Wear, else off the one DR."""
        return self.worn(amount) if armor_wear else self.cut(amount)


def layer(type_: str, dr: int | None = None, durability: int | None = None, proof: bool = False,
          field: tuple[str | int, ...] = ("armor", 0)) -> Layer:
    """A layer from a caller's {type, dr, durability}: durability sets R; dr alone below L sets R."""
    if type_ not in catalog():
        raise UnknownName(f"unknown armor type; one of {', '.join(catalog())}", (*field, "type"))
    limit, top = catalog()[type_]
    if durability is not None and not 0 <= durability <= top:
        raise Contradiction(f"{type_} durability must be 0..{top}", (*field, "durability"))
    if dr is not None and not 0 <= dr <= limit:
        raise Contradiction(f"{type_} DR must be 0..{limit}", (*field, "dr"))
    rating = durability if durability is not None else (top if dr is None or dr == limit else dr)
    made = Layer(type_, limit, rating, proof)
    if dr is not None and made.dr != dr:
        raise Contradiction(f"DR {dr} disagrees with durability {rating} (DR = min({limit}, durability))",
                            (*field, "dr"))
    return made


@dataclass(frozen=True, slots=True)
class Struck:
    """Armor after a blow: POT left for the target, the layers, and whether armor met the blow."""

    pot_through: int
    layers: tuple[Layer, ...]
    met_armor: bool
    breached: bool
    steps: tuple[Step, ...]


def _outermost(layers: Sequence[Layer], allowed: Callable[[Layer], bool] = lambda _: True) -> int | None:
    return next((i for i, item in enumerate(layers) if item.dr > 0 and allowed(item)), None)


def _wear(layers: list[Layer], wear: int, allowed: Callable[[Layer], bool] = lambda _: True) -> Step | None:
    at = _outermost(layers, allowed)
    if at is None or wear <= 0:
        return None
    layers[at] = layers[at].worn(wear)
    return Step(WEAR_RULE, f"wear {wear} off the outermost layer with DR ({layers[at].type})", layers[at].dr)


def common_strike(layers: Sequence[Layer], pot: int, wear: int, armor_wear: bool = True) -> Struck:
    """A common strike: POT minus the sum of effective DRs, then wear on the outermost layer (F19, F20)."""
    total = sum(item.dr for item in layers)
    through = max(0, pot - total)
    after = list(layers)
    steps = [Step(ARMOR_RULE, f"POT {pot} - DR {total}, at least 0", through)]
    worn = _wear(after, wear) if armor_wear else None
    steps += [worn] if worn else []
    return Struck(through, tuple(after), total > 0, total == 0, tuple(steps))


def pierce(layers: Sequence[Layer], pot: int, wear: int, pierceable: Callable[[Layer], bool],
           armor_wear: bool = True) -> Struck:
    """Thrust/Lunge (F21, A22): pierceable layers cost POT 1 and lose 1; the others act as a common strike.

    The 1 comes off R under Armor Wear, off the layer's one DR without it (A21, A22)."""
    after, through, steps = list(layers), pot, []
    for i, item in enumerate(layers):
        if item.dr <= 0:
            continue
        if pierceable(item):
            after[i], through = item.lose(1, armor_wear), through - 1
            steps.append(Step(ARMOR_RULE, f"pierced {item.type}: POT -1, DR -1", after[i].dr))
        else:
            through -= item.dr
            steps.append(Step(ARMOR_RULE, f"{item.type} resists: POT -{item.dr}", item.dr))
    resisted = any(item.dr > 0 and not pierceable(item) for item in layers)
    worn = _wear(after, wear, lambda x: not pierceable(x)) if armor_wear and resisted else None
    steps += [worn] if worn else []
    met = any(item.dr > 0 for item in layers)
    steps.append(Step(ARMOR_RULE, "POT left after the layers, at least 0", max(0, through)))
    return Struck(max(0, through), tuple(after), met, not resisted, tuple(steps))


def slash(layers: Sequence[Layer], pot: int, armor_wear: bool = True) -> Struck:
    """Slash (F22, A21): the whole POT comes off the outermost layer with DR; no wound while DR remains.

    Under Armor Wear it comes off that layer's R; without it, off its one DR."""
    at = _outermost(layers)
    if at is None:
        return Struck(pot, tuple(layers), False, True,
                      (Step(ARMOR_RULE, "slash meets no armor: an ordinary edged blow", pot),))
    target, after = layers[at], list(layers)
    if target.type in SLASH_IMMUNE:
        damage = 0
    else:
        damage = round_half_up(Fraction(pot, 2)) if target.type in SLASH_HALF else pot
    after[at] = target.lose(damage, armor_wear)
    steps = (Step("Slash", f"{target.type} takes {damage} of POT {pot}"
                  + (" (immune)" if target.type in SLASH_IMMUNE else ""), after[at].dr),
             Step("A21", "no wound while any armor DR remains", 0))
    return Struck(0, tuple(after), True, False, steps)


def bodkin_pierces(layer_: Layer, range_band: str) -> bool:
    """Bodkin arrows and heavy bolts pierce any non-Proof layer within short range (Thrust/Lunge)."""
    return range_band in ("point-blank", "short") and not layer_.proof


def strike(layers: Sequence[Layer], pot: int, wear: int, attack: Attack = "common", armor_wear: bool = True,
           bodkin_band: str | None = None) -> Struck:
    """Route one landed blow to its armor rule: common strike, slash, thrust or bodkin (RULINGS 12)."""
    if attack == "slash":
        return slash(layers, pot, armor_wear)
    if attack == "thrust":
        return pierce(layers, pot, wear, lambda item: item.type in PIERCEABLE, armor_wear)
    if bodkin_band in ("point-blank", "short"):
        return pierce(layers, pot, wear, lambda item: bodkin_pierces(item, bodkin_band), armor_wear)
    return common_strike(layers, pot, wear, armor_wear)


@dataclass(frozen=True, slots=True)
class WearStrike:
    """One strike for a wear sequence: its DB (or DM bonus), attack kind and (for a slash) its POT."""

    db: int
    attack: Attack = "common"
    pot: int | None = None


def wear_sequence(layers: Sequence[Layer], strikes: Sequence[WearStrike]) -> tuple[list[tuple[Layer, ...]],
                                                                                    list[Step]]:
    """Armor states after each landed strike in turn (Optional Rule: Armor Wear; Slash; Thrust/Lunge)."""
    states, steps, current = [], [], tuple(layers)
    for i, item in enumerate(strikes):
        if item.attack == "slash" and item.pot is None:
            raise Contradiction("a slash needs its POT", ("strikes", i, "pot"))
        pot = item.pot if item.pot is not None else 0
        struck = strike(current, pot, item.db, item.attack)
        current = struck.layers
        states.append(current)
        steps += [Step(s.rule, f"strike {i + 1}: {s.detail}", s.value) for s in struck.steps]
    return states, steps
