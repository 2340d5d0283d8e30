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
