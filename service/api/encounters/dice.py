"""An encounter's committed dice (issue 25): the client seed, reveal-and-rotate, and the audit log.

Beside the other /v1/encounters operations (same blueprint, token and If-Match rules), so they move with
them. The README's "Dice nobody has to take on trust" is the full story for players and integrators.
"""
from __future__ import annotations

from service.api.encounters import dice_schemas as s
from service.api.encounters.answers import etag
from service.api.encounters.blueprint import ENCOUNTER, blp, documented
from service.api.encounters.requests import bearer_token, encounter_store, expected_version
from service.api.http.headers import headers
from service.sessions.audit import public_dice


@blp.put("/<string:encounter_id>/dice", parameters=ENCOUNTER)
@blp.doc(operationId="setClientSeed")
@blp.arguments(s.EncounterClientSeedSchema, example={"client_seed": "table-7 on friday"})
@blp.response(200, s.EncounterDiceOutSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 422, 503, write=True)
def set_client_seed(body: dict, encounter_id: str) -> tuple[dict, int, dict]:
    """Replace the client seed (409 once a step has rolled under the current commitment)."""
    encounter = encounter_store().set_client_seed(encounter_id, bearer_token(), body["client_seed"],
                                                  expected_version())
    return {"version": encounter.version, "dice": public_dice(encounter.dice)}, 200, etag(encounter)


@blp.post("/<string:encounter_id>/dice/reveal", parameters=ENCOUNTER)
@blp.doc(operationId="revealServerSeed")
@blp.response(200, s.EncounterRevealSchema, headers=headers("ETag"))
@documented(401, 404, 409, 412, 503, write=True)
def reveal(encounter_id: str) -> tuple[dict, int, dict]:
    """Publish the server seed of the current commitment and start a new one (later steps roll under it)."""
    encounter, revealed = encounter_store().reveal(encounter_id, bearer_token(), expected_version())
    answer = {"version": encounter.version, "revealed": revealed, "dice": public_dice(encounter.dice)}
    return answer, 200, etag(encounter)


@blp.get("/<string:encounter_id>/audit", parameters=ENCOUNTER)
@blp.doc(operationId="getEncounterAudit")
@blp.response(200, s.EncounterAuditSchema)
@documented(401, 404, 503)
def audit(encounter_id: str) -> dict:
    """Every step ever resolved (undone ones too) with every die, and every revealed seed: the file
    `python -m service verify` checks."""
    return encounter_store().audit(encounter_id, bearer_token())
