"""The daemon's writes into its results folder make no `mkdir` while the folder is there, and make it again
when a mutator removed it (`rm -rf .autoresearch`, `git clean -ffdx`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from autoresearch.plumbing import atomic
from autoresearch.trajectory.iterations import Iteration, append, read


def test_writes_into_a_removed_folder_make_it_again(tmp_path):
    results = tmp_path / ".autoresearch" / "runs" / "x" / "_autoresearch"
    atomic.write_text(results / "state.json", "{}")
    append(results / "iterations.jsonl", Iteration(cycle=1, score=0.5, decision="keep"))
    subprocess.run(["rm", "-rf", str(tmp_path / ".autoresearch")], check=True)
    atomic.write_text(results / "state.json", '{"again": 1}')
    append(results / "iterations.jsonl", Iteration(cycle=2, score=0.6, decision="keep"))
    assert (results / "state.json").read_text() == '{"again": 1}'
    assert [r.cycle for r in read(results / "iterations.jsonl")[0]] == [2]


def test_writes_into_a_folder_that_exists_make_no_mkdir(tmp_path):
    """Counted by Python's audit events in a process of its own: `os.mkdir` is raised for every mkdir."""
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from autoresearch.plumbing import atomic
        from autoresearch.trajectory.iterations import Iteration, append
        results = Path({str(tmp_path)!r}) / "_autoresearch"
        atomic.write_text(results / "state.json", "{{}}")
        made = []
        sys.addaudithook(lambda event, args: made.append(args[0]) if event == "os.mkdir" else None)
        for i in range(3):
            atomic.write_text(results / "state.json", "{{}}")
            append(results / "iterations.jsonl", Iteration(cycle=i + 1, score=0.5, decision="drop"))
        print(len(made))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"
