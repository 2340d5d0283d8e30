"""The CPU of the check before each in-process commit and restore (issue 34).

`direct.commit` and `direct.restore` first ask whether git itself must write instead: the environment's
GIT_* names, the configuration, the folders on the artifact's path and, where an attributes file exists,
whether an attribute converts the artifact (libgit2 asked for five names). It is timed alone, `--times`
calls at a time, best of five, on a temporary repository a second old as in a run; with `--attributes` a
`.gitattributes` that converts nothing is committed beside the artifact.
Usage: python bench/direct_gate.py [--attributes] [--times N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo import direct  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attributes", action="store_true")
    parser.add_argument("--times", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        (repo / "d").mkdir(parents=True)
        (repo / "d" / "prompt.md").write_text("the artifact\n")
        if args.attributes:
            (repo / ".gitattributes").write_text("*.md -text\n")
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=repo, check=True)
        ws, best = open_workspace(repo, "d/prompt.md"), float("inf")
        time.sleep(1.2)  # the files a second old, as they are in a run
        if direct._settings(ws) is None:
            raise SystemExit("the repository asks for git itself: nothing to time")
        for _ in range(5):
            started = time.process_time()
            for _ in range(args.times):
                direct._settings(ws)
            best = min(best, (time.process_time() - started) / args.times)
        print(f"direct's gate, {'an' if args.attributes else 'no'} attributes file: {best * 1e6:.0f} us of CPU a call")


if __name__ == "__main__":
    main()
