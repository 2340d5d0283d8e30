"""Found by attacking the trust work: the commands autoresearch prints, run verbatim, bring back the
user's bytes and nothing that runs code; nothing a mutator writes hides from the scope guard."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

RUNS = ".autoresearch/runs/exp"


def restore_command(stderr: str) -> str:
    (line,) = [ln for ln in stderr.splitlines() if "restore=" in ln]
    return line.split("restore=", 1)[1].split("  (details in")[0]


def test_the_printed_restore_command_does_not_reinstall_a_hook_or_git_config(tmp_path):
    hook = "printf '#!/bin/sh\\ntouch hooked\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit"
    plan = {
        2: {
            "write": {"prompt.md": scores(a=1), "notes.md": "v2\n"},
            "run": [hook, "git config core.fsmonitor 'touch monitored'"],
        }
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    config_before = (repo / ".git/config").read_bytes()
    done = cli(repo, "run")
    assert iterations(repo)[1]["error_reason"] == "out-of-scope", done.stderr
    subprocess.run(restore_command(done.stderr), shell=True, check=True)  # as printed
    assert (repo / "notes.md").read_text() == "v2\n"  # the work tree's bytes come back
    assert not (repo / ".git/hooks/post-commit").exists()  # git's own files do not
    assert (repo / ".git/config").read_bytes() == config_before
    saved = repo / RUNS / iterations(repo)[1]["run_dir"] / "outside"
    assert "touch hooked" in (saved / "git/.git/hooks/post-commit").read_text()  # kept, for a look
    restore = (saved / "RESTORE.txt").read_text()
    assert ".git/hooks/post-commit" in restore and "run code" in restore


def test_a_nested_repository_a_command_mutator_writes_inside_a_directory_artifact_is_saved_and_removed(tmp_path):
    nested = {
        "prompts/.git/HEAD": "ref: refs/heads/main\n",
        "prompts/.git/config": "[core]\n\tfsmonitor = touch monitored\n",
        "prompts/deep/.git": "gitdir: /tmp\n",
    }
    plan = {
        2: {
            "write": {"prompts/a.md": scores(a=1), **nested},
            "run": ["mkdir -p prompts/.git/objects prompts/.git/refs"],
        },
        3: {"write": {"prompts/a.md": scores(a=1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompts/a.md": scores(a=0), "prompts/b.md": "b 0\n"}, plan)
    done = cli(repo, "run")
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines[1:]] == [("error", "out-of-scope"), ("keep", None)], (
        done.stderr
    )
    assert sorted(p.name for p in (repo / "prompts").rglob("*")) == ["a.md", "b.md"]  # no .git left, anywhere
    assert git(repo, "status", "--porcelain") == ""
    saved = repo / RUNS / lines[1]["run_dir"] / "outside"
    assert "fsmonitor" in (saved / "git/prompts/.git/config").read_text()
    assert "prompts/.git/config" in (saved / "RESTORE.txt").read_text()


def test_an_artifact_named_through_a_symlink_gets_its_commits_and_a_revert_that_reverts(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"real/p.md": scores(a=0)},
        plan,
        config={"artifact": "prompt.md", "eval": {"command": "python3 evals/score.py {run_dir} prompt.md"}},
    )
    (repo / "prompt.md").symlink_to("real/p.md")
    git(repo, "add", "prompt.md")
    git(repo, "commit", "-qm", "the artifact, by another name")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "autoresearch cycle 2" in done.stdout and "no commits" not in done.stdout
    (revert,) = [ln.split("revert: ", 1)[1] for ln in done.stdout.splitlines() if "revert: " in ln]
    subprocess.run(revert, shell=True, cwd=repo, check=True, capture_output=True)
    assert (repo / "real/p.md").read_text() == scores(a=0)


def test_an_eval_script_the_worktree_lacks_is_refused_leaving_no_worktree_or_branch(tmp_path):
    from tests.helpers.scenario import EVAL

    plan = {2: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        plan,
        config={"eval": {"command": "python3 mine/score.py {run_dir} prompt.md"}},
    )
    (repo / "mine").mkdir()
    (repo / "mine/score.py").write_text(EVAL)  # untracked: in the checkout, not in a worktree made from HEAD
    done = cli(repo, "run", "--worktree")
    assert_one_line_error(done, 30, "mine/score.py", "commit")
    assert git(repo, "branch", "--list", "autoresearch/*") == "" and "autoresearch" not in git(repo, "worktree", "list")
    assert not (repo / ".autoresearch").exists()


FORGE_BASELINE = (
    "python3 -c \"import json, glob; f = glob.glob('.autoresearch/runs/exp/*-c0001/index.jsonl')[0]; "
    "rows = [dict(json.loads(l), score=0.0) for l in open(f)]; "
    "open(f, 'w').write(''.join(json.dumps(r) + chr(10) for r in rows))\""
)


def test_a_mutator_that_lowers_the_baseline_s_recorded_scores_gets_nothing_kept_the_next_night(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=0.5) + "\n"}, "run": [FORGE_BASELINE]},
        3: {"write": {"prompt.md": scores(a=0.1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0.5)}, plan, config={"stop": {"max_cycles": 2}})
    first = cli(repo, "run")
    second = cli(repo, "run")  # the next night: the baseline is read back from disk
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines[1:3]] == [
        ("error", "out-of-scope"),
        ("drop", None),
    ], first.stderr + second.stderr
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"  # the worse candidate was not kept
    (baseline,) = (repo / RUNS).glob("*-c0001/index.jsonl")
    assert '"score": 0.5' in baseline.read_text()
    forged = repo / RUNS / lines[1]["run_dir"] / "outside/records/runs/exp" / baseline.parent.name / "index.jsonl"
    assert '"score": 0.0' in forged.read_text()  # what the mutation wrote is kept aside


def test_a_file_name_that_is_not_utf8_is_saved_and_undone_without_a_crash(tmp_path):
    name = os.fsdecode(b"bad\xffname.txt")
    write = "printf new > \"$(printf 'bad\\377name.txt')\" && printf new > \"$(printf 'old\\376.txt')\""
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "run": [write]}, 3: {"write": {"prompt.md": scores(a=1, b=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    tracked = repo / os.fsdecode(b"old\xfe.txt")
    tracked.write_text("mine\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a file whose name is not UTF-8")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines[1:]] == [("error", "out-of-scope"), ("keep", None)]
    assert "bad\\xffname.txt" in lines[1]["error"]
    assert not (repo / name).exists() and tracked.read_text() == "mine\n"
    saved = repo / RUNS / lines[1]["run_dir"] / "outside"
    assert (saved / "files" / name).read_text() == "new"
    assert "\\udcff" in (saved / "RESTORE.txt").read_text()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_background_process_the_mutator_leaves_does_not_live_on_into_the_eval(tmp_path):
    plan = {
        2: {
            "write": {"prompt.md": scores(a=1)},
            "run": ["sleep 120 > /dev/null 2>&1 & echo $! > .autoresearch/child.pid"],
        }
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run")
    pid = int((repo / ".autoresearch/child.pid").read_text())
    try:
        assert done.returncode == 0, done.stderr
        wait_for(lambda: not _alive(pid), timeout=10)
    finally:
        if _alive(pid):
            os.kill(pid, 9)


def test_a_file_whose_name_is_near_the_length_limit_is_restored(tmp_path):
    name = "n" * 250 + ".txt"  # 254 bytes: any suffix makes a name the filesystem refuses
    plan = {2: {"write": {"prompt.md": scores(a=1), name: "mutated\n"}}, 3: {"write": {"prompt.md": scores(a=1, b=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "n*.txt\n"})
    (repo / name).write_text("mine, never committed\n")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [(r["decision"], r.get("error_reason")) for r in iterations(repo)[1:]] == [
        ("error", "out-of-scope"),
        ("keep", None),
    ]
    assert (repo / name).read_text() == "mine, never committed\n"


@pytest.mark.parametrize(
    "spoil",
    [
        "rm -rf .autoresearch/guard/watch && touch .autoresearch/guard/watch",
        "rm -rf .autoresearch/guard && touch .autoresearch/guard",
        "rm -rf .autoresearch/guard && ln -s /tmp .autoresearch/guard",
    ],
)
def test_a_mutator_that_replaces_the_guard_s_folders_with_a_file_is_still_undone(tmp_path, spoil):
    plan = {
        2: {"write": {"prompt.md": scores(a=1), "notes.md": "x\n"}, "run": [spoil]},
        3: {"write": {"prompt.md": scores(a=1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [(r["decision"], r.get("error_reason")) for r in iterations(repo)[1:]] == [
        ("error", "out-of-scope"),
        ("keep", None),
    ]
    assert (repo / "notes.md").read_text() == "v1\n"


@pytest.mark.parametrize("layout", ["file", "directory"])
def test_a_candidate_that_links_out_of_the_artifact_is_never_kept_nor_written_through(tmp_path, layout):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("a 1\n")
    artifact = "prompt.md" if layout == "file" else "prompts/a.md"
    plan = {2: {"run": [f"rm {artifact} && ln -s {outside} {artifact}"]}, 3: {"write": {artifact: "a 1\nb 1\n"}}}
    files = {"prompt.md": scores(a=0)} if layout == "file" else {"prompts/a.md": scores(a=0), "prompts/b.md": "x 0\n"}
    repo = scenario_repo(tmp_path / "r", files, plan)
    done = cli(repo, "run")
    lines = iterations(repo)
    assert [(r["decision"], r.get("error_reason")) for r in lines[1:]] == [("error", "out-of-scope"), ("keep", None)], (
        done.stderr
    )
    assert done.returncode == 0, done.stderr
    assert outside.read_text() == "a 1\n"  # never written through
    assert not (repo / artifact).is_symlink() and (repo / artifact).read_text() == "a 1\nb 1\n"


def test_a_link_out_of_a_directory_artifact_that_is_committed_as_it_is_stays_allowed(tmp_path):
    plan = {2: {"write": {"prompts/a.md": scores(a=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompts/a.md": scores(a=0), "common/c.md": "c 1\n"}, plan)
    (repo / "prompts/c.md").symlink_to("../common/c.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a common prompt, linked in")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]


def test_a_commit_made_during_a_mutation_is_brought_back_by_the_command_the_stop_prints(tmp_path):
    plan = {
        2: {
            "write": {"prompt.md": scores(a=1), "notes.md": "mine, committed meanwhile\n"},
            "run": ["git commit -qm mine -- notes.md"],
        }
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.md": "v1\n"})
    done = cli(repo, "run")
    assert done.returncode == 50, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("autoresearch:")]
    command = line.split("`")[1]
    subprocess.run(command, shell=True, cwd=repo, check=True, capture_output=True)
    assert git(repo, "log", "-1", "--format=%s").strip() == "mine"
    assert (repo / "notes.md").read_text() == "mine, committed meanwhile\n"


def test_when_a_path_cannot_be_put_back_its_earlier_bytes_are_still_written_down(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1), "data/notes.txt": "mutated\n"}, "run": ["chattr +i data"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "data/\n"})
    (repo / "data").mkdir()
    (repo / "data/notes.txt").write_text("mine, never committed\n")
    try:
        done = cli(repo, "run")
    finally:
        subprocess.run(["chattr", "-i", str(repo / "data")], check=True)
    assert done.returncode == 50, done.stderr
    (saved,) = (repo / RUNS).glob("*-c0002/outside")
    assert str(saved / "before") in done.stderr
    assert (saved / "before/data/notes.txt").read_text() == "mine, never committed\n"
