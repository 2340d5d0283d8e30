"""Candidates mutated on the cluster (autoresearch.optimizer.cycle.on_cluster), K of them or a lone one, on
cluster.py's real two-node cluster: where the mutations ran, what came back, and a node lost mid-mutation.

Each scenario returns what a user would see: the exit code, the commits, the lines, and what each candidate's
mutator wrote about itself (mutation.md in its folder of the cycle's run directory).
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

from tests.helpers.repos import cli
from tests.runs.executors import cluster, faults

# says where it ran (its working folder, and the run just decided as it was handed it), reports a spend
MUTATE = """\
echo boost1 >> prompt.md
printf 'ran in %s, reading %s\\n' "$(pwd)" "$AUTORESEARCH_RUN_DIR" > "${AUTORESEARCH_CHANGELOG:-$AUTORESEARCH_RUN_DIR/mutation.md}"
echo '{"cost_usd": 0.25}' > "$AUTORESEARCH_COST_FILE"
"""

# the fault scenarios': says it started, then holds until the test lets it go (not in a run without MARKS_DIR)
HOLD = (
    """\
if [ -n "$MARKS_DIR" ]; then
  touch "$MARKS_DIR/started-mutation-$AUTORESEARCH_SIBLING-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
  while [ ! -e "$MARKS_DIR/release" ]; do sleep 0.05; done
fi
"""
    + MUTATE
)


def mutated_on_ray(work: Path, on_ray: dict) -> dict:
    """Two candidates a cycle, each mutated (by a sandboxed command) and evaluated on the cluster."""
    tree = cluster.repo(
        work / "mutated-on-ray",
        on_ray,
        mutator="sh mutate.sh",
        extra={"search": {"candidates": 2}},
        prompt="fact0 fact1 fact2\n",
        more={"mutate.sh": MUTATE},
    )
    done = cli(tree, "run", "--max-cycles", "2", timeout=900)
    return {**_outcome(tree, done), "said": _said(tree)}


def lone_on_ray(work: Path, on_ray: dict) -> dict:
    """One candidate a cycle (`search.candidates: 1`), mutated on the cluster and committed in the checkout."""
    tree = cluster.repo(
        work / "lone-on-ray", on_ray, mutator="sh mutate.sh", prompt="fact0 fact1 fact2\n", more={"mutate.sh": MUTATE}
    )
    done = cli(tree, "run", "--max-cycles", "2", timeout=900)
    lines = cluster.iterations(tree) if done.returncode in (0, 10) else []
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True, text=True).stdout
    said = [line.get("mutation", "") for line in lines]
    return {**_outcome(tree, done), "said": said, "decisions": [line["decision"] for line in lines], "status": status}


def holding(tree: Path, on_ray: dict, marks: Path) -> Path:
    """A repository whose two candidates a cycle hold in their mutation (sandboxed, `marks` writable)."""
    mutator = {"provider": "command", "command": "sh mutate.sh", "sandbox": {"writable": [str(marks)]}}
    return cluster.repo(
        tree,
        on_ray,
        extra={"search": {"candidates": 2}, "mutator": mutator},
        prompt="fact0 fact1 fact2\n",
        more={"mutate.sh": HOLD},
    )


def interrupted_mid_mutation(work: Path, on_ray: dict) -> dict:
    """Ctrl-C to `run` while both candidates' mutations hold on the cluster: how long it took to exit, the Ray
    driver processes and mutators left running, and the next run."""
    marks = work / "marks-mutation-signal"
    tree = holding(work / "mutation-interrupted", on_ray, marks)
    stopped = faults.interrupted(tree, marks, faults.started(marks, 2), signal.SIGINT, True, "run", "--max-cycles", "2")
    stopped["mutators"] = faults.settled(mutators, 30)
    return faults.resumed(tree, stopped)


def mutators() -> list[int]:
    return [pid for pid, args in cluster.processes() if b"mutate.sh" in b" ".join(args)]


def node_lost_mid_mutation(work: Path, on_ray: dict) -> dict:
    """Two candidates mutating at once, one on each node, when the second node's raylet is SIGKILLed: the lost
    mutation runs again on the node left, and the cycle judges both candidates. A new second node joins after."""
    marks = work / "marks-mutation"
    tree = holding(work / "mutation-lost", on_ray, marks)
    held = cluster.held(tree, marks, 2, lambda: [cluster.raylet_of_worker()], "run", "--max-cycles", "2")
    cluster.join_a_second_node()
    log = next((tree / ".autoresearch").rglob("daemon.log")).read_text()
    lost = [json.loads(line) for line in log.splitlines() if "a Ray node was lost during the mutation" in line]
    outcome = _outcome(tree, None) if held["exit"] in (0, 10) else {}
    shown = {"report": cli(tree, "report").stdout, "status": cli(tree, "status", "autoresearch-prompt.md").stdout}
    return {**held, **outcome, **shown, "lost_said": len(lost), "said": _said(tree)}


def _outcome(tree: Path, done: subprocess.CompletedProcess | None) -> dict:
    lines = cluster.iterations(tree)
    out = {
        "commits": cluster.commits(tree),
        "candidates": [[c.get("summary", "") for c in line.get("candidates") or []] for line in lines],
        "mutation_cost_usd": [line.get("mutation_cost_usd") for line in lines],
        "lost_attempts": [line.get("mutation_lost_attempts") for line in lines],
        "candidates_lost": [[c.get("lost_attempts") for c in line.get("candidates") or []] for line in lines],
    }
    if done is not None:
        out |= {"exit": done.returncode, "stderr": done.stderr[-2000:]}
    return out


def _said(tree: Path) -> list[str]:
    """What each candidate's mutator wrote about itself, by candidate."""
    return [p.read_text().strip() for p in sorted((tree / ".autoresearch").rglob("candidate-*/mutation.md"))]
