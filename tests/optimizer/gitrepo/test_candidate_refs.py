"""Stored candidates on refs of the experiment's own, read back as a restarted daemon reads them, when the refs are
not what the daemon wrote (an unsandboxed mutator, or the user, may write any ref)."""

from __future__ import annotations

import subprocess

from autoresearch.optimizer.gitrepo import candidate_refs
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo

REF = "refs/autoresearch/exp/candidates/2-0"


def test_a_stored_candidate_whose_parent_git_cannot_find_does_not_carry(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "prompt\n", "evals/score.py": "print(1)\n"})
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    body = f"tree {tree}\nparent {'1' * 40}\nauthor m <m@x> 0 +0000\ncommitter m <m@x> 0 +0000\n\nc\n\nrun_dir: r1\n"
    forged = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin"],
        cwd=repo,
        input=body,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(repo, "update-ref", REF, forged)
    ws = open_workspace(repo, "prompt.md")
    [stored] = candidate_refs.listed(ws, "exp")
    assert stored.base == "1" * 40
    assert candidate_refs.carried(ws, stored) is None
