"""The command mutator's sandbox (`mutator.sandbox`): a hostile mutator works in a throwaway checkout where
the user's files are read-only and the experiment's records are not there; only the artifact comes back,
and nothing it started outlives it. Real bubblewrap (.ci/run installs it: these fail, never skip, without
it), real git, real mutators."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.helpers.attempts import ATTEMPT
from tests.helpers.procs import running, survivors
from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

RESULTS = ".autoresearch"
TOKEN = "tok-" + "s3cret" * 4

HOSTILE = r"""
import json, os, socket, subprocess, sys, time
from pathlib import Path

repo, actions, marker = Path(sys.argv[1]), sys.argv[2].split(","), sys.argv[3]
results = repo / ".autoresearch"
"""
HOSTILE += ATTEMPT
HOSTILE += r"""


if "clean" in actions:  # as coding agents tidy up: here, and in the checkout it came from
    subprocess.run(["git", "clean", "-ffdx"], capture_output=True)
    subprocess.run(["git", "-C", str(repo), "clean", "-ffdx"], capture_output=True)
if "rm" in actions:
    for name in ("evals", "tools", "plan.json", "notes.txt", ".env"):
        subprocess.run(["rm", "-rf", str(repo / name)], capture_output=True)
if "results" in actions:
    subprocess.run(["rm", "-rf", str(results)], capture_output=True)
if "git" in actions:
    attempt("hook", lambda: (repo / ".git/hooks/post-commit").write_text("#!/bin/sh\necho pwned\n"))
    attempt("config", lambda: open(repo / ".git/config", "a").write("[user]\n\tname = evil\n"))
if "refs" in actions:  # the user's branch, from a mutator of a --worktree run
    subprocess.run(["git", "-C", str(repo), "update-ref", "-d", "refs/heads/main"], capture_output=True)
if "records" in actions:
    token = results / "api-token"
    if token.exists():
        print("TOKEN", token.read_text())
    lock = results / "runs/exp/_autoresearch/lock"
    attempt("lock", lock.unlink)
    attempt("iterations", lambda: Path(os.environ["AUTORESEARCH_ITERATIONS"]).write_text(""))
if "children" in actions:  # a setsid child and a double-forked one, both writing on after this exits
    loop = "import sys, time\nwhile True:\n    open(sys.argv[1], 'a').write('x')\n    time.sleep(0.05)\n"
    subprocess.Popen([sys.executable, "-c", loop, "alive-setsid", marker], start_new_session=True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", loop, "alive-forked", marker])
        os._exit(0)
    while not (Path("alive-setsid").exists() and Path("alive-forked").exists()):
        time.sleep(0.01)
    while "block" in actions:  # until the daemon is killed
        time.sleep(0.05)
if "paths" in actions:  # what its variables point to, as it sees them
    env = {k[len("AUTORESEARCH_"):]: Path(v) for k, v in os.environ.items() if k.startswith("AUTORESEARCH_")}
    print("PATHS", json.dumps({
        "artifact": os.access(env["ARTIFACT"], os.W_OK) and os.access(env["ARTIFACT"].parent, os.W_OK),
        "prompt": "Write a short changelog to " + str(env["CHANGELOG"]) in env["PROMPT_FILE"].read_text(),
        "iterations": len(env["ITERATIONS"].read_text().splitlines()),
        "run_dir": (env["RUN_DIR"] / "index.jsonl").is_file(),
        "changelog": os.access(env["CHANGELOG"].parent, os.W_OK),
        "cwd": Path.cwd() == env["ARTIFACT"].parents[1],
    }))
for action in actions:
    if action.startswith("net:"):  # a server of the test's, on the machine's loopback
        try:
            socket.create_connection(("127.0.0.1", int(action[4:])), timeout=5).close()
            print("CONNECTED")
        except OSError as exc:
            print("no network:", exc)
    if action.startswith("abstract:"):  # a service of the test's on an abstract Unix socket, as an X server's
        try:
            socket.socket(socket.AF_UNIX).connect("\0" + action[len("abstract:"):])
            print("ABSTRACT CONNECTED")
        except OSError as exc:
            print("no abstract socket:", exc)
artifact = Path(os.environ["AUTORESEARCH_ARTIFACT"])
if artifact.is_dir():
    (artifact / "b.md").unlink()
    (artifact / "sub").mkdir()
    (artifact / "sub/c.md").write_text("c 1\n")
    artifact = artifact / "a.md"
temp = artifact.with_name(artifact.name + ".tmp.12345")  # as coding agents write: a temp file, then rename
temp.write_text("a 1\nb 1\n")
os.replace(temp, artifact)
changelog = os.environ.get("AUTORESEARCH_CHANGELOG") or Path(os.environ["AUTORESEARCH_RUN_DIR"], "mutation.md")
Path(changelog).write_text("scores raised\n\ndetails\n")
"""


def hostile_repo(
    tmp_path: Path, actions: str, sandbox: object = "on", artifact: dict | None = None, **config
) -> tuple[Path, str]:
    """A repo whose mutator does `actions` to the checkout at its absolute path, then edits the artifact;
    the user has a .env, an untracked file and an API token; the returned marker names the mutator's children."""
    repo, marker = tmp_path / "repo", f"sandbox-test-{uuid.uuid4().hex}"
    command = f"python3 tools/hostile.py {repo} {actions} {marker}"
    settings = {"mutator": {"command": command, "sandbox": sandbox}, "stop": {"max_cycles": 2}, **config}
    scenario_repo(
        repo,
        artifact or {"prompts/p.md": scores(a=0, b=0)},
        {},
        config=settings,
        extra_files={"tools/hostile.py": HOSTILE},
    )
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    (repo / "notes.txt").write_text("my untracked notes\n")
    (repo / RESULTS).mkdir()
    (repo / RESULTS / "api-token").write_text(TOKEN + "\n")
    return repo, marker


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the user's checkout but the artifact and the results, and the .git files a mutator
    would plant or change."""
    files = {
        str(p.relative_to(repo)): p.read_bytes()
        for p in repo.rglob("*")
        if p.is_file() and p.relative_to(repo).parts[0] not in (RESULTS, ".git", "prompts")
    }
    hooks = {f".git/hooks/{p.name}": p.read_bytes() for p in (repo / ".git/hooks").iterdir()}
    return {**files, **hooks, ".git/config": (repo / ".git/config").read_bytes()}


def mutator_output(repo: Path) -> str:
    return "".join(p.read_text() for p in (repo / RESULTS).rglob("mutator.stdout.log"))


@pytest.mark.parametrize("actions", ["clean", "rm", "git", "clean,rm,git"])
def test_a_hostile_mutator_cannot_touch_the_users_checkout(tmp_path, actions):
    repo, _ = hostile_repo(tmp_path, actions)
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode in (0, 10), done.stderr
    assert snapshot(repo) == before
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]  # nothing it tried reached a file
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "?? .env\n?? notes.txt\n"


def test_the_experiments_records_and_token_are_not_there_for_the_mutator(tmp_path):
    repo, _ = hostile_repo(tmp_path, "records")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    output = mutator_output(repo)
    assert TOKEN not in output and "DONE lock" not in output and "DONE iterations" not in output
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]


def test_nothing_the_mutator_started_outlives_it(tmp_path):
    repo, marker = hostile_repo(tmp_path, "children")
    done = cli(repo, "run")
    assert done.returncode in (0, 10), done.stderr
    assert survivors(marker) == []
    assert not list(repo.glob("alive-*"))


def test_nothing_the_mutator_started_outlives_a_daemon_killed_during_the_mutation(tmp_path):
    repo, marker = hostile_repo(tmp_path, "children,block")
    daemon = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: list(repo.rglob("alive-forked")))  # in its throwaway checkout
        daemon.kill()
        daemon.wait()
        wait_for(lambda: not running(marker), timeout=10)
    finally:
        daemon.kill()
        survivors(marker)


def test_an_edit_written_beside_the_artifact_and_renamed_lands_and_is_kept(tmp_path):
    repo, _ = hostile_repo(tmp_path, "none")
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    last = iterations(repo)[-1]
    assert (last["decision"], last["mutation"]) == ("keep", "scores raised")
    assert (repo / "prompts/p.md").read_text() == "a 1\nb 1\n"
    assert git(repo, "show", "HEAD:prompts/p.md") == "a 1\nb 1\n"
    assert snapshot(repo) == before
    assert not list(repo.rglob("*.tmp.12345"))


def test_a_directory_artifacts_new_changed_and_deleted_files_all_come_back(tmp_path):
    artifact = {"prompts/a.md": scores(a=0), "prompts/b.md": scores(b=0)}
    repo, _ = hostile_repo(tmp_path, "none", artifact=artifact)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert iterations(repo)[-1]["decision"] == "keep"
    assert git(repo, "ls-files", "prompts") == "prompts/a.md\nprompts/sub/c.md\n"
    assert (repo / "prompts/a.md").read_text() == "a 1\nb 1\n" and not (repo / "prompts/b.md").exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "?? .env\n?? notes.txt\n"


@pytest.mark.parametrize("network", [True, False])
def test_the_network_is_shared_unless_turned_off(tmp_path, network):
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        repo, _ = hostile_repo(tmp_path, f"net:{port}", sandbox={"mode": "on", "network": network})
        done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert ("CONNECTED" in mutator_output(repo)) is network


def test_with_the_network_an_abstract_socket_outside_is_refused_and_the_mutation_goes_on(tmp_path):
    """The host's network shares its abstract Unix namespace (an X server's socket, some D-Bus buses): the
    sandbox's Landlock domain refuses the connection, and nothing else changes."""
    name = f"autoresearch-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("\0" + name)
        server.listen()
        repo, _ = hostile_repo(tmp_path, f"abstract:{name}", sandbox={"mode": "on", "network": True})
        done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "no abstract socket: [Errno 1] Operation not permitted" in mutator_output(repo)
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]
    assert "abstract Unix sockets" not in done.stderr  # this kernel closes them: nothing to say


def test_where_the_sandbox_cannot_close_abstract_sockets_it_says_so_once_at_start(tmp_path):
    """A setuid bubblewrap (older distributions') would lose its root in the domain: the run goes on without
    it and says so once, as the sandbox's other limits."""
    repo, _ = hostile_repo(tmp_path, "none")
    folder = tmp_path / "bin"
    folder.mkdir()
    shutil.copy2(shutil.which("bwrap"), folder / "bwrap")
    (folder / "bwrap").chmod(0o4755)
    done = cli(repo, "run", env={"PATH": f"{folder}:/usr/bin:/bin"})  # the sandbox's commands: /tmp is not there
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("the abstract Unix sockets") == 1
    assert "is setuid" in done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]


def test_the_mutators_variables_point_where_it_can_read_and_write_them_in_the_sandbox(tmp_path):
    repo, _ = hostile_repo(tmp_path, "paths")
    assert cli(repo, "run").returncode == 0
    line = next(ln for ln in mutator_output(repo).splitlines() if ln.startswith("PATHS "))
    seen = json.loads(line.removeprefix("PATHS "))
    assert seen == {
        "artifact": True,
        "prompt": True,
        "iterations": 1,
        "run_dir": True,
        "changelog": True,
        "cwd": True,
    }


def test_the_sandbox_is_on_by_default(tmp_path):
    repo, _ = hostile_repo(tmp_path, "clean,git,records")
    config = (repo / "autoresearch.yaml").read_text().replace("  sandbox: 'on'\n", "")
    assert "sandbox:" not in config
    (repo / "autoresearch.yaml").write_text(config)
    git(repo, "commit", "-qam", "default sandbox")
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert snapshot(repo) == before and TOKEN not in mutator_output(repo)


def test_parallel_candidates_mutate_in_the_sandbox_too(tmp_path):
    repo, _ = hostile_repo(tmp_path, "clean,git,records", search={"candidates": 2})
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert iterations(repo)[-1]["decision"] == "keep"
    assert snapshot(repo) == before
    assert TOKEN not in mutator_output(repo) and "DONE lock" not in mutator_output(repo)


def test_with_worktree_the_users_branch_and_checkout_are_out_of_reach(tmp_path):
    repo, _ = hostile_repo(tmp_path, "clean,refs,git")
    main, before = git(repo, "rev-parse", "main"), snapshot(repo)
    done = cli(repo, "run", "--worktree")
    assert done.returncode == 0, done.stderr
    assert git(repo, "rev-parse", "main") == main and snapshot(repo) == before
    assert git(repo, "show", "autoresearch/exp:prompts/p.md") == "a 1\nb 1\n"


def test_sandbox_off_warns_once_per_run(tmp_path):
    repo, _ = hostile_repo(tmp_path, "none", sandbox="off", stop={"max_cycles": 3})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("'mutator.sandbox' is off") == 1


def path_without_bwrap(tmp_path: Path) -> str:
    """A PATH with what a run needs (git, python3, sh) and no bubblewrap."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("git", "sh"):
        (bin_dir / name).symlink_to(shutil.which(name))
    (bin_dir / "python3").symlink_to(sys.executable)
    return str(bin_dir)


def test_sandbox_on_without_bubblewrap_refuses_to_start(tmp_path):
    repo, _ = hostile_repo(tmp_path, "none")
    done = cli(repo, "run", env={"PATH": path_without_bwrap(tmp_path)})
    assert_one_line_error(done, 30, "'mutator.sandbox'", "bubblewrap")
    assert not (repo / RESULTS / "runs").exists()


@pytest.mark.parametrize("shared", [".autoresearch/runs", "{repo}/.git/hooks"])
def test_a_writable_folder_inside_the_results_or_git_is_refused_before_anything_starts(tmp_path, shared):
    """Shared writable there, it reopened what the sandbox hides or shows read-only (the run directories being
    evaluated, the candidates' worktrees, the cache; git's hooks): a deeper mount wins."""
    repo = tmp_path / "repo"
    hostile_repo(tmp_path, "none", sandbox={"mode": "on", "writable": [shared.format(repo=repo)]})
    done = cli(repo, "run")
    assert_one_line_error(done, 30, "field 'mutator.sandbox.writable.0'", "which no mutator may write")
    assert not (repo / RESULTS / "runs").exists()


def test_without_bubblewrap_auto_says_so_once_and_the_guard_holds(tmp_path):
    repo, _ = hostile_repo(tmp_path, "git", sandbox="auto", stop={"max_cycles": 3})
    before = snapshot(repo)
    done = cli(repo, "run", env={"PATH": path_without_bwrap(tmp_path)})
    assert done.returncode in (0, 10), done.stderr
    assert done.stderr.count("bubblewrap (bwrap) is not installed") == 1
    assert snapshot(repo) == before


HOSTILE_EVAL = r"""
import json, subprocess, sys
from pathlib import Path

subprocess.run(["git", "clean", "-ffdx"], capture_output=True)  # in the checkout it evaluates
for name in (".env", "notes.txt"):
    try:
        open(name, "a").write("changed by the eval\n")
    except OSError as exc:
        print("refused", exc)
token = Path(".autoresearch/api-token")
if token.exists():
    print("TOKEN", token.read_text())
score = float(Path(sys.argv[2]).read_text().split()[1])
Path(sys.argv[1], "index.jsonl").write_text(json.dumps({"test_id": "a", "score": score}) + "\n")
"""


def hostile_eval_repo(tmp_path: Path) -> Path:
    eval_config = {"command": "python3 evals/hostile.py {run_dir} prompts/p.md", "sandbox": True}
    repo = scenario_repo(
        tmp_path / "repo",
        {"prompts/p.md": "a 0\n"},
        {2: {"write": {"prompts/p.md": "a 1\n"}, "summary": "raised"}},
        config={"eval": eval_config},
        extra_files={"evals/hostile.py": HOSTILE_EVAL},
    )
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    (repo / "notes.txt").write_text("my untracked notes\n")
    (repo / RESULTS).mkdir()
    (repo / RESULTS / "api-token").write_text(TOKEN + "\n")
    return repo


def test_an_eval_in_the_sandbox_cannot_touch_the_checkout_nor_read_the_records(tmp_path):
    repo = hostile_eval_repo(tmp_path)
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]
    assert snapshot(repo) == before
    logs = "".join(p.read_text() for p in (repo / RESULTS).rglob("eval.stdout.log"))
    assert "refused" in logs and TOKEN not in logs


def test_eval_sandbox_without_bubblewrap_refuses_to_start(tmp_path):
    repo = hostile_eval_repo(tmp_path)
    done = cli(repo, "run", env={"PATH": path_without_bwrap(tmp_path)})
    assert_one_line_error(done, 30, "'eval.sandbox'", "bubblewrap")


def test_with_a_holdout_the_eval_file_is_hidden_in_the_users_checkout_too(tmp_path, fake_llm):
    """The throwaway checkout's copy is hidden, and so is the user's, which the sandbox shows read-only."""
    from tests.mutators.llm_setup import word_suite_repo

    repo = tmp_path / "r"
    peek = f"cat {repo}/evals/s.eval.yaml evals/s.eval.yaml; echo alphaword bravoword > prompt.md"
    words = ["alphaword", "bravoword", "charlieword", "deltaword"]
    word_suite_repo(repo, fake_llm, words, "alphaword\n", mutator={"provider": "command", "command": f"sh -c '{peek}'"})
    done = cli(repo, "run")
    assert done.returncode in (0, 10), done.stderr
    held = json.loads((repo / RESULTS / "runs/exp/_autoresearch/holdout.json").read_text())["tests"]
    output = mutator_output(repo)
    assert held and not any(test in output for test in held), output
