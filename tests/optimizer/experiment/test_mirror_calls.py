"""A refresh of the mirror makes the folders and links a cycle added and nothing more: no `mkdir` of a folder
that is there before each link, no removal of a temporary link that is not there before each replacement.
What those calls were for still holds: a mirror folder removed since the last look, and a temporary link
left by a refresh cut short, are dealt with when a link meets them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

from autoresearch.optimizer.experiment.mirror import Mirror
from tests.optimizer.experiment.test_mirror import experiment, files

CYCLE = """
run = source / "run-009"
run.mkdir()
(run / "index.jsonl").write_text("9\\n")
(run / "candidate.patch").write_text("+a line\\n")
digest = source / "_autoresearch" / "digest.md"
(source / "_autoresearch" / "digest.md.tmp").write_text("what was tried\\n")
os.replace(source / "_autoresearch" / "digest.md.tmp", digest)  # as an atomic write: a new file under the name
"""


def test_a_refresh_makes_the_new_run_directory_s_folder_alone_and_removes_nothing(tmp_path):
    """Counted by Python's audit events in a process of its own (`os.mkdir` is raised for every mkdir,
    one that fails too; `os.remove` for every unlink)."""
    script = textwrap.dedent(
        f"""
        import os, sys
        from pathlib import Path
        from autoresearch.optimizer.experiment.mirror import Mirror
        from tests.optimizer.experiment.test_mirror import experiment
        source = experiment(Path({str(tmp_path)!r}), 3)
        (source / "_autoresearch" / "digest.md").write_text("nothing yet\\n")
        mirror = Mirror(source, Path({str(tmp_path)!r}) / "vault" / "mirror")
        assert mirror.refresh()
        """
    )
    script += CYCLE + textwrap.dedent(
        """
        calls = []
        hook = lambda event, args: calls.append((event, str(args[0]))) if event in ("os.mkdir", "os.remove") else None
        sys.addaudithook(hook)
        assert mirror.refresh()
        print(calls)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=os.getcwd())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str([("os.mkdir", str(tmp_path / "vault" / "mirror" / "run-009"))])
    root, source = tmp_path / "vault" / "mirror", tmp_path / "exp"
    assert files(root) == files(source)
    for name in ("run-009/index.jsonl", "_autoresearch/digest.md"):
        assert (root / name).stat().st_ino == (source / name).stat().st_ino


def test_a_refresh_links_again_into_a_mirror_folder_removed_and_past_a_temporary_link_left_there(tmp_path):
    source = experiment(tmp_path, 2)
    root = tmp_path / "vault" / "mirror"
    (source / "_autoresearch" / "digest.md").write_text("nothing yet\n")
    mirror = Mirror(source, root)
    assert mirror.refresh()
    (root / "_autoresearch" / ".link.mirror").write_text("left by a refresh cut short\n")
    (source / "_autoresearch" / "digest.md.tmp").write_text("what was tried\n")
    os.replace(source / "_autoresearch" / "digest.md.tmp", source / "_autoresearch" / "digest.md")
    assert mirror.refresh()
    assert (root / "_autoresearch" / "digest.md").read_text() == "what was tried\n"
    assert not (root / "_autoresearch" / ".link.mirror").exists()
    shutil.rmtree(root)  # the whole mirror, which the listing still holds
    (source / "notes.txt").write_text("a file at the top: linked before any folder of the mirror is made\n")
    assert mirror.refresh()
    assert files(root) == files(source)
    (source / "run-001" / "index.jsonl").unlink()
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-001/index.jsonl"]
