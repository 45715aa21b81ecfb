"""An encounter's committed dice (issue 25): the client seed, reveal-and-rotate, and the audit log.

Beside the other encounter operations (same blueprint, token and If-Match rules), so they move with them:
on the deprecated shared paths and on each ruleset's own. The README's "Dice nobody has to take on trust"
is the full story for players and integrators.
"""
from __future__ import annotations

from service.api.encounters import dice_schemas as s
from service.api.encounters.answers import etag
from service.api.encounters.blueprint import ENCOUNTER, blp, documented, operation
from service.api.encounters.requests import bearer_token, encounter_store, expected_version
from service.api.encounters.shapes import Shapes, shared
from service.api.http.blueprint import Blueprint
from service.api.http.headers import headers
from service.sessions.audit import public_dice


def register_dice(bp: Blueprint, sh: Shapes) -> None:
    """The dice operations of one encounter resource (`sh`) on `bp`."""
    for add in (_set_client_seed, _reveal, _audit):
        add(bp, sh)


def _set_client_seed(bp: Blueprint, sh: Shapes) -> None:
    @bp.put(f"{sh.root}/<string:encounter_id>/dice", parameters=ENCOUNTER)
    @operation(bp, sh, "setClientSeed")
    @bp.arguments(s.EncounterClientSeedSchema, example={"client_seed": "table-7 on friday"})
    @bp.response(200, s.EncounterDiceOutSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 422, 503, write=True)
    def set_client_seed(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
        """Replace the client seed (409 once a step has rolled under the current commitment)."""
        encounter = encounter_store().set_client_seed(encounter_id, bearer_token(), body["client_seed"],
                                                      expected_version())
        return {"version": encounter.version, "dice": public_dice(encounter.dice)}, 200, etag(encounter)


def _reveal(bp: Blueprint, sh: Shapes) -> None:
    @bp.post(f"{sh.root}/<string:encounter_id>/dice/reveal", parameters=ENCOUNTER)
    @operation(bp, sh, "revealServerSeed")
    @bp.response(200, s.EncounterRevealSchema, headers=headers("ETag"))
    @documented(bp, 401, 404, 409, 412, 503, write=True)
    def reveal(encounter_id: str) -> tuple[dict, int, dict]:
        """Publish the server seed of the current commitment and start a new one (later steps roll under it)."""
        encounter, revealed = encounter_store().reveal(encounter_id, bearer_token(), expected_version())
        answer = {"version": encounter.version, "revealed": revealed, "dice": public_dice(encounter.dice)}
        return answer, 200, etag(encounter)


def _audit(bp: Blueprint, sh: Shapes) -> None:
    @bp.get(f"{sh.root}/<string:encounter_id>/audit", parameters=ENCOUNTER)
    @operation(bp, sh, "getEncounterAudit")
    @bp.response(200, sh.EncounterAuditSchema)
    @documented(bp, 401, 404, 503)
    def audit(encounter_id: str) -> dict:
        """Every step ever resolved (undone ones too) with every die, and every revealed seed: the file
        `python -m service verify` checks."""
        return encounter_store().audit(encounter_id, bearer_token())


register_dice(blp, shared())
