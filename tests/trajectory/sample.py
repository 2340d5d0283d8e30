"""Realistic experiments on disk for the chart tests: iterations.jsonl, state.json and run directories."""

from __future__ import annotations

import json
import random
from pathlib import Path

from autoresearch.trajectory.iterations import Iteration

XSS = "<img src=x onerror=alert(1)>"
SCRIPT_XSS = "</script><script>window.pwned=1</script>"


def records(cycles: int, assertions: int = 5, seed: int = 7) -> list[Iteration]:
    """A run that climbs with noise: KEEPs, DROPs and the odd ERROR, costs and pass rates per assertion."""
    rng = random.Random(seed)
    names = [f"assertion {i:02d}: answer mentions topic {i}" for i in range(assertions)]
    head, out = 0.35, []
    for cycle in range(1, cycles + 1):
        decision = "keep" if cycle == 1 else rng.choices(["keep", "drop", "error"], [3, 6, 1])[0]
        score = head if cycle == 1 else min(1.0, max(0.0, head + rng.uniform(-0.12, 0.1)))
        if decision == "keep":
            score = max(score, head) if cycle > 1 else score
            head = score
        extra = {} if decision != "error" else {"error": "eval exited 1"}
        out.append(
            Iteration(
                cycle=cycle,
                score=0.0 if decision == "error" else round(score, 4),
                decision=decision,
                cost_usd=round(rng.uniform(0.05, 0.2), 4),
                mutation_cost_usd=round(rng.uniform(0.01, 0.05), 4),
                assertions={n: round(min(1.0, max(0.0, score + rng.uniform(-0.3, 0.3))), 2) for n in names},
                mutation="original" if cycle == 1 else f"tighten rule {cycle % 7}",
                run_dir=f"2026-11-21T22-{cycle // 60:02d}-{cycle % 60:02d}-c{cycle:04d}",
                wins=rng.randint(0, 4),
                losses=rng.randint(0, 4),
                ties=rng.randint(0, 10),
                duration_s=round(rng.uniform(30, 90), 1),
                **extra,
            )
        )
    return out


def write_experiment(root: Path, recs: list[Iteration], bad_line_after: int | None = None) -> Path:
    """`root/runs/exp/`, with run directories holding the files the daemon writes; returns the meta dir."""
    meta = root / "runs" / "exp" / "_autoresearch"
    meta.mkdir(parents=True)
    lines = [json.dumps(r.model_dump(mode="json")) for r in recs]
    if bad_line_after is not None:
        lines.insert(bad_line_after, '{"cycle": 99, "score": ')  # a torn line
    (meta / "iterations.jsonl").write_text("\n".join(lines) + "\n")
    for r in recs:
        run = meta.parent / r.run_dir
        run.mkdir(exist_ok=True)
        (run / "index.jsonl").write_text('{"test_id": "t1", "score": 1.0}\n')
        if r.decision != "keep":
            (run / "candidate.patch").write_text("--- a/prompt.md\n+++ b/prompt.md\n")
    (meta / "state.json").write_text(json.dumps(state(len(recs), "finished", "converged")))
    return meta


def state(cycle: int, status: str = "running", stop_reason: str | None = None) -> dict:
    return {
        "status": status,
        "stop_reason": stop_reason,
        "cycle": cycle,
        "phase": "eval",
        "started_at": "2026-11-21T22:00:00Z",
        "updated_at": "2026-11-22T06:30:00Z",
    }


def varied(cycles: int, seed: int = 11) -> list[Iteration]:
    """`records` with every kind of line the page draws differently: the night's KEEPs, DROPs and ERRORs
    (some out of scope), and now and then a re-baseline, a cycle of parallel candidates (one from a parent, a
    merge), a gate-blocked candidate with objectives, a held-out score, an early discard, a KEEP's commit
    and one lost by hand, a line without a run directory."""
    rng = random.Random(seed)
    out = []
    for r in records(cycles, seed=seed):
        extra: dict = {"objectives": {"cost": round(rng.uniform(0.5, 2), 3), "latency_ms": rng.randint(100, 900)}}
        if r.decision == "keep" and r.cycle % 5:
            extra["commit"] = f"{r.cycle:040x}"
        if r.cycle % 9 == 0:
            extra.update(rebaseline=True, decision="keep", score=0.5, commit=f"{r.cycle:040x}")
        if r.decision == "error" and r.cycle % 2:
            extra["error_reason"] = "out-of-scope"
        if r.cycle % 4 == 0:
            extra["holdout_score"] = round(rng.uniform(0.2, 0.9), 3)
        if r.cycle % 6 == 0 and r.decision == "drop":
            extra.update(skipped_tests=3, tests=5)
        if r.cycle % 7 == 3:
            extra["candidates"] = [
                {"index": 0, "decision": "drop", "strategy": "rewrite", "summary": f"<b>{r.cycle}</b>", "score": 0.4},
                {"index": 1, "decision": r.decision, "strategy": "trim", "summary": "s", "score": r.score},
                {"index": 2, "decision": "error", "strategy": "add", "summary": "none"},
                {"index": 3, "decision": "drop", "summary": "m", "score": 0.3, "merge_of": [0, 1]},
                {"index": 4, "decision": "drop", "summary": "p", "score": 0.2, "parent": f"{r.cycle}-0"},
            ]
        if r.cycle % 11 == 5 and r.decision == "drop":
            extra.update(gate="cost", reason=f"cost {SCRIPT_XSS} rose")
        if r.cycle % 13 == 12:
            extra["run_dir"] = ""
        out.append(Iteration.model_validate({**r.model_dump(), **extra}))
    return out
