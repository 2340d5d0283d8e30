"""The in-process writes' attribute gate (autoresearch.optimizer.gitrepo.attributes.converts) timed against an
earlier version of its module, in one process, interleaved (A B A B): a repository with no attributes file,
FILES files at its root, the index settled or written within the second (as in the cycle after a KEEP).
Usage: git show main:optimizer/gitrepo/attributes.py > /tmp/before.py
       python bench/attributes_gate.py FILES settled|fresh /tmp/before.py
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo import attributes as after  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402


def main() -> None:
    files, fresh, earlier = int(sys.argv[1]), sys.argv[2] == "fresh", sys.argv[3]
    spec = importlib.util.spec_from_file_location("before_attributes", earlier)
    assert spec is not None and spec.loader is not None
    before = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "r"
        (repo / "d").mkdir(parents=True)
        (repo / "d/prompt.md").write_text("x\n")
        for n in range(files):
            (repo / f"f{n}.txt").write_text(str(n))
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=repo, check=True)
        time.sleep(1.2)  # the files a second old, as in a run
        ws = open_workspace(repo, "d/prompt.md")

        def timed(module: object, times: int = 2000) -> float:
            best = float("inf")
            for _ in range(3):
                if fresh:
                    os.utime(repo / ".git/index")
                started = time.process_time()
                for _ in range(times):
                    module.converts(ws.lib, ws.root, repo / ".git", ws.artifact, None, lambda: False)  # type: ignore[attr-defined]
                best = min(best, (time.process_time() - started) / times)
            return best * 1e6

        for _ in range(3):
            was, now = timed(before), timed(after)
            state = "index just written" if fresh else "settled"
            print(f"{files} files, {state}: before {was:.1f} us, after {now:.1f} us of CPU a call ({now / was:.2f}x)")


if __name__ == "__main__":
    main()
