"""How fast parallel candidates (`search.candidates: K`) raise the true score, for a fixed wall-clock budget.

Runs the real loop (`python -m autoresearch.optimizer run`) on a simulated landscape with a known true
score. The artifact is a list of applied edits (`edit N` lines). Each of the landscape's edits has a
known effect on each test's true pass rate: most are neutral or harmful, some help three tests, and
some come in pairs whose halves each hurt a little but help three tests together. The command
mutator takes `--mutate-s` seconds and adds one edit not yet applied (two, 30% of the time, so a pair
can be found); the command eval takes `--eval-s` seconds and scores each test as its true rate plus
Gaussian noise. Every configuration (K = 1, 2, 4 under `wins-losses` and `significant`) starts from
the same original and runs for `--budget-s` seconds (`stop.max_hours`).

Printed side by side: HEAD's true score at each quarter of the budget, when each configuration first
reached K=1's final true score under the same rule, the false-KEEP rate (KEEPs that did not raise
the true score, per decision), and the spend (eval runs, mutations) per +0.01 of true score.
A K > 1 configuration this build does not accept (no `search.candidates` yet) is reported as such.
Usage: python bench/search_efficiency.py [--budget-s S] [--eval-s S] [--mutate-s S] [--seed N] [--k 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.repos import cli, git, make_repo  # noqa: E402

TESTS = 12
EDITS = 40
PAIRS = 4
NOISE = 0.1
RULES = ("wins-losses", "significant")
QUARTERS = (0.25, 0.5, 0.75, 1.0)

# The landscape's true score, shared by the eval (in the repository) and this script (afterwards).
TRUTH = r"""
import json
from pathlib import Path

def applied(text):
    return sorted({int(w[1]) for w in (l.split() for l in text.splitlines()) if len(w) == 2 and w[0] == "edit"})

def true_rates(landscape, edits):
    rates = list(landscape["base"])
    for e in edits:
        for t, d in landscape["effects"][e].items():
            rates[int(t)] += d
    for a, b, bonus in landscape["pairs"]:
        if a in edits and b in edits:
            for t, d in bonus.items():
                rates[int(t)] += d
    return [min(1.0, max(0.0, r)) for r in rates]
"""

EVAL = (
    TRUTH
    + r"""
import random, sys, time
run_dir = Path(sys.argv[1])
landscape = json.loads(Path(sys.argv[2]).read_text())
time.sleep(float(sys.argv[3]))
rng = random.Random(f"{run_dir}:{time.time_ns()}")
rates = true_rates(landscape, applied(Path("prompt.md").read_text()))
rows = [{"test_id": f"t{i:02d}", "score": min(1.0, max(0.0, r + rng.gauss(0, landscape["noise"])))}
        for i, r in enumerate(rates)]
(run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
"""
)

MUTATOR = r"""
import json, os, random, sys, time
from pathlib import Path
landscape = json.loads(Path(sys.argv[1]).read_text())
time.sleep(float(sys.argv[2]))
artifact = Path(os.environ["AUTORESEARCH_ARTIFACT"])
run_dir = os.environ["AUTORESEARCH_RUN_DIR"]
rng = random.Random(f"{sys.argv[3]}:{os.environ['AUTORESEARCH_CYCLE']}:{run_dir}")
text = artifact.read_text()
have = {l.split()[1] for l in text.splitlines() if l.startswith("edit ")}
free = [e for e in range(len(landscape["effects"])) if str(e) not in have]
picked = rng.sample(free, min(len(free), 2 if rng.random() < 0.3 else 1))
if not picked:
    sys.exit(3)
artifact.write_text(text + "".join(f"edit {e}\n" for e in picked))
Path(run_dir, "mutation.md").write_text(" + ".join(f"edit {e}" for e in picked) + "\n")
"""


def landscape(seed: int) -> dict:
    """The edits' true effects: 45% neutral, 30% harmful, the rest helpful or halves of a pair."""
    rng = random.Random(seed)
    tests = list(range(TESTS))
    effects: list[dict[str, float]] = []
    pair_halves = 2 * PAIRS
    for e in range(EDITS - pair_halves):
        kind = rng.choices(["neutral", "harmful", "helpful"], [45, 30, 25])[0]
        if kind == "harmful":
            effects.append({str(t): -rng.uniform(0.04, 0.1) for t in rng.sample(tests, 3)})
        elif kind == "helpful":
            effects.append({str(t): rng.uniform(0.1, 0.2) for t in rng.sample(tests, 3)})
        else:
            effects.append({})
    pairs = []
    for p in range(PAIRS):
        a, b = len(effects), len(effects) + 1
        effects += [{str(t): -0.02 for t in rng.sample(tests, 2)} for _ in range(2)]
        pairs.append([a, b, {str(t): rng.uniform(0.1, 0.15) for t in rng.sample(tests, 3)}])
    order = list(range(EDITS))
    rng.shuffle(order)  # pair halves are not told apart by their numbers
    where = {old: new for new, old in enumerate(order)}
    shuffled = [effects[old] for old in order]
    pairs = [[where[a], where[b], bonus] for a, b, bonus in pairs]
    return {"base": [rng.uniform(0.3, 0.6) for _ in tests], "effects": shuffled, "pairs": pairs, "noise": NOISE}


def true_score(land: dict, artifact_text: str) -> float:
    scope: dict = {}
    exec(TRUTH, scope)  # the same code the eval runs: one definition of the truth
    rates = scope["true_rates"](land, scope["applied"](artifact_text))
    return sum(rates) / len(rates)


@dataclass
class Outcome:
    label: str
    refused: str = ""
    head: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, HEAD's true score)
    decisions: int = 0
    keeps: int = 0
    false_keeps: int = 0
    eval_runs: int = 0
    mutations: int = 0

    def at(self, seconds: float) -> float:
        return [score for t, score in self.head if t <= seconds][-1]

    def reached(self, score: float) -> float | None:
        return next((t for t, s in self.head if s >= score - 1e-9), None)

    @property
    def gain(self) -> float:
        return self.head[-1][1] - self.head[0][1]


def run(root: Path, land: dict, rule: str, k: int, args: argparse.Namespace) -> Outcome:
    """One configuration on a fresh copy of the same original; its HEAD's true score over time."""
    label = f"K={k} {rule}"
    config: dict = {
        "experiment": "bench",
        "artifact": "prompt.md",
        "eval": {"command": f"python3 score.py {{run_dir}} {root / 'landscape.json'} {args.eval_s}"},
        "mutator": {
            "provider": "command",
            "command": f"python3 mutate.py {root / 'landscape.json'} {args.mutate_s} {args.seed}",
        },
        "policy": {"rule": rule},
        "stop": {"max_cycles": 0, "max_convergence": 0, "max_hours": args.budget_s / 3600},
    }
    if k > 1:
        config["search"] = {"candidates": k}
    repo = make_repo(
        root / label.replace(" ", "-"),
        {"prompt.md": "# edits\n", "score.py": EVAL, "mutate.py": MUTATOR, "autoresearch.yaml": json.dumps(config)},
    )
    started = time.time()
    done = cli(repo, "run", "-q", timeout=args.budget_s * 3 + 60)
    if done.returncode == 30 and k > 1 and "search" in done.stderr:
        return Outcome(label, refused=done.stderr.strip().splitlines()[-1])
    if done.returncode not in (0, 10):
        raise SystemExit(f"{label}: the loop failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = (repo / ".autoresearch/runs/bench/_autoresearch/iterations.jsonl").read_text().splitlines()
    return tally(label, [json.loads(line) for line in lines], land, repo, started)


def tally(label: str, lines: list[dict], land: dict, repo: Path, started: float) -> Outcome:
    out = Outcome(label, head=[(0.0, true_score(land, "# edits\n"))])
    for line in lines[1:]:
        out.eval_runs += line.get("eval_runs", 0 if line["decision"] == "error" else 1)
        out.mutations += sum(not c.get("merge_of") for c in line.get("candidates") or [{}])
        if line["decision"] == "error":  # spent, but nothing was decided
            continue
        out.decisions += 1
        if line["decision"] == "keep" and line.get("commit"):
            score = true_score(land, git(repo, "show", f"{line['commit']}:prompt.md"))
            out.keeps += 1
            out.false_keeps += score <= out.head[-1][1]
            when = datetime.fromisoformat(line["timestamp"].replace("Z", "+00:00")).timestamp() - started
            out.head.append((max(0.0, when), score))
    return out


def report(outcomes: list[Outcome], budget_s: float) -> None:
    ran = [o for o in outcomes if not o.refused]
    width = max(18, *(len(o.label) + 2 for o in ran)) if ran else 18
    print(f"{'':34}" + "".join(f"{o.label:>{width}}" for o in ran))
    for q in QUARTERS:
        print(
            f"{f'true HEAD score at {q:.0%} of {budget_s:g} s':<34}"
            + "".join(f"{o.at(q * budget_s):>{width}.4f}" for o in ran)
        )
    finals = {o.label.split(" ", 1)[1]: o.head[-1][1] for o in ran if o.label.startswith("K=1 ")}
    reached = [o.reached(finals[rule]) if (rule := o.label.split(" ", 1)[1]) in finals else None for o in ran]
    print(f"{'reached K=1 final (share of time)':<34}" + "".join(f"{_share(t, budget_s):>{width}}" for t in reached))
    print(f"{'decisions (cycles)':<34}" + "".join(f"{o.decisions:>{width}}" for o in ran))
    print(f"{'KEEPs':<34}" + "".join(f"{o.keeps:>{width}}" for o in ran))
    print(
        f"{'false-KEEP rate (per decision)':<34}"
        + "".join(f"{_rate(o.false_keeps, o.decisions):>{width}}" for o in ran)
    )
    print(f"{'eval runs per +0.01 true':<34}" + "".join(f"{_per(o.eval_runs, o.gain):>{width}}" for o in ran))
    print(f"{'mutations per +0.01 true':<34}" + "".join(f"{_per(o.mutations, o.gain):>{width}}" for o in ran))
    for o in outcomes:
        if o.refused:
            print(f"{o.label}: not run, this build refuses the configuration: {o.refused}")


def _share(seconds: float | None, budget_s: float) -> str:
    return "never" if seconds is None else f"{seconds / budget_s:.0%}"


def _rate(n: int, total: int) -> str:
    return f"{n / total:.1%}" if total else "-"


def _per(spend: int, gain: float) -> str:
    return f"{spend / (gain / 0.01):.1f}" if gain > 0 else "no gain"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-s", type=float, default=45.0, help="wall-clock budget of each configuration")
    parser.add_argument("--eval-s", type=float, default=0.4, help="simulated time of one eval run")
    parser.add_argument("--mutate-s", type=float, default=0.4, help="simulated time of one mutation")
    parser.add_argument("--seed", type=int, default=1, help="the landscape and the mutator's choices")
    parser.add_argument("--k", default="1,2,4", help="candidates per cycle to compare")
    args = parser.parse_args()
    land = landscape(args.seed)
    print(
        f"landscape: {EDITS} edits, {PAIRS} pairs, {TESTS} tests, noise sd {NOISE}; all helpful edits and pairs score "
        f"{true_score(land, ''.join(f'edit {e}' + chr(10) for e in _helpful(land))):.4f} from "
        f"{true_score(land, '# edits' + chr(10)):.4f}"
    )
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="autoresearch-bench-") as tmp:
        (Path(tmp) / "landscape.json").write_text(json.dumps(land))
        for rule in RULES:
            for k in (int(k) for k in args.k.split(",")):
                outcomes.append(run(Path(tmp), land, rule, k, args))
                print(f"  ran {outcomes[-1].label}", file=sys.stderr, flush=True)
    report(outcomes, args.budget_s)


def _helpful(land: dict) -> list[int]:
    """The edits the best artifact has: each helpful edit, and both halves of each pair."""
    alone = [e for e, eff in enumerate(land["effects"]) if sum(eff.values()) > 0]
    return alone + [e for a, b, _ in land["pairs"] for e in (a, b)]


if __name__ == "__main__":
    main()
