"""The CPU of a candidate's worktree check (autoresearch.optimizer.gitrepo.status.everything_changed): git's
status of a worktree whose artifact alone changed, ignored files included, as each parallel candidate's and
each sandboxed cycle's check reads it when more than the artifact moved.

Process time a call, best of five rounds of `--times` calls, on a temporary repository of `--files` tracked
files (a few in a folder of their own) with a worktree at HEAD, its files a second old as in a run. The
package is the one the running Python has installed (no `sys.path` insert), so that the same file times two
trees' virtual environments: `cd /tmp/ar-base && .venv/bin/python <this file>` against the tree's own.

Usage: python bench/worktree_check.py [--files N] [--times N]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from autoresearch.optimizer.gitrepo import status
from autoresearch.optimizer.gitrepo.workspace import open_workspace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=22)
    parser.add_argument("--times", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        (repo / "src").mkdir(parents=True)
        (repo / "prompt.md").write_text("the artifact\n")
        for n in range(args.files - 1):
            (repo / "src" / f"file_{n}.py").write_text(f"x = {n}\n")
        commit = ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"]
        for git in (["init", "-q"], ["add", "-A"], commit):
            subprocess.run(["git", *git], cwd=repo, check=True)
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(Path(folder) / "w")], cwd=repo, check=True)
        ws = open_workspace(Path(folder) / "w", "prompt.md")
        ws.artifact_path.write_text("a candidate\n")
        time.sleep(1.2)  # the files a second old, as they are in a run
        assert status.everything_changed(ws) == {"prompt.md": " M"}
        best = float("inf")
        for _ in range(5):
            started = time.process_time()
            for _ in range(args.times):
                status.everything_changed(ws)
            best = min(best, (time.process_time() - started) / args.times)
    print(f"{status.__file__}: everything_changed, {args.files} tracked files: {best * 1e6:.0f} us of CPU a call")


if __name__ == "__main__":
    main()
