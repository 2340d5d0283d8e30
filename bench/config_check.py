"""The CPU of the configuration checks the loop makes every cycle (issue 34).

`linked.plain` is asked every cycle of a sandboxed mutator, before the checkout is put back: whether a filter
driver or a sparse checkout is configured, or an attributes file names a filter or an encoding. With
`--direct`, the gate before each in-process commit and restore is timed instead (`direct`): the
environment's GIT_* names, the configuration, the folders on the artifact's path and, where an attributes
file exists, whether an attribute converts the artifact (libgit2 asked for five names). Each is timed
alone, `--times` calls at a time, best of five, on a temporary repository whose configuration has
`--entries` more entries than `git init` writes (a user's configuration has dozens), a second old as in a
run; with `--attributes`, a `.gitattributes` that converts nothing is committed beside the artifact.
Usage: python bench/config_check.py [--entries N] [--times N] [--direct] [--attributes]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo import direct, linked  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=0)
    parser.add_argument("--times", type=int, default=1000)
    parser.add_argument("--direct", action="store_true", help="the in-process writes' gate")
    parser.add_argument("--attributes", action="store_true", help="a .gitattributes beside the artifact")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        (repo / "d").mkdir(parents=True)
        (repo / "d" / "prompt.md").write_text("the artifact\n")
        if args.attributes:
            (repo / ".gitattributes").write_text("*.md -text\n")
        for git in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "x"]):
            subprocess.run(["git", *git], cwd=repo, check=True)
        with open(repo / ".git" / "config", "a") as config:
            config.write("[alias]\n" + "".join(f"\ta{n} = log --oneline -{n}\n" for n in range(args.entries)))
        main, best = open_workspace(repo, "d/prompt.md"), float("inf")
        head = main.head()
        time.sleep(1.2)  # the configuration a second old, as it is in a run
        check = (lambda: direct._settings(main)) if args.direct else (lambda: linked.plain(main, head))
        if check() is None:
            raise SystemExit("the repository asks for git itself: nothing to time")
        for _ in range(5):
            started = time.process_time()
            for _ in range(args.times):
                check()
            best = min(best, (time.process_time() - started) / args.times)
        what = "direct's gate" if args.direct else "linked.plain"
        attributes = ", a .gitattributes" if args.attributes else ""
        print(f"{what}, {args.entries} more configuration entries{attributes}: {best * 1e6:.0f} us of CPU a call")


if __name__ == "__main__":
    main()
