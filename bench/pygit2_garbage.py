"""pygit2's objects the loop leaves for Python's cyclic collector: `bench/loop_overhead.py`'s in-process loop
run with the collector off, its Repository, Branches, CheckoutCallbacks and StrArray objects counted after
the run and after a collection (what the collection freed waited for it, holding libgit2's memory).
`--tree`: the tree whose bench/loop_overhead.py is run (this one by default); the autoresearch measured is the
running Python's (this tree's, installed editable; /tmp/ar-base's wheel with its venv's Python).
Usage: python bench/pygit2_garbage.py [--cycles 100] [--tree PATH]
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from pathlib import Path

KINDS = ("Repository", "Branches", "CheckoutCallbacks", "StrArray")


def counts() -> dict[str, int]:
    found = dict.fromkeys(KINDS, 0)
    for o in gc.get_objects():
        kind = type(o)
        if kind.__name__ in found and "pygit2" in str(getattr(kind, "__module__", "")):
            found[kind.__name__] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]))
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.tree) / "bench"))
    import loop_overhead as lo  # the tree's own: it puts its tree first on the path

    from autoresearch.optimizer import daemonlog
    from autoresearch.optimizer.config import load
    from autoresearch.optimizer.cycle import loop
    from autoresearch.optimizer.startup.opening import open_session

    with tempfile.TemporaryDirectory() as tmp:
        repo, raw = lo.make_repo(Path(tmp) / "loop"), lo.make_repo(Path(tmp) / "raw")
        daemonlog.setup(None, quiet=True)
        session = open_session(load(repo / "autoresearch.yaml", {"stop.max_cycles": args.cycles}), repo)
        watch = lo.Stopwatch()
        session.evaluator = lo.InstantEval(repo / "prompt.md", watch)
        session.mutator = lo.InstantMutator(repo / "prompt.md", raw, watch)
        gc.collect()
        gc.disable()
        loop.run(session)
        after = counts()
        gc.collect()
        left = counts()
        session.close()
    waited = ", ".join(f"{after[k] - left[k]} {k}" for k in KINDS)
    print(f"{args.cycles} cycles: waiting for the collector: {waited}")


if __name__ == "__main__":
    main()
