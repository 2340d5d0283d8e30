"""The fault campaign's harness (bench/fault_campaign.py): the user's work every case starts with, a
process started and struck as the campaign says, a `git` held open at a chosen moment, and the checks
every case makes whatever it faulted."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.gitrepo.gitcmd import processes_in  # noqa: E402
from autoresearch.plumbing import jsonlines  # noqa: E402
from tests.helpers.repos import GIT_ENV, git  # noqa: E402
from tests.helpers.scenario import scores  # noqa: E402

# the scenario: five cycles, two KEEPs, two DROPs
PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break a"},
    4: {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "fix b"},
    5: {"write": {"prompt.md": scores(a=1, b=1, c=0) + "# longer\n"}, "summary": "pad"},
}
USER_FILES = {"notes.md": "the user's notes\n", "staged.txt": "committed\n"}
RECORDS = ".autoresearch/runs/exp/_autoresearch"
TIMEOUT_S = 180

WRAPPER = """#!{python}
import os, sys, time
from pathlib import Path
args = sys.argv[1:]
gate = os.environ.get("CAMPAIGN_GATE", "")  # "<subcommand>:<n>": hold the n-th such git of the daemon
sub = next((a for a in args if not a.startswith("-") and "=" not in a), "")
if gate and sub == gate.split(":")[0]:
    counter = Path(os.environ["CAMPAIGN_DIR"], "count-" + sub)
    n = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(n))
    if n == int(gate.split(":")[1]):
        if sub == "commit":  # held inside git, its index lock taken: the hook waits
            hooks = "core.hooksPath=" + os.environ["CAMPAIGN_HOOKS"]
            args = ["-c", hooks, *(a.replace("core.hooksPath=/dev/null", hooks) for a in args)]
            Path(os.environ["CAMPAIGN_DIR"], "armed").touch()
        else:  # held just before git starts
            Path(os.environ["CAMPAIGN_DIR"], "in-git").write_text(str(os.getpid()))
            while not Path(os.environ["CAMPAIGN_DIR"], "gate").exists():
                time.sleep(0.02)
os.execv({git!r}, ["git", *args])
"""
HOOK = """#!/bin/sh
if [ -e "$CAMPAIGN_DIR/armed" ]; then
    rm "$CAMPAIGN_DIR/armed"
    echo $PPID > "$CAMPAIGN_DIR/in-git"
    while [ ! -e "$CAMPAIGN_DIR/gate" ]; do sleep 0.02; done
fi
"""


class Harness:
    """The `git` wrapper on the struck process's PATH and the hook it lets run, made once per campaign."""

    def __init__(self, work: Path):
        self.work = work
        self.bin = work / "bin"
        self.bin.mkdir()
        wrapper = self.bin / "git"
        wrapper.write_text(WRAPPER.format(python=sys.executable, git=shutil.which("git")))
        wrapper.chmod(0o755)
        self.hooks = work / "hooks"
        self.hooks.mkdir()
        (self.hooks / "prepare-commit-msg").write_text(HOOK)
        (self.hooks / "prepare-commit-msg").chmod(0o755)

    def env(self, root: Path) -> dict:
        """The environment of a case's processes, `root` its folder (the repository is `root/r`)."""
        return {
            **os.environ,
            **GIT_ENV,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "CAMPAIGN_DIR": str(root),
            "CAMPAIGN_HOOKS": str(self.hooks),
        }


def struck(repo: Path, argv: list[str], env: dict, outside: str | None) -> int:
    """`autoresearch ARGV` started (`start`); with `outside`, struck so once the gated git is reached, then
    that git let go on. Its exit code (negative: the signal)."""
    proc = start(repo, argv, env)
    if outside:
        marker = repo.parent / "in-git"
        deadline = time.monotonic() + TIMEOUT_S
        while not (marker.exists() and marker.read_text().strip()) and proc.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        if marker.exists() and marker.read_text().strip():
            strike(outside, proc.pid, int(marker.read_text()))
            (repo.parent / "gate").touch()
    return finish(proc)


def start(repo: Path, argv: list[str], env: dict) -> subprocess.Popen:
    """`autoresearch ARGV` in a session of its own, as a shell's job; its stderr in the case's folder."""
    with open(repo.parent / "stderr", "wb") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "autoresearch.optimizer", *argv],
            cwd=repo,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )


def finish(proc: subprocess.Popen) -> int:
    """The process's exit code, its group killed if it outlives the campaign's patience."""
    try:
        return proc.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.wait()


def strike(how: str, daemon: int, held_git: int) -> None:
    if how == "kill-daemon":
        os.kill(daemon, signal.SIGKILL)
    elif how == "kill-daemon-and-git":
        os.killpg(daemon, signal.SIGKILL)
        os.kill(held_git, signal.SIGKILL)
    elif how == "kill-git":  # the OOM killer's choice: the daemon lives on and sees its git die
        os.kill(held_git, signal.SIGKILL)
    elif how == "term-group":
        os.killpg(daemon, signal.SIGTERM)
    elif how == "int-group":
        os.killpg(daemon, signal.SIGINT)


def add_user_work(repo: Path, staged: bool = True) -> None:
    """The user's work in progress: an untracked file and (unless a command would refuse it) a staged change
    edited again since."""
    if staged:
        (repo / "staged.txt").write_text("staged by the user\n")
        git(repo, "add", "staged.txt")
        (repo / "staged.txt").write_text("staged, then edited again\n")
    (repo / "scratch.txt").write_text("untracked work\n")


def user_state(repo: Path) -> dict:
    """The user's own work: file bytes (None: gone), the staged version, and the index entries outside the
    artifact."""
    paths = {name: repo / name for name in ("notes.md", "staged.txt", "scratch.txt")}
    return {
        "files": {name: path.read_bytes() if path.exists() else None for name, path in paths.items()},
        "index": [line for line in git(repo, "ls-files", "-s").splitlines() if not line.endswith("\tprompt.md")],
        "staged": shown(repo, ":staged.txt"),
    }


def shown(repo: Path, what: str) -> str | None:
    done = subprocess.run(["git", "show", what], cwd=repo, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def checkout_problems(repo: Path, before: dict) -> list[str]:
    """What any case must leave in the user's checkout: HEAD on their branch, their work as it was, the
    artifact as HEAD has it, no merge under way, no git lock, no process."""
    problems = []
    if (
        subprocess.run(["git", "symbolic-ref", "-q", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
        != "refs/heads/main"
    ):
        problems.append("HEAD is not on the user's branch main")
    if git(repo, "status", "--porcelain", "--", "prompt.md").strip():
        problems.append("the artifact differs from HEAD")
    if "<<<<<<<" in ((repo / "prompt.md").read_text() if (repo / "prompt.md").exists() else ""):
        problems.append("conflict markers in the artifact")
    if (repo / ".git" / "MERGE_HEAD").exists():
        problems.append("a merge is under way (.git/MERGE_HEAD)")
    after = user_state(repo)
    for key, value in before.items():
        if after[key] != value:
            problems.append(f"the user's {key} changed" + gone(value, after[key]))
    # git's own locks: autoresearch's under .git/autoresearch are flock files, there for good
    locks = [str(p.relative_to(repo)) for p in (repo / ".git").rglob("*.lock") if "autoresearch" not in p.parts]
    if locks:
        problems.append(f"git locks left: {locks}")
    left = processes_left(repo.parent)
    if left:
        problems.append(f"processes left running: {left}")
    return problems


def gone(before: object, after: object) -> str:
    """Which of the user's files are gone, when some are."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ""
    missing = [name for name, data in after.items() if data is None and before.get(name) is not None]
    return f" ({', '.join(missing)} gone)" if missing else ""


def tracebacks(repo: Path, where: dict[str, str]) -> list[str]:
    """A traceback anywhere the user reads: the outputs in `where` ({what: text}), and daemon.log."""
    logs = {
        str(log.relative_to(repo)): log.read_text(errors="replace")
        for log in (repo / ".autoresearch").rglob("daemon.log")
    }
    return [
        f"a traceback in {name}"
        for name, text in {**where, **logs}.items()
        if "Traceback (most recent call last)" in text
    ]


def read_lines(repo: Path, problems: list[str] | None = None) -> list[dict]:
    path = repo / RECORDS / "iterations.jsonl"
    text = path.read_text() if path.exists() else ""
    if text and not text.endswith("\n") and problems is not None:
        problems.append("iterations.jsonl ends in a torn line")
    records = []
    for line in filter(None, jsonlines.lines(text)):  # as the product reads it: a row may hold U+2028
        try:
            records.append(json.loads(line))
        except ValueError:
            if problems is not None:
                problems.append("iterations.jsonl holds a line that is not JSON")
    return records


def processes_left(root: Path) -> list[str]:
    """Live processes working under `root`, and the mutator's child by its pid file."""
    found = [f"pid {pid}" for pid in processes_in(root)]
    child = root / "child.pid"
    if child.exists() and alive(child.read_text().strip()):
        found.append(f"{child.read_text().strip()} (the mutator's child)")
    return found


def alive(pid: str) -> bool:
    """Running, not a zombie: a killed orphan stays in /proc until the machine's init reaps it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""
