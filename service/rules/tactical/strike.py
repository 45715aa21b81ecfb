"""What one attack is, before it is rolled ("Resolving the Battle"): read by the exchange that rolls it and by
the blow it lands, so it sits below both."""
from __future__ import annotations

from dataclasses import dataclass

from service.rules.tactical.declarations import Intimidate


@dataclass(frozen=True)
class Strike:
    """Who strikes whom, with which weapon and attack, in what mode (melee, reprisal, opportunity, ranged)."""

    attacker: str
    defender: str
    weapon: int
    attack: str = "common"
    mode: str = "melee"
    range_dv: int | None = None
    range_band: str = "short"
    missed_weapon: int | None = None
    partner: int | None = None  # a second weapon joined by a Combination (F38)
    combination_sl: int = 0
    in_concert: bool = False
    combination_cap: int | None = None  # separate-but-simultaneous: both weapons' AVs added
    intimidate: Intimidate | None = None
    dv_shift: int = 0  # stray fire: the Progressive size modifier on the new target's DV
    body_committed: bool = False  # a Reprisal on a failed body check: the attacker cannot Dodge it
    days_cocked: int = 0  # a crossbow kept cocked that many full days before the shot (RULINGS 25)
