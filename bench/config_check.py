"""The CPU of the throwaway checkout's check that libgit2 may check out as git would (issue 34).

`linked.plain` is asked every cycle of a sandboxed mutator, before the checkout is put back: whether a filter
driver or a sparse checkout is configured, or an attributes file names a filter or an encoding. It is timed
alone, `--times` calls at a time, best of five, on a temporary repository whose configuration has `--entries`
more entries than `git init` writes (a user's configuration has dozens), a second old as in a run.
Usage: python bench/config_check.py [--entries N] [--times N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo import linked  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=0)
    parser.add_argument("--times", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        repo.mkdir()
        (repo / "prompt.md").write_text("the artifact\n")
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=repo, check=True)
        with open(repo / ".git" / "config", "a") as config:
            config.write("[alias]\n" + "".join(f"\ta{n} = log --oneline -{n}\n" for n in range(args.entries)))
        main, best = open_workspace(repo, "prompt.md"), float("inf")
        head = main.head()
        time.sleep(1.2)  # the configuration a second old, as it is in a run
        for _ in range(5):
            started = time.process_time()
            for _ in range(args.times):
                linked.plain(main, head)
            best = min(best, (time.process_time() - started) / args.times)
        print(f"linked.plain, {args.entries} more configuration entries: {best * 1e6:.0f} us of CPU a call")


if __name__ == "__main__":
    main()
