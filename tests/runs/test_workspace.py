"""AgentV workspaces under attack: a template's `.git` and symlinks, odd test ids, hooks that hang or are killed
with the runner, repos from local sources and unreachable ones, and the blocks `validate` must refuse.

Scores and statuses against the real AgentV are in tests/runs/compat/workspace; these tests hold what
AgentV's parity cannot show: that nothing a workspace does reaches the user's repository, and that nothing
it starts outlives its timeout.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator, prepare
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import EvalRun, RunOptions
from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git, make_repo

AGENT = """\
import os, sys
test_id, output = sys.argv[1:3]
with open(f"made-by-{test_id.replace('/', '_')}.txt", "w") as f:
    f.write("agent")
for name in ("link", "up/escaped.txt"):
    try:
        with open(name, "w") as f:
            f.write("pwned")
    except OSError:
        pass
with open(output, "w") as f:
    f.write(os.getcwd() + "\\n" + ",".join(sorted(os.listdir("."))))
"""
HANG = """\
import json, subprocess, sys, time
workspace = json.load(sys.stdin)["workspace_path"]
child = subprocess.Popen(["sleep", "600"])
with open(sys.argv[1], "w") as f:
    f.write(f"{child.pid} {workspace}\\n")
time.sleep(600)
"""


def project(
    tmp_path: Path, workspace: dict, tests: list[dict] | None = None, execution: dict | None = None
) -> tuple[Path, Path]:
    """A user's repository (committed, clean) with an eval that uses `workspace`; returns (repo, eval file)."""
    repo = make_repo(
        tmp_path / "repo", {"secret.txt": "original\n", "agent.py": AGENT, "hang.py": HANG, "template/app.txt": "v1\n"}
    )
    (repo / ".agentv").mkdir()
    (repo / ".agentv" / "targets.yaml").write_text(
        yaml.safe_dump(
            {
                "targets": [
                    {
                        "name": "agent",
                        "provider": "cli",
                        "command": f"{sys.executable} {repo / 'agent.py'} {{EVAL_ID}} {{OUTPUT_FILE}}",
                        "timeout_seconds": 60,
                    },
                ]
            }
        )
    )
    tests = tests or [{"id": "t1", "input": "go", "assertions": [{"type": "contains", "value": "made-by-t1.txt"}]}]
    eval_file = repo / "suite.eval.yaml"
    eval_file.write_text(
        yaml.safe_dump(
            {"execution": execution or {"target": "agent"}, "workspace": workspace, "tests": tests}, sort_keys=False
        )
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "eval")
    return repo, eval_file


def run_eval(repo: Path, eval_file: Path, out: Path) -> dict[str, dict]:
    """Each test's row, with the answer the agent gave (`output`: its working directory, then what it saw there)."""
    cli(repo, "eval", str(eval_file), "--output", str(out), timeout=300)
    rows = {row["test_id"]: row for row in load_rows(out)}
    for row in rows.values():
        answer = out / row.get("output_path", "none")
        row["output"] = answer.read_text().removeprefix("@[assistant]:\n") if answer.is_file() else ""
    return rows


def status(repo: Path) -> str:
    return git(repo, "status", "--porcelain", "--ignored")


def test_a_template_s_git_and_symlinks_never_reach_the_repository(tmp_path):
    repo, eval_file = project(tmp_path, {"template": "./template", "hooks": {"after_each": {"reset": "strict"}}})
    template = repo / "template"
    git(template, "init", "-q")  # the template is a repository of its own: its .git is not copied
    template_head = (template / ".git" / "HEAD").read_text()
    os.symlink("../secret.txt", template / "link")  # a link out of the template, to a file of the user's
    os.symlink("..", template / "up")
    before = status(repo)

    rows = run_eval(repo, eval_file, tmp_path / "out")

    workspace, listing = rows["t1"]["output"].split("\n")
    assert rows["t1"]["execution_status"] == "ok", rows["t1"]
    assert listing.split(",") == [
        ".git",
        "app.txt",
        "link",
        "made-by-t1.txt",
        "up",
    ]  # the agent's own .git: the baseline
    assert (repo / "secret.txt").read_text() == "original\n"  # the link was copied as a link, not to the user's file
    assert not (repo / "escaped.txt").exists() and not (tmp_path / "escaped.txt").exists()
    assert (template / ".git" / "HEAD").read_text() == template_head and not (template / "made-by-t1.txt").exists()
    assert status(repo) == before  # nothing in the repository changed
    assert not Path(workspace).exists() and not Path(workspace).parent.exists()  # every workspace is removed at the end


def test_a_test_id_cannot_place_its_workspace_outside_the_temporary_directory(tmp_path):
    tests = [{"id": "../../../escape", "input": "go", "assertions": [{"type": "contains", "value": "made-by"}]}]
    where = tmp_path / "where.txt"
    record = {
        "command": [
            sys.executable,
            "-c",
            "import sys; open(sys.argv[1], 'w').write(sys.argv[2])",
            str(where),
            "{{workspace_path}}",
        ]
    }
    repo, eval_file = project(
        tmp_path, {"template": "./template", "isolation": "per_test", "hooks": {"before_each": record}}, tests
    )

    rows = run_eval(repo, eval_file, tmp_path / "out")

    workspace = Path(where.read_text())
    # the cli target then fails the test as AgentV 4.42.4's does for an id with a `/` (ENOENT: autoresearch.runs.targets.cli)
    assert (
        rows["../../../escape"]["execution_status"] == "execution_error"
        and "ENOENT" in rows["../../../escape"]["error"]
    )
    assert "escape" not in str(workspace) and workspace.name == "workspace"
    assert not any(p.name == "escape" for p in tmp_path.parent.iterdir()) and not (tmp_path / "escape").exists()


def pid_alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def wait_for(condition, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_hook_that_never_ends_is_killed_with_what_it_started_at_its_timeout(tmp_path):
    pid_file = tmp_path / "child.pid"
    hook = {"command": [sys.executable, "hang.py", str(pid_file)], "timeout_ms": 1500}
    repo, eval_file = project(tmp_path, {"template": "./template", "hooks": {"before_each": hook}})

    started = time.monotonic()
    rows = run_eval(repo, eval_file, tmp_path / "out")

    assert time.monotonic() - started < 120
    assert rows["t1"]["execution_status"] == "execution_error" and rows["t1"]["score"] == 0
    assert "before_each script failed: Process timed out after 1500ms" in rows["t1"]["error"]
    assert wait_for(lambda: not pid_alive(int(pid_file.read_text().split()[0]))), (
        "the hook's child outlived its timeout"
    )


def test_kill_9_of_the_runner_mid_hook_leaves_the_repository_as_it_was(tmp_path):
    """And no `autoresearch-hook-*` folder in the temporary directory: a hook's input and output are files in
    memory, which a kill -9 (running no cleanup) cannot leave behind."""
    pid_file, temporary = tmp_path / "child.pid", tmp_path / "tmp"
    temporary.mkdir()
    repo, eval_file = project(
        tmp_path,
        {"template": "./template", "hooks": {"before_all": {"command": [sys.executable, "hang.py", str(pid_file)]}}},
    )
    before = status(repo)
    runner = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "eval", str(eval_file), "--output", str(tmp_path / "out")],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: pid_file.is_file() and pid_file.read_text().endswith("\n")), "the hook never started"
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
        assert sorted(p.name for p in temporary.glob("autoresearch-hook-*")) == []
        assert status(repo) == before
        assert (repo / "secret.txt").read_text() == "original\n" and sorted(
            p.name for p in (repo / "template").iterdir()
        ) == ["app.txt"]
    finally:
        if pid_file.is_file():
            pid, workspace = pid_file.read_text().split()
            if pid_alive(int(pid)):
                os.killpg(os.getpgid(int(pid)), signal.SIGKILL)  # the orphaned hook this test's runner started
            shutil.rmtree(Path(workspace).parent, ignore_errors=True)  # what a killed run leaves in the temp directory


def bare_repo(tmp_path: Path) -> tuple[Path, list[str]]:
    """A bare repository with two commits of lib.txt (v1, v2); returns it and the commits' shas, oldest first."""
    source = make_repo(tmp_path / "lib-src", {"lib.txt": "v1\n", "keep/a.txt": "a\n", "drop/b.txt": "b\n"})
    (source / "lib.txt").write_text("v2\n")
    git(source, "commit", "-q", "-am", "v2")
    bare = tmp_path / "lib.git"
    git(tmp_path, "clone", "-q", "--bare", str(source), str(bare))
    return bare, git(bare, "rev-list", "--reverse", "main").split()


def test_repos_clone_from_file_urls_at_a_commit_sha_with_sparse_paths(tmp_path):
    bare, (first, _second) = bare_repo(tmp_path)
    check = "import json,sys,os; w=json.load(sys.stdin)['workspace_path']; print(json.dumps({'score': float(open(os.path.join(w,'lib/lib.txt')).read()=='v1\\n' and os.path.exists(os.path.join(w,'lib/keep/a.txt')) and not os.path.exists(os.path.join(w,'lib/drop')))}))"
    tests = [
        {"id": "t1", "input": "go", "assertions": [{"type": "code-grader", "command": [sys.executable, "-c", check]}]}
    ]
    workspace = {"repos": [{"path": "lib", "repo": f"file://{bare}", "commit": first, "sparse": ["keep"]}]}
    repo, eval_file = project(tmp_path, workspace, tests)

    rows = run_eval(repo, eval_file, tmp_path / "out")

    assert rows["t1"]["score"] == 1.0, rows["t1"]
    assert git(bare, "rev-parse", "main").strip() != first  # the source is read, never moved


def test_an_unreachable_repo_fails_every_test_as_agentv_does(tmp_path):
    tests = [{"id": f"t{i}", "input": "go", "assertions": [{"type": "contains", "value": "x"}]} for i in (1, 2)]
    repo, eval_file = project(
        tmp_path, {"repos": [{"path": "lib", "repo": "https://invalid.invalid/nobody/lib.git"}]}, tests
    )

    rows = run_eval(repo, eval_file, tmp_path / "out")

    assert {r["execution_status"] for r in rows.values()} == {"execution_error"}
    assert all("git clone" in r["error"] and "invalid.invalid" in r["error"] for r in rows.values())


def test_validate_refuses_what_cannot_run_here_in_one_line_each(tmp_path):
    cases = {
        "static": ({"mode": "static", "path": "/tmp/somewhere"}, "field 'workspace.path'"),
        "escape": (
            {"repos": [{"path": "../outside", "repo": "file:///nowhere.git"}]},
            "field 'workspace.repos[0].path'",
        ),
        "removed": ({"static_path": "/tmp/x"}, "field 'workspace.static_path'"),
        "wrapped": ("./wrapped.yaml", "remove the top-level `workspace:` wrapper"),
        "missing": ("./missing.yaml", "Workspace file not found"),
    }
    for name, (workspace, needle) in cases.items():
        repo, eval_file = project(tmp_path / name, workspace)
        (repo / "wrapped.yaml").write_text("workspace:\n  template: ./template\n")
        done = cli(repo, "validate", str(eval_file))
        assert done.returncode == 30 and needle in done.stdout + done.stderr, (name, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr


def test_validate_accepts_a_workspace_it_runs(tmp_path):
    workspace = {
        "template": "./template",
        "isolation": "per_test",
        "mode": "temp",
        "hooks": {
            "before_all": {"command": "echo hi", "timeout_ms": 1000, "cwd": "."},
            "after_each": {"reset": "fast"},
        },
        "repos": [{"path": "./lib", "repo": "org/name", "commit": "main", "ancestor": 1, "sparse": ["src"]}],
    }
    repo, eval_file = project(tmp_path, workspace)
    done = cli(repo, "validate", str(eval_file))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bad_eval_file_with_a_workspace_is_one_line_with_its_field(tmp_path):
    repo, eval_file = project(tmp_path, {"mode": "static", "path": "/tmp/somewhere"})
    done = cli(repo, "eval", str(eval_file), "--output", str(tmp_path / "out"))
    assert_one_line_error(done, 30, "workspace.path")
    assert not (tmp_path / "out").exists()


def test_the_preflight_does_not_look_for_a_command_target_s_program_outside_its_workspace(tmp_path):
    """AgentV's examples keep the agent in the template (`./mock-agent.sh`): it exists in the workspace only."""
    repo, eval_file = project(tmp_path, {"template": "./template"})
    agent = repo / "template" / "agent.sh"
    agent.write_text(f'#!/bin/sh\n{sys.executable} {repo / "agent.py"} "$@"\n')
    agent.chmod(0o755)
    targets = [{"name": "agent", "provider": "cli", "command": "./agent.sh {EVAL_ID} {OUTPUT_FILE}"}]
    evaluator = BuiltinEvaluator(EvalConfig(file=eval_file.name, targets=targets), repo)

    evaluator.check()  # no "program './agent.sh' does not exist": it runs in the workspace

    outcome = evaluator.run(tmp_path / "out")
    assert [row["execution_status"] for row in outcome.rows] == ["ok"]


LOG_HOOK = "import json,sys,os; c=json.load(sys.stdin); open(os.path.join(c['workspace_path'],'order.log'),'a').write(sys.argv[1]+' '+c['test_id']+'\\n')"


def test_a_target_s_hooks_run_after_the_workspace_s_in_agentv_s_order(tmp_path):
    """`execution.targets[].hooks` (as AgentV's config-loader reads them) around the workspace's own hooks."""

    def logging(name: str) -> dict:
        return {"command": [sys.executable, "-c", LOG_HOOK, name]}

    hooks = {name: logging(name) for name in ("before_all", "before_each", "after_each", "after_all")}
    check = "import json,sys,os; print(open(os.path.join(json.load(sys.stdin)['workspace_path'],'order.log')).read().replace(chr(10),'|'))"
    tests = [
        {"id": "t1", "input": "go", "assertions": [{"type": "code-grader", "command": [sys.executable, "-c", check]}]}
    ]
    target = {name: {"command": shlex.join([sys.executable, "-c", LOG_HOOK, "target-" + name])} for name in hooks}
    execution = {"targets": [{"name": "agent", "hooks": target}]}
    repo, eval_file = project(tmp_path, {"template": "./template", "hooks": hooks}, tests, execution)
    prepared = prepare(eval_file, repo)

    [result] = list(EvalRun(prepared.suite, prepared.targets, RunOptions(workers=1)))

    assert result.scores[0]["assertions"][0]["text"] == (
        "before_all __before_all__|target-before_all __target_before_all__|before_each t1|target-before_each t1|"
        "target-after_each t1|after_each t1|"
    )
    assert prepared.targets.hooks[None]["before_all"].command[:2] == ("sh", "-c")  # a string goes through the shell


class BuggyTarget:
    name, grader_target, provider, prompt_mode = "buggy", None, "cli", "agent"

    def answer(self, case, attempt, cwd=None):
        (cwd / "seen").write_text("ran here")
        raise ZeroDivisionError("a bug in a target")


def test_a_run_that_breaks_runs_no_after_all_and_still_removes_its_workspaces(tmp_path):
    marker = tmp_path / "after_all.ran"
    after_all = {"command": [sys.executable, "-c", f"open({str(marker)!r}, 'w').write('x')"]}
    repo, eval_file = project(tmp_path, {"template": "./template", "hooks": {"after_all": after_all}})
    prepared = prepare(eval_file, repo)
    prepared.targets.built = {name: BuggyTarget() for name in prepared.targets.built}
    run = EvalRun(prepared.suite, prepared.targets, RunOptions(workers=1))

    try:
        list(run)
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("the bug was swallowed")

    assert not marker.exists()
    root = run.workspaces.groups[None].root
    assert root is not None and not root.exists()
