"""How often each keep rule keeps edits whose true effect is known, and what it spends per decision.

Runs the real loop (`python -m autoresearch.optimizer run`) on temporary repositories: the
artifact lists the pass rates of 20 binary tests (0.05 to 0.95), the eval
draws each test's pass/fail from them, and a command mutator makes one edit
per cycle from a known mix: no-op (40%), -5 point regression (40%), +10 point
gain (20%), each a shift of every test's pass rate (clamped to [0, 1]). Each
experiment is the original and 9 decisions; the same experiments (same edits,
other draws) run once per rule. Prints the KEEP rate per kind of edit and the
eval runs per decision (candidate and HEAD runs, cache hits excluded).
Usage: python bench/decision_quality.py [--experiments N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autoresearch.plumbing import jsonlines  # noqa: E402
from tests.helpers.repos import GIT_ENV, make_repo  # noqa: E402

TESTS = 20
KINDS = {"noop": (0.0, 0.4), "regression": (-0.05, 0.4), "gain": (0.10, 0.2)}  # shift, share of edits
RULES = ("wins-losses", "significant")

EVAL = r"""
import json, random, sys
from pathlib import Path
run_dir = Path(sys.argv[1])
rng = random.Random(f"{sys.argv[2]}:{run_dir}")
rows = []
for line in Path("prompt.md").read_text().splitlines():
    words = line.split()
    if len(words) == 2 and words[0].startswith("t"):
        rows.append({"test_id": words[0], "score": float(rng.random() < float(words[1]))})
(run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
"""

MUTATOR = r"""
import json, os, random, sys
from pathlib import Path
kinds = json.loads(sys.argv[2])
rng = random.Random(f"{sys.argv[1]}:{os.environ['AUTORESEARCH_CYCLE']}")
kind = rng.choices(list(kinds), weights=[w for _, w in kinds.values()])[0]
shift = kinds[kind][0]
lines = []
for line in Path("prompt.md").read_text().splitlines():
    words = line.split()
    if words[0] == "nonce":
        line = f"nonce {rng.random()}"
    else:
        line = f"{words[0]} {min(1.0, max(0.0, float(words[1]) + shift)):.4f}"
    lines.append(line)
Path("prompt.md").write_text("\n".join(lines) + "\n")
Path(os.environ["AUTORESEARCH_RUN_DIR"], "mutation.md").write_text(kind + "\n")
"""


def experiment(root: Path, rule: str, seed: str) -> list[dict]:
    """One experiment of 9 decisions; its iterations lines."""
    rates = "".join(f"t{i} {0.05 + 0.9 * i / (TESTS - 1):.4f}\n" for i in range(TESTS))
    config = {
        "experiment": "bench",
        "artifact": "prompt.md",
        "eval": {"command": f"python3 score.py {{run_dir}} {seed}"},
        "mutator": {"provider": "command", "command": f"python3 mutate.py {seed} '{json.dumps(KINDS)}'"},
        "policy": {"rule": rule},
        "stop": {"max_cycles": 10, "max_convergence": 0},
    }
    repo = make_repo(
        root,
        {
            "prompt.md": rates + "nonce 0\n",
            "score.py": EVAL,
            "mutate.py": MUTATOR,
            "autoresearch.yaml": json.dumps(config),
        },
    )
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run", "-q"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 10):
        raise SystemExit(f"the loop failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = jsonlines.lines((repo / ".autoresearch/runs/bench/_autoresearch/iterations.jsonl").read_text())
    return [json.loads(line) for line in lines if line][1:]  # ended as the product ends them, not at U+2028


def tally(lines: list[dict]) -> dict:
    kept = {kind: [0, 0] for kind in KINDS}
    runs = 0
    for line in lines:
        kept[line["mutation"]][0] += line["decision"] == "keep"
        kept[line["mutation"]][1] += 1
        runs += line.get("eval_runs", 1)
    return {"kept": kept, "runs_per_decision": runs / max(1, len(lines)), "decisions": len(lines)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experiments", type=int, default=40)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="autoresearch-bench-") as tmp:
        for rule in RULES:
            lines = []
            for e in range(args.experiments):
                lines += experiment(Path(tmp) / rule / str(e), rule, f"{args.seed}-{e}")
            results[rule] = tally(lines)
    print(f"{'':22}" + "".join(f"{rule:>14}" for rule in RULES))
    for kind in KINDS:
        cells = "".join(f"{_rate(results[r]['kept'][kind]):>14}" for r in RULES)
        print(f"KEEP rate, {kind:<11}" + cells)
    print(f"{'eval runs / decision':<22}" + "".join(f"{results[r]['runs_per_decision']:>14.2f}" for r in RULES))
    print(f"{'decisions':<22}" + "".join(f"{results[r]['decisions']:>14}" for r in RULES))


def _rate(pair: list[int]) -> str:
    kept, total = pair
    return f"{kept / total:.1%} ({total})" if total else "-"


if __name__ == "__main__":
    main()
