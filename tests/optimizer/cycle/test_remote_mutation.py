"""A candidate's mutation as a Ray task runs it (optimizer/cycle/remote_mutation.py), in a worker process of its
own and without a cluster: what it reads on the worker, and what comes back to the daemon.

The cluster itself (tasks shipped, a node lost mid-mutation) is tests/runs/executors/test_ray.py's.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

from autoresearch.mutators.base import MutationRequest
from autoresearch.mutators.config import CommandMutatorConfig
from autoresearch.optimizer.cycle.remote_mutation import Outcome, put_back
from tests.helpers.repos import make_repo

# a worker process: the task's function called as Ray calls it, its outcome handed back pickled
WORKER = """\
import pickle, sys
from pathlib import Path
from autoresearch.optimizer.cycle.remote_mutation import mutate_in_tree, pack_context
root, config, request = pickle.load(sys.stdin.buffer)
sys.stdout.buffer.write(pickle.dumps(mutate_in_tree(Path(root), config, request, pack_context(request))))
"""


def daemon_side(tmp_path: Path) -> MutationRequest:
    """A candidate's worktree and the experiment's records, as the daemon hands them to a mutator."""
    tree = make_repo(tmp_path / "candidate", {"prompt.md": "answer briefly\n", "evals/suite.yaml": "tests: []\n"})
    meta = tmp_path / "records"
    (meta / "run").mkdir(parents=True)
    (meta / "run" / "index.jsonl").write_text('{"test_id": "t1", "score": 0.0}\n')
    (meta / "iterations.jsonl").write_text('{"cycle": 1}\n')
    (meta / "digest.md").write_text("nothing tried yet\n")
    return MutationRequest(
        repo_root=tree,
        artifact=tree / "prompt.md",
        mode="file",
        run_dir=meta / "run",
        iterations=meta / "iterations.jsonl",
        digest=meta / "digest.md",
        initial_sha="0" * 40,
        pass_rates={},
        cycle=2,
        log_dir=meta / "candidate-0",
        read_only=(tree / "evals/suite.yaml",),
        sibling=0,
        siblings=2,
    )


def on_a_worker(tmp_path: Path, request: MutationRequest, command: str) -> Outcome:
    """The mutation run by `command` in a copy of the candidate's tree, as a worker process runs the task."""
    root = tmp_path / "shipped"
    shutil.copytree(request.repo_root, root, ignore=shutil.ignore_patterns(".git"))
    (tmp_path / "tmp").mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", WORKER],
        input=pickle.dumps((str(root), CommandMutatorConfig(command=command), request)),
        capture_output=True,
        env={**os.environ, "TMPDIR": str(tmp_path / "tmp")},
        check=True,
        timeout=120,  # (a FIFO in the tree once made the worker wait for a writer for good)
    )
    outcome: Outcome = pickle.loads(done.stdout)
    return outcome


def test_the_mutator_reads_the_workers_copies_and_only_the_artifact_and_changelog_come_back(tmp_path):
    request = daemon_side(tmp_path)
    command = (
        'cat "$AUTORESEARCH_RUN_DIR/index.jsonl" "$AUTORESEARCH_DIGEST" >> prompt.md; '
        'echo "used the last run" > "$AUTORESEARCH_CHANGELOG"; '
        "echo stray > notes.txt; mkfifo pipe; mkdir -p __pycache__ && touch __pycache__/m.pyc"
    )
    outcome = on_a_worker(tmp_path, request, command)
    assert outcome.failure is None and outcome.result is not None
    assert outcome.result.summary == "used the last run"
    assert outcome.outside == ("notes.txt", "pipe")  # a tool's cache is not held against it, a stray file is
    put_back(outcome, request)
    assert (request.repo_root / "prompt.md").read_text() == (
        'answer briefly\n{"test_id": "t1", "score": 0.0}\nnothing tried yet\n'
    )
    assert request.changelog.read_text() == "used the last run\n"
    assert (request.log_dir / "mutator.stdout.log").is_file()  # the mutator's logs, where they are kept here
    assert not (request.repo_root / "notes.txt").exists()  # nothing else of the worker's tree
    assert not list((tmp_path / "tmp").glob("autoresearch-worker-*/mutate-*"))  # the worker's copies are removed


def test_a_failed_mutation_comes_back_as_a_failure_with_its_spend(tmp_path):
    request = daemon_side(tmp_path)
    command = 'echo tried >> prompt.md; echo \'{"cost_usd": 0.3}\' > "$AUTORESEARCH_COST_FILE"; exit 3'
    outcome = on_a_worker(tmp_path, request, command)
    assert outcome.result is None and outcome.failure is not None
    assert outcome.failure.reason == "mutator-failed" and "exited 3" in outcome.failure.message
    assert outcome.failure.spent is not None and outcome.failure.spent.cost_usd == 0.3
    put_back(outcome, request)
    assert (request.repo_root / "prompt.md").read_text() == "answer briefly\ntried\n"  # its patch is saved here
