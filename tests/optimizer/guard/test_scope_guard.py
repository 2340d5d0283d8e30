"""The scope guard: whatever changed outside the artifact during a mutation is saved, then undone,
and can never make a candidate look better than it is."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

RUNS = ".autoresearch/runs/exp"
WATCH_MODES = pytest.mark.parametrize("watch", ["inotify", "stat-walk"])


def run_env(watch: str) -> dict:
    return {"AUTORESEARCH_GUARD_POLL": "1"} if watch == "stat-walk" else {}


def saved_dir(repo, line) -> object:
    return repo / RUNS / line["run_dir"] / "outside"


@WATCH_MODES
def test_the_users_edits_during_a_mutation_are_saved_before_they_are_undone(tmp_path, watch):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV, **run_env(watch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / ".autoresearch/mutating").exists())
    (repo / "notes.md").write_text("v2, typed while the mutation ran\n")
    (repo / "todo.txt").write_text("a new file of mine\n")
    (repo / ".autoresearch/go-on").touch()
    _, err = proc.communicate(timeout=60)
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    assert (repo / "notes.md").read_text() == "v1\n" and not (repo / "todo.txt").exists()
    saved = saved_dir(repo, line)
    assert (saved / "files/notes.md").read_text() == "v2, typed while the mutation ran\n"
    assert (saved / "files/todo.txt").read_text() == "a new file of mine\n"
    assert str(saved) in err and "cp -a" in err
    assert str(saved) in (repo / RUNS / "_autoresearch/daemon.log").read_text()
    git(repo, "apply", str(saved / "tracked.patch"))  # the patch brings the tracked edit back
    assert (repo / "notes.md").read_text() == "v2, typed while the mutation ran\n"
    subprocess.run(f"cp -a {saved}/files/. ./", shell=True, cwd=repo, check=True)  # as RESTORE.txt says
    assert (repo / "todo.txt").read_text() == "a new file of mine\n"


@pytest.mark.parametrize(
    "command",
    [
        "git add -A",
        "git stash",
        "git reset --hard",
        "git stash && git stash drop",
        "git stash && git stash drop && git gc -q --prune=now",
    ],
)
def test_a_mutator_running_git_does_not_lose_the_users_staged_version(tmp_path, command):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [command]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    (repo / "notes.md").write_text("staged\n")
    git(repo, "add", "notes.md")
    (repo / "notes.md").write_text("staged, then edited\n")
    (repo / "mine.txt").write_text("untracked\n")
    staged_before = git(repo, "ls-files", "--stage")
    refs_before = git(repo, "for-each-ref")
    cli(repo, "run")
    assert iterations(repo)[1]["error_reason"] == "out-of-scope"
    assert git(repo, "ls-files", "--stage") == staged_before
    assert git(repo, "show", ":notes.md") == "staged\n"
    assert (repo / "notes.md").read_text() == "staged, then edited\n"
    assert (repo / "mine.txt").read_text() == "untracked\n"
    assert git(repo, "for-each-ref") == refs_before  # no stash left behind
    assert git(repo, "stash", "list") == ""


GAMED_EVAL = r"""
import json, sys
from pathlib import Path
rows = [l.split() for l in Path("prompt.md").read_text().splitlines() if l.strip()]
bonus = float(Path("cache/bonus.txt").read_text())  # an ignored file the eval reads
with open(Path(sys.argv[1], "index.jsonl"), "w") as out:
    for test, score in rows:
        out.write(json.dumps({"test_id": test, "score": min(1.0, float(score) + bonus)}) + "\n")
"""


@WATCH_MODES
def test_an_ignored_file_the_eval_reads_cannot_get_a_candidate_kept(tmp_path, watch):
    plan = {2: {"write": {"prompt.md": scores(a=0, b=0) + "\n", "cache/bonus.txt": "1\n", ".env": "TOKEN=stolen\n"}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        plan,
        config={"eval": {"command": "python3 evals/gamed.py {run_dir}"}},
        extra_files={"evals/gamed.py": GAMED_EVAL, ".gitignore": "cache/\n.env\n"},
    )
    (repo / "cache").mkdir()
    (repo / "cache/bonus.txt").write_text("0\n")
    (repo / ".env").write_text("TOKEN=mine\n")
    done = cli(repo, "run", env=run_env(watch))
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope"), done.stderr
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"  # nothing kept
    assert (repo / "cache/bonus.txt").read_text() == "0\n"
    assert (repo / ".env").read_text() == "TOKEN=mine\n"
    assert (saved_dir(repo, line) / "files/.env").read_text() == "TOKEN=stolen\n"


@pytest.mark.parametrize("worktree", [False, True], ids=["checkout", "worktree"])
def test_hooks_and_git_config_written_during_a_mutation_are_saved_and_removed(tmp_path, worktree):
    hooks = "$(git rev-parse --git-common-dir)/hooks"
    hook = f"printf '#!/bin/sh\\ntouch hooked\\n' > {hooks}/post-commit && chmod +x {hooks}/post-commit"
    plan = {
        2: {"write": {"prompt.md": scores(a=1)}, "run": [hook, "git config core.fsmonitor 'touch monitored'"]},
        3: {"write": {"prompt.md": scores(a=1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, config={"worktree": worktree})
    config_before = (repo / ".git/config").read_bytes()
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines[1:]] == [("error", "out-of-scope"), ("keep", None)]
    assert not (repo / ".git/hooks/post-commit").exists()
    assert (repo / ".git/config").read_bytes() == config_before
    assert not list(repo.rglob("hooked")) and not list(repo.rglob("monitored"))  # cycle 3's commit ran no hook
    saved = saved_dir(repo, lines[1])
    assert "touch hooked" in (saved / "git/.git/hooks/post-commit").read_text()
    assert "fsmonitor" in (saved / "git/.git/config").read_text()


def test_a_worktrees_git_dir_touched_and_replaced_by_a_copy_stays_guarded(tmp_path):
    """A worktree's own git dir is a root whose parent nothing watches: a mutator that touched it, moved it
    away and put a copy in its place (no change to undo) left its watch on the one moved away (the move's
    event, which bore the touch's empty name, was dropped as its repeat), and what a later mutation wrote in
    the copy went unseen."""
    replace = (
        'd=$(git rev-parse --git-dir) && cp -a "$d" "$d.copy" && touch "$d" && mv "$d" "$d.old" && mv "$d.copy" "$d"'
    )
    plan = {
        2: {"write": {"prompt.md": scores(a=1)}, "run": [replace]},
        3: {"write": {"prompt.md": scores(a=2)}, "run": ['echo planted > "$(git rev-parse --git-dir)/planted"']},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, config={"worktree": True})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    decisions = [(r["decision"], r.get("error_reason")) for r in iterations(repo)[1:]]
    assert decisions == [("keep", None), ("error", "out-of-scope")]
    assert not list((repo / ".git/worktrees").glob("*/planted"))


FORGE = r"""
import hashlib, json, pathlib
data = pathlib.Path("prompt.md").read_bytes()
oid = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
for folder in pathlib.Path(".autoresearch/cache").iterdir():
    if folder.is_dir():
        rows = "".join(json.dumps({"test_id": t, "score": 1.0}) + "\n" for t in ("a", "b"))
        (folder / f"{oid}-sample-1.jsonl").write_text(rows)
"""


def test_results_a_mutator_writes_into_the_cache_are_never_used(tmp_path):
    forge = {
        "prompt.md": scores(a=0, b=0),
        ".autoresearch/forge.py": FORGE,
    }  # the script itself sits where the guard does not look
    plan = {2: {"write": forge, "run": ["python3 .autoresearch/forge.py"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=1)}, plan)
    cli(repo, "run")
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"
    assert not list((repo / ".autoresearch/cache").glob("*/*-sample-1.jsonl"))
    assert [entries(log) for log in (repo / ".autoresearch/cache").glob("*/entries.log")] == [1]  # the original's


def entries(log) -> int:
    return sum(1 for line in log.read_bytes().split(b"\n") if line)


SIGNED = r"""
import hashlib, hmac, json, pathlib
data = pathlib.Path("prompt.md").read_bytes()
oid = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
cache = pathlib.Path(".autoresearch/cache")
secret = (cache / "key").read_bytes()
for folder in cache.iterdir():
    if folder.is_dir():
        body = "\t".join(json.dumps({"test_id": t, "score": 1.0}) for t in ("a", "b")).encode()
        message = f"autoresearch-cache-v3\n{folder.name}\n{oid}\n1\n".encode() + body
        mac = hmac.new(secret, message, hashlib.sha256).hexdigest()
        header = {"format": "autoresearch-cache-v3", "artifact": oid, "n": 1, "mac": mac}
        with open(folder / "entries.log", "ab") as log:
            log.write(b"\n" + json.dumps(header).encode() + b"\t" + body + b"\n")
"""


@WATCH_MODES
def test_a_signed_entry_a_mutator_appends_to_the_log_is_cut_back_and_the_earlier_entries_stay(tmp_path, watch):
    """A mutator can read the cache's key and append a validly signed entry for its own candidate: the
    candidate is dropped, the log cut back to its settled length, and HEAD's entry before it still hits."""
    forge = {"prompt.md": scores(a=0, b=0), ".autoresearch/forge.py": SIGNED}
    plan = {2: {"write": forge, "run": ["python3 .autoresearch/forge.py"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=0)}, plan)
    assert cli(repo, "run", env=run_env(watch)).returncode == 10  # no KEEP
    (log,) = (repo / ".autoresearch/cache").glob("*/entries.log")
    assert entries(log) == 1  # HEAD's
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    assert any("entries.log" in path for path in json.dumps(line).split('"'))
    again = cli(repo, "run", "--restart", env=run_env(watch))
    assert again.returncode == 10, again.stderr
    assert iterations(repo)[0].get("cache_hits") == 1


def test_an_edited_cache_entry_is_evaluated_again_not_trusted(tmp_path):
    candidate = scores(a=0, b=0)
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0.5, b=0.5)}, {2: {"write": {"prompt.md": candidate}}})
    assert cli(repo, "run").returncode == 10
    assert iterations(repo)[1]["decision"] == "drop"
    oid = hashlib.sha1(b"blob %d\0" % len(candidate) + candidate.encode()).hexdigest()
    (log,) = (repo / ".autoresearch/cache").glob("*/entries.log")
    lines = log.read_bytes().split(b"\n")
    (at,) = [i for i, line in enumerate(lines) if oid.encode() in line]
    header, *rows = lines[at].split(b"\t")  # every score made perfect, the signed header kept
    lines[at] = b"\t".join([header, *(json.dumps({**json.loads(r), "score": 1.0}).encode() for r in rows)])
    log.write_bytes(b"\n".join(lines))
    again = cli(repo, "run", "--restart")
    assert again.returncode == 10, again.stderr
    line = iterations(repo)[1]
    assert (line["score"], line["decision"], line.get("cache_hits")) == (0.0, "drop", None)


def test_edits_made_while_the_eval_runs_are_the_users_and_stay(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0) + "WAITGATE\n"}}, 3: {"write": {"prompt.md": scores(a=1, b=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan, extra_files={"notes.md": "v1\n"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / "waiting").exists())
    (repo / "notes.md").write_text("v2, typed while the eval ran\n")
    (repo / "gate").touch()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "keep"]
    assert (repo / "notes.md").read_text() == "v2, typed while the eval ran\n"


def test_a_directory_swapped_for_a_symlink_comes_back_whole(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": ["rm -rf vendor && ln -s /tmp vendor"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "vendor/\n"})
    for n in range(30):
        (repo / "vendor" / f"lib{n % 3}").mkdir(parents=True, exist_ok=True)
        (repo / "vendor" / f"lib{n % 3}" / f"f{n}.js").write_text(f"{n}\n")
    (repo / "vendor/lib0/run.sh").write_text("#!/bin/sh\n")
    (repo / "vendor/lib0/run.sh").chmod(0o755)
    cli(repo, "run")
    assert iterations(repo)[1]["error_reason"] == "out-of-scope"
    assert (repo / "vendor").is_dir() and not (repo / "vendor").is_symlink()
    assert sorted(p.name for p in (repo / "vendor").rglob("*.js")) == sorted(f"f{n}.js" for n in range(30))
    assert (repo / "vendor/lib1/f1.js").read_text() == "1\n"
    assert os.access(repo / "vendor/lib0/run.sh", os.X_OK)


def test_a_mutator_that_commits_stops_the_run_with_the_branch_put_back(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": ["git commit -qam sneaky"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo, "run")
    assert done.returncode == 50, done.stderr
    assert "HEAD moved during the mutation" in done.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain").strip() == ""
    (saved,) = (repo / RUNS).glob("*-c0002/outside")
    sneaky = (saved / "git/.git/refs/heads/main").read_text().strip()
    assert git(repo, "log", "-1", "--format=%s", sneaky).strip() == "sneaky"  # the commit itself is kept


def test_tool_caches_a_mutator_leaves_are_removed_without_dropping_its_candidate(tmp_path):
    run_tests = "python3 -c 'import helper' && mkdir -p .pytest_cache/v && echo 1 > .pytest_cache/v/lastfailed"
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [run_tests]}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        plan,
        extra_files={"helper.py": "X = 1\n", ".gitignore": "__pycache__/\n.pytest_cache/\n"},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert not (repo / "__pycache__").exists() and not (repo / ".pytest_cache").exists()


def test_an_index_refreshed_during_a_mutation_with_nothing_new_staged_is_no_change(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / ".autoresearch/mutating").exists())
    index_before = (repo / ".git/index").read_bytes()
    os.utime(repo / "notes.md", (1, 1))  # what `git status` in another terminal does: refresh the stat cache
    git(repo, "update-index", "-q", "--refresh")
    assert (repo / ".git/index").read_bytes() != index_before
    (repo / ".autoresearch/go-on").touch()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]


@pytest.mark.parametrize("command", ["git checkout -q -b elsewhere", "git checkout -q --detach"])
def test_a_branch_switch_during_a_mutation_is_undone_and_stops_the_run(tmp_path, command):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [command]}, 3: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr  # issue 13 item 4: put the user back, then stop
    assert [r["decision"] for r in iterations(repo)] == ["keep"]
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(repo, "branch", "--list").split() == ["*", "main"]  # the branch it made is undone too (saved first)
    assert git(repo, "status", "--porcelain").strip() == ""


def test_a_large_file_written_in_place_is_put_back_whole_and_the_mutations_bytes_kept(tmp_path):
    scribble = "python3 -c \"f = open('data/big.bin', 'r+b'); f.write(b'mutated'); f.close()\""
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [scribble]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "data/\n"})
    (repo / "data").mkdir()
    original = os.urandom(17 << 20)  # over 16 MiB, ignored: neither in git nor in the guard's memory
    (repo / "data/big.bin").write_bytes(original)

    done = cli(repo, "run")

    assert (repo / "data/big.bin").read_bytes() == original, done.stderr  # in its place, every byte
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    saved = saved_dir(repo, line)
    assert (saved / "files/data/big.bin").read_bytes()[:7] == b"mutated"  # the mutation's bytes are kept too
    assert str(saved) in done.stderr and "before" not in done.stderr


def test_a_file_whose_backup_was_tampered_with_is_reported_with_only_paths_that_exist(tmp_path):
    tamper = (
        "python3 -c \"import pathlib; [p.write_bytes(b'forged') for p in pathlib.Path('.git/autoresearch')"
        ".glob('*/guard/objects/*/*') if p.is_file()]; f = open('data/mid.bin', 'r+b'); f.write(b'mutated'); f.close()\""
    )
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [tamper]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "data/\n"})
    (repo / "data").mkdir()
    (repo / "data/mid.bin").write_bytes(os.urandom(9 << 20))  # over 8 MiB: its backup is a copy on disk

    done = cli(repo, "run")

    assert done.returncode == 50, done.stderr
    message = next(ln for ln in done.stderr.splitlines() if "could not restore" in ln)
    named = [word.rstrip(",;") for word in message.split() if word.startswith("/")]
    assert named and all(os.path.exists(path) for path in named), message


PLANTED_GIT = {  # what a command mutator can leave inside a directory artifact for git to take as a repository
    "a repository whose fsmonitor runs a command": {
        "run": ["git init -q skill && git -C skill config core.fsmonitor 'touch monitored'"]
    },
    "a gitfile": {"write": {"skill/.git": "gitdir: ../.git\n"}},
    "a nested repository": {"run": ["git init -q skill/sub && echo 'c 1' > skill/sub/c.md"]},
    "a .git in another case": {"write": {"skill/deep/.GIT/config": "[core]\n\tfsmonitor = touch monitored\n"}},
}


@pytest.mark.parametrize("planted", PLANTED_GIT.values(), ids=PLANTED_GIT)
def test_a_git_path_a_command_mutator_creates_inside_a_directory_artifact_is_out_of_scope_saved_and_removed(
    tmp_path, planted
):
    plan = {
        2: {
            "write": {"skill/a.md": "a 1\n", **planted.get("write", {})},
            "run": planted.get("run", []),
            "summary": "fix a",
        },
        3: {"write": {"skill/b.md": "b 1\n"}, "summary": "fix b"},
    }
    repo = scenario_repo(tmp_path / "r", {"skill/a.md": "a 0\n", "skill/b.md": "b 0\n"}, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines] == [
        ("keep", None),
        ("error", "out-of-scope"),
        ("keep", None),
    ]
    assert not [p for p in (repo / "skill").rglob("*") if ".git" in p.relative_to(repo).as_posix().lower()]
    assert git(repo, "ls-tree", "-r", "--name-only", "HEAD", "skill").split() == ["skill/a.md", "skill/b.md"]
    assert "160000" not in git(repo, "ls-tree", "-r", "HEAD")  # no gitlink committed
    assert (repo / "skill/a.md").read_text() == "a 0\n" and (repo / "skill/b.md").read_text() == "b 1\n"
    git(repo / "skill", "status")  # the user's next git status there runs nothing the mutator configured
    assert not list(repo.rglob("monitored"))
    saved = saved_dir(repo, lines[1])
    assert any(".git" in p.as_posix().lower() for p in (saved / "git/skill").rglob("*"))  # .git paths are kept apart
    assert "skill/" in (saved / "RESTORE.txt").read_text()
