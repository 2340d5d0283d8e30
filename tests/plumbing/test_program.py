"""Whether a command can start: the shell's answer, found without a shell where a lookup here is certain."""

import os
from pathlib import Path

from autoresearch.plumbing.program import missing_program


def _executable(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)


def test_a_program_on_an_absolute_path_folder_a_builtin_and_an_unknown_name(tmp_path, monkeypatch):
    _executable(tmp_path / "abs" / "my-eval")
    monkeypatch.setenv("PATH", f"{tmp_path / 'abs'}{os.pathsep}{os.environ['PATH']}")
    assert missing_program("my-eval --json", tmp_path) is None
    assert missing_program("cd somewhere", tmp_path) is None  # a builtin: only the shell knows it
    assert missing_program("no-such-program-here x", tmp_path) == "program 'no-such-program-here' is not on PATH"


def test_a_relative_path_folder_is_read_from_the_command_s_folder_not_this_process_s(tmp_path, monkeypatch):
    """`PATH=bin:...`: the shell that runs the command resolves `bin` in the command's folder."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    _executable(repo / "bin" / "local-eval")
    _executable(elsewhere / "bin" / "stray-eval")
    monkeypatch.setenv("PATH", f"bin{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(elsewhere)
    assert missing_program("local-eval", repo) is None
    assert missing_program("stray-eval", repo) == "program 'stray-eval' is not on PATH"
