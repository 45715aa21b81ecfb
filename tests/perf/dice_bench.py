"""`make bench` for trustworthy dice (issue 25): one 20-combatant step of every ruleset with the encounter's
committed dice (HMAC-derived, every die recorded, the audit entry built) against the same step with a seed,
and calculators' throughput with a signed receipt against the same calculators rolling with a seed."""
from __future__ import annotations

import os
import time

from service.api.kit.receipt_keys import ReceiptKeys, new_key, write_keys
from service.rules.committed import CommittedRandom, new_server_seed
from service.sessions import audit, commitments
from service.sessions.steps import resolve_once
from tests.perf import ruleset_ars_magica, ruleset_runequest_house, ruleset_war_and_combat, segment_bench
from tests.perf.http_bench import interleaved_rows


def smoting_twenty() -> tuple[dict, list[dict]]:
    """Twenty smoting fighters in pairs, each attacking its partner (as tests/perf/ruleset_smoting.py)."""
    people = [{"id": f"c{i}", "side": "red" if i % 2 else "blue", "physical_rank": 5, "mental_rank": 4,
               "xposures": {"attack": 4, "parry": 2}} for i in range(20)]
    return {"combatants": people}, [{"combatant": f"c{i}", "action": "attack", "target": f"c{i ^ 1}",
                                     "defence": "parry"} for i in range(20)]


def twenty() -> dict[str, tuple[dict, list[dict]]]:
    """A 20-combatant state and its declarations for every ruleset (the rulesets' own benchmark fights)."""
    war = ruleset_war_and_combat.twenty()
    return {"tactical": segment_bench.encounter(20), "ars-magica": ruleset_ars_magica.twenty_combatants(),
            "runequest-house": ruleset_runequest_house.twenty(), "smoting": smoting_twenty(),
            "war-and-combat": (war["state"], war["declarations"])}


def committed_step(ruleset: str, state: dict, declarations: list[dict], dice: dict, nonce: int) -> int:
    """One committed step as the encounter store computes it; returns how many dice it drew."""
    draws: list = []
    rng = CommittedRandom(bytes.fromhex(dice["server_seed"]), dice["client_seed"], "bench", nonce, draws)
    resolve_once(ruleset, state, declarations, None, (), None, rng, draws)
    audit.resolution({**dice, "nonce": nonce}, None, state, declarations, None, draws)
    return len(draws)


def interleaved_cpu_ms(runs: list, repeats: int) -> list[float]:
    """Median CPU milliseconds of each of `runs` (called with 0..repeats-1), the runs taking turns so that
    the shared machine's drift falls on all of them alike (CPU time: the fairer figure on a loaded box)."""
    times: list[list[float]] = [[] for _ in runs]
    for i in range(repeats):
        for run, kept in zip(runs, times):
            start = time.process_time()
            run(i)
            kept.append(time.process_time() - start)
    return [sorted(kept)[len(kept) // 2] * 1000 for kept in times]


def step_rows(repeats: int = 80) -> list[dict]:
    """Median CPU ms of a seeded and of a committed 20-combatant step per ruleset, and the dice a committed
    step drew on average."""
    dice, rows = commitments.fresh_dice("bench"), []
    assert len(bytes.fromhex(dice["server_seed"])) == len(new_server_seed())
    for ruleset, (state, declarations) in twenty().items():
        committed_step(ruleset, state, declarations, dice, 0)  # warm-up: tables load once
        drawn: list[int] = []
        seeded, committed = interleaved_cpu_ms([
            lambda i, r=ruleset, s=state, d=declarations: resolve_once(r, s, d, i),
            lambda i, r=ruleset, s=state, d=declarations, n=drawn: n.append(committed_step(r, s, d, dice, i))],
            repeats)
        rows.append({"ruleset": ruleset, "seeded_ms": seeded, "committed_ms": committed,
                     "dice": sum(drawn) / len(drawn)})
    return rows


RECEIPTS = [(f"POST {path}{label}", "referee", path, {**body, **extra})
            for path, body in (("/v1/smoting/to-hit", {"attack_dice": 5, "defence": {"type": "dodge", "dice": 3}}),
                               ("/v1/tactical/to-hit", {"av": 60, "dv": 45}))
            for label, extra in ((", seed 7", {"seed": 7}), (", seed 7 and a receipt", {"seed": 7, "receipt": True}))]


def receipt_rows() -> list[dict]:
    """req/s of two calculators rolling with a seed, and the same body asking for a receipt too (canonical
    JSON and an Ed25519 signature more), on gunicorn side by side with a signing key from the environment
    (best of 5 interleaved rounds each: this box's load swings from round to round)."""
    os.environ.setdefault("REFEREE_RECEIPT_KEYS", write_keys(ReceiptKeys((new_key(),))))
    return interleaved_rows(RECEIPTS, seconds=3, rounds=5)


def receipt_cpu_us(repeats: int = 3000) -> list[tuple[str, float, float]]:
    """Median CPU microseconds of one whole request in process (Flask test client, no access log), with a
    seed and with a seed and a receipt, taking turns: (calculator, without, with)."""
    import logging

    from service.app import create_app
    from service.config import Config

    logging.disable(logging.INFO)
    keys = write_keys(ReceiptKeys((new_key(),)))
    client = create_app(Config(receipt_keys=keys, redislite_path="/nonexistent/unused.db")).test_client()
    rows = []
    for plain, signed in zip(RECEIPTS[::2], RECEIPTS[1::2]):
        path = plain[2]
        without, with_receipt = interleaved_cpu_ms([lambda i, b=plain[3], p=path: client.post(p, json=b),
                                                   lambda i, b=signed[3], p=path: client.post(p, json=b)], repeats)
        rows.append((path, without * 1000, with_receipt * 1000))
    logging.disable(logging.NOTSET)
    return rows


def report() -> str:
    """The markdown tables `make bench` prints."""
    lines = [("| 20-combatant step, in process (median CPU) | seeded | committed dice (+ audit entry) | dice drawn "
              "(mean) | target |"),
             "|---|---:|---:|---:|---:|"]
    for row in step_rows():
        lines.append(f"| {row['ruleset']} | {row['seeded_ms']:.2f} ms | {row['committed_ms']:.2f} ms | "
                     f"{row['dice']:.0f} | committed < 5 ms |")
    lines += ["", "| calculator (gunicorn, wrk) | req/s | p99 | with a receipt vs with a seed (target >= 70%) |",
              "|---|---:|---:|---:|"]
    rows = receipt_rows()
    for plain, signed in zip(rows[::2], rows[1::2]):
        for row in (plain, signed):
            share = f"{signed['rps'] / plain['rps']:.0%}" if row is signed else ""
            lines.append(f"| {row['scenario']} | {row['rps']:.0f} | {row['p99_ms']:.1f} ms | {share} |")
    lines += ["", "| calculator, one request in process (median CPU) | with a seed | and a receipt | throughput kept |",
              "|---|---:|---:|---:|"]
    for path, without, signed_us in receipt_cpu_us():
        lines.append(f"| POST {path} | {without:.0f} us | {signed_us:.0f} us | {without / signed_us:.0%} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
