"""The sandbox's throwaway checkout put back to HEAD (`Throwaway.take`), alone: its CPU a KEEP and a DROP.

In bench/loop_overhead.py the put-back is one phase among twenty, and its time drifts with everything else
the machine does. Here a repository like the loop bench's (a few files, the artifact a small file at the
top) is made, left a second and a half so that its configuration files count as settled (as a user's
have long been: autoresearch.optimizer.gitrepo.gitconfig), and each cycle writes a candidate in the
checkout, then either commits one in the user's checkout (a KEEP: HEAD moves, in-process through pygit2)
or not (a DROP), then times `take`. Prints the CPU of a take after each, split into the user's (the
put-back's own work, in Python and libgit2) and the system's (the kernel's: mostly the artifact's new file,
whose cost on ext4 varies tenfold with where its folder's inodes lie, so between two temporary folders
alike), the mean over a round, the median and spread over `--rounds` rounds of `--cycles` cycles.
Usage: python bench/putback.py [--cycles N] [--rounds R]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pygit2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo.throwaway import Throwaway  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402

FILES = {"prompt.md": "line\n", "README.md": "a bench\n", "src/a.py": "x = 1\n", "src/b.py": "y = 2\n"}


def make_repo(root: Path) -> Path:
    root.mkdir()
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qm", "i"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def keep(repo: pygit2.Repository, text: str) -> None:
    """A KEEP's commit of the artifact, HEAD moved (the user's index is not the put-back's concern)."""
    head = repo.head.peel(pygit2.Commit)
    builder = repo.TreeBuilder(head.tree)
    builder.insert("prompt.md", repo.create_blob(text.encode()), pygit2.GIT_FILEMODE_BLOB)
    who = pygit2.Signature("b", "b@e")
    repo.create_commit("HEAD", who, who, "keep", builder.write(), [head.id])


def one_round(cycles: int) -> dict[str, tuple[float, float]]:
    """The mean user and system CPU of a take after a KEEP and after a DROP, in seconds."""
    times = {"KEEP": [0.0, 0.0], "DROP": [0.0, 0.0]}
    with tempfile.TemporaryDirectory() as folder:
        root = make_repo(Path(folder) / "r")
        time.sleep(1.5)  # the configuration settled, as a user's is
        main = open_workspace(root, "prompt.md")
        throwaway = Throwaway(main, root / "results" / ".exp")
        ws = throwaway.take()
        for cycle in range(cycles):
            text = "line\n" * (cycle + 2)
            ws.artifact_path.write_text(text)
            kind = "KEEP" if cycle % 2 else "DROP"
            if kind == "KEEP":
                keep(main.lib, text)
            before = resource.getrusage(resource.RUSAGE_SELF)
            ws = throwaway.take()
            after = resource.getrusage(resource.RUSAGE_SELF)
            times[kind][0] += after.ru_utime - before.ru_utime
            times[kind][1] += after.ru_stime - before.ru_stime
        throwaway.drop()
    return {kind: (user / (cycles / 2), system / (cycles / 2)) for kind, (user, system) in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds: dict[str, list[tuple[float, float]]] = {"KEEP": [], "DROP": []}
    for _ in range(args.rounds):
        for kind, found in one_round(args.cycles).items():
            rounds[kind].append(found)
    for kind, found in rounds.items():
        user, system = [u * 1e6 for u, _ in found], [s * 1e6 for _, s in found]
        print(
            f"take after a {kind}: user CPU {statistics.median(user):5.0f} us ({min(user):.0f}-{max(user):.0f}), "
            f"system CPU {statistics.median(system):5.0f} us ({min(system):.0f}-{max(system):.0f})"
        )


if __name__ == "__main__":
    main()
