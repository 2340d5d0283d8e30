"""A directory artifact's key (the git tree it has, or would have once committed) made with one git process, not
four: HEAD's entries written into the throwaway index and the tree written by libgit2, `git add` alone a process."""

from __future__ import annotations

import json
import re

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

CACHE = ".autoresearch/cache"


def test_a_directory_artifact_s_key_is_its_committed_tree_made_by_one_git_process(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": scores(a=0.5, b=0.5), "prompt/b.md": "\n", "prompt/kept.log": "tracked, though ignored\n"},
        {
            2: {"write": {"prompt/a.md": scores(a=1.0, b=1.0)}, "summary": "better"},
            3: {"write": {"prompt/a.md": scores(a=0.0, b=0.0)}, "summary": "worse"},
        },
        config={"eval": {"command": "python3 evals/score.py {run_dir} prompt"}},
        extra_files={".gitignore": "*.log\n"},
    )
    git(repo, "add", "-f", "prompt/kept.log")
    git(repo, "commit", "-qm", "a file the artifact tracks, though ignored")
    git(repo, "config", "core.splitIndex", "true")  # an index libgit2 cannot read: not for the key's
    trace = tmp_path / "trace"
    done = cli(repo, "run", env={"GIT_TRACE": str(trace)})
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop"]
    # the keys are the trees git commits (an ignored file HEAD tracks included): each KEEP's samples are HEAD's
    lines = [line for log in (repo / CACHE).glob("*/entries.log") for line in log.read_bytes().split(b"\n") if line]
    headers = [line.split(b"\t")[0] for line in lines]
    entries = {h["artifact"] for h in map(json.loads, headers) if h["n"] == 1}
    kept = {git(repo, "rev-parse", f"{rev}:prompt").strip() for rev in ("HEAD", "HEAD~1")}
    assert kept <= entries and len(entries) == 3, (entries, kept)
    assert "kept.log" in git(repo, "ls-tree", "HEAD:prompt")
    # each key was `read-tree HEAD`, `add -A`, `write-tree` and `rev-parse TREE:prompt`; now `add -A` alone
    commands = re.findall(r"trace: built-in: git (.*)", trace.read_text())
    assert [c for c in commands if "add -A -- prompt" in c], commands
    assert not [c for c in commands if c.startswith("write-tree") or re.match(r"rev-parse [0-9a-f]{40}:", c)], commands
