"""The throwaway checkout made, read and removed in-process (autoresearch.optimizer.gitrepo.linked and
`everything_changed`) is what git's commands make and say, and a sandboxed cycle starts one git process."""

from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from autoresearch.optimizer.gitrepo import candidates, linked
from autoresearch.optimizer.gitrepo.status import _porcelain_status, everything_changed
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import cli, git, make_repo

EVAL = """printf '{"test_id": "t", "score": %s}\\n' "$(awk 'END {print NR / 8}' prompt.md)" > {run_dir}/index.jsonl"""
FILES = {"prompt.md": "p\n", "docs/a.md": "a\n", "run.sh": "echo hi\n", ".gitignore": "ign/\n*.log\n"}


def test_a_worktree_made_in_process_reads_as_one_git_made(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    os.symlink("prompt.md", repo / "link.md")
    git(repo, "add", "link.md")
    git(repo, "commit", "-qm", "a link")
    main = open_workspace(repo, "prompt.md")
    ours, theirs = tmp_path / "ours" / "0", tmp_path / "theirs" / "0"
    assert linked.add(main, ours, main.head())
    git(repo, "worktree", "add", "--quiet", "--detach", str(theirs), main.head())
    assert git(ours, "status", "--porcelain", "--ignored", "--untracked-files=all") == ""
    assert f"worktree {ours}\nHEAD {main.head()}\ndetached" in git(repo, "worktree", "list", "--porcelain")
    assert _tree(ours) == _tree(theirs)
    assert linked.remove(main, ours)
    assert not ours.exists()
    assert str(ours) not in git(repo, "worktree", "list", "--porcelain")
    assert git(repo, "worktree", "prune", "--dry-run", "--verbose") == ""  # no record left behind
    assert git(repo, "fsck") == ""


def test_worktrees_of_one_folder_name_made_at_once_each_get_a_record_of_their_own(tmp_path):
    """The next cycle's candidates are made while this cycle's are evaluated: `<cycle>/0` beside `<cycle+1>/0`."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    paths = [tmp_path / str(n) / "0" for n in range(4)]
    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(lambda path: linked.add(main, path, main.head()), paths))
    listed = git(repo, "worktree", "list", "--porcelain")
    assert all(f"worktree {path}\n" in listed for path in paths)
    assert all(linked.remove(main, path) for path in paths)
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_filter_or_an_encoding_leaves_the_checkout_to_git(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    git(repo, "config", "filter.lfs.smudge", "git-lfs smudge -- %f")
    assert not linked.add(main, tmp_path / "w" / "0", main.head())
    git(repo, "config", "--unset", "filter.lfs.smudge")
    (repo / "docs" / ".gitattributes").write_text("*.txt working-tree-encoding=UTF-16\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "an encoding")
    assert not linked.add(main, tmp_path / "w" / "0", main.head())
    assert not (tmp_path / "w" / "0").exists()
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_filter_configured_in_a_file_named_by_the_environment_leaves_the_checkout_to_git(tmp_path, monkeypatch):
    """`GIT_CONFIG_GLOBAL` names the user's configuration file for git, not for libgit2, which read only
    ~/.gitconfig: a filter driver configured there (git-lfs's, as CI steps install it) was not seen, and the
    worktree was checked out in-process without it."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    told = tmp_path / "told.gitconfig"
    told.write_text('[filter "lfs"]\n\tsmudge = git-lfs smudge -- %f\n')
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(told))
    assert linked.plain(main, main.head()) is None
    assert not linked.add(main, tmp_path / "w" / "0", main.head())
    monkeypatch.delenv("GIT_CONFIG_GLOBAL")
    assert linked.plain(main, main.head()) is not None


def test_a_worktree_whose_git_file_was_changed_is_left_to_git(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    path = tmp_path / "w" / "0"
    assert linked.add(main, path, main.head())
    (path / ".git").write_text(f"gitdir: {repo / '.git'}\n")  # a mutator pointing it at the user's repository
    assert not linked.remove(main, path)
    assert (repo / ".git" / "HEAD").exists()


def test_a_git_file_linked_to_another_worktrees_leaves_that_worktrees_record_alone(tmp_path):
    """A mutator replacing its .git by a link to the user's own linked worktree's .git: that .git names its
    record, and the record names that path back, so the record was removed with the staged work in it."""
    repo = make_repo(tmp_path / "r", FILES)
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "feature"))
    (tmp_path / "feature" / "docs" / "a.md").write_text("staged work\n")
    git(tmp_path / "feature", "add", "docs/a.md")
    main = open_workspace(repo, "prompt.md")
    meta = repo / "results" / ".exp"
    [throwaway] = candidates.make(main, meta, "7-sandboxed", 1)
    (throwaway.root / ".git").unlink()
    (throwaway.root / ".git").symlink_to(tmp_path / "feature" / ".git")
    assert not linked.remove(main, throwaway.root)
    candidates.clear(main, meta, "7-sandboxed")
    assert git(tmp_path / "feature", "status", "--porcelain") == "M  docs/a.md\n"
    assert f"worktree {tmp_path / 'feature'}\n" in git(repo, "worktree", "list", "--porcelain")


def test_a_worktree_that_cannot_be_made_in_process_leaves_no_record(tmp_path):
    """A folder already there, or one that cannot be made: git's record was left, and a second one beside it
    for the same path, which `git worktree prune` then removed as a duplicate: the live one."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    (tmp_path / "taken").mkdir()
    (tmp_path / "a-file").write_text("x")
    assert not linked.add(main, tmp_path / "taken", main.head())
    assert not linked.add(main, tmp_path / "a-file" / "0", main.head())
    assert not (repo / ".git" / "worktrees").exists() or not any((repo / ".git" / "worktrees").iterdir())


def test_a_new_file_beside_files_added_despite_an_ignore_rule_is_named_as_git_names_it(tmp_path):
    """libgit2's status leaves out a new file in an ignored folder whose files were added with `-f`."""
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "ign").mkdir()
    (repo / "ign" / "tracked").write_text("t\n")
    git(repo, "add", "-f", "ign/tracked")
    git(repo, "commit", "-qm", "a file added despite the rule")
    (repo / "ign" / "new").write_text("n\n")
    ws = open_workspace(repo, "prompt.md")
    assert everything_changed(ws)["ign/new"] == "!!"
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored")


def test_everything_changed_names_what_git_status_names(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "prompt.md").write_text("changed\n")
    (repo / "docs" / "a.md").unlink()
    (repo / "run.sh").chmod(0o644)
    for relative in ("ign/deep/f", "ign/g", "x.log", "new/deeper/n", "new/y.log", "docs/build.log"):
        (repo / relative).parent.mkdir(parents=True, exist_ok=True)
        (repo / relative).write_text("x\n")
    os.symlink("/etc", repo / "ign" / "etc")
    (repo / "ign" / "empty").mkdir()
    make_repo(repo / "ign" / "nested", {"z": "z\n"})
    make_repo(repo / "nested", {"z": "z\n"})
    ws = open_workspace(repo, "prompt.md")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored")
    assert everything_changed(ws)["ign/deep/f"] == "!!"


def test_a_sandboxed_cycle_starts_one_git_process(tmp_path):
    """A command mutator works in a throwaway checkout each cycle: made, checked and removed in-process,
    the commit of the KEEP is the cycle's one git process (there were seven)."""
    wrapper = tmp_path / "bin"
    wrapper.mkdir()
    log = tmp_path / "git.log"
    real = shutil.which("git")
    (wrapper / "git").write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (wrapper / "git").chmod(0o755)
    counts = []
    for cycles in (2, 6):
        repo = make_repo(tmp_path / f"r{cycles}", {"prompt.md": "p\n"})
        config = {
            "artifact": "prompt.md",
            "eval": {"command": EVAL},
            "mutator": {"provider": "command", "command": 'echo more >> "$AUTORESEARCH_ARTIFACT"', "sandbox": "on"},
            "stop": {"max_cycles": cycles, "max_convergence": 0},
        }
        (repo / "autoresearch.yaml").write_text(json.dumps(config))
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "config")
        log.write_text("")
        done = cli(repo, "run", env={"PATH": f"{wrapper}{os.pathsep}{os.environ['PATH']}"})
        assert done.returncode == 0, done.stderr
        assert git(repo, "rev-list", "--count", "HEAD").strip() == str(2 + cycles - 1)  # every mutation kept
        counts.append(sum("core.hooksPath=/dev/null" in line for line in log.read_text().splitlines()))
    assert (counts[1] - counts[0]) / 4 <= 1, counts


def _tree(root: Path) -> dict[str, tuple[int, bytes]]:
    found = {}
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            if name == ".git":  # the file naming git's folder for it: `0` for the first, `01` for the second
                continue
            path = Path(directory) / name
            content = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
            found[path.relative_to(root).as_posix()] = (path.lstat().st_mode, content)
    return found
