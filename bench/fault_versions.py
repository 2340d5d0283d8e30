"""Kills and signals inside `rollback --to` and `promote`, for the fault campaign (bench/fault_campaign.py).

Each case runs the scenario's five cycles (in a worktree for `promote`), then the version command:
`rollback --to 2` in the user's checkout, or `promote` as a fast-forward, as a merge commit (the user
committed a file of their own meanwhile), or conflicting (the user committed their own artifact). The
command is struck at one of its kill points (plumbing/faults.py) by SIGKILL, SIGTERM, or SIGINT to its
group, or while a git of its is held by the campaign's wrapper (the rollback's restore and commit, the
promote's merge) by a SIGKILL of the command alone (git goes on), of its git alone, or a SIGINT to the
group. Then the next command (the same one again, `status`, or `run`) and a `run` resuming the
experiment. Checked: the checkout as every case leaves it, HEAD the last decision's, iterations.jsonl
whole, no journal left, one line saying whether the command was finished or undone that is true (a
finished rollback has its commit and one line, an undone one neither; a conflicting promote never
lands), and a resume that neither refuses nor advises `--restart`.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.plumbing.faults import ENV  # noqa: E402
from bench.fault_harness import (  # noqa: E402
    PLAN,
    RECORDS,
    TIMEOUT_S,
    USER_FILES,
    Harness,
    add_user_work,
    alive,
    checkout_problems,
    last_line,
    read_lines,
    struck,
    tracebacks,
    user_state,
)
from tests.helpers.repos import git  # noqa: E402
from tests.helpers.scenario import scenario_repo, scores  # noqa: E402

ROLLBACK = ["rollback", "--to", "2"]
NEXT_NIGHT = {c: {"write": {"prompt.md": scores(a=1, b=1, c=1)}, "summary": "next night"} for c in (6, 7, 8)}
# mode -> the command, its kill points, and the gits the wrapper may hold
MODES = {
    "rollback": (ROLLBACK, ("rollback-restored", "rollback-committed", "rollback-logged"), ("restore:1", "commit:1")),
    "fast-forward": (["promote"], ("promote-merged",), ()),
    "merge": (["promote"], ("promote-merged",), ("merge:1",)),
    "conflict": (["promote"], ("promote-merged",), ("merge:1",)),
}
NEXT = {"same": None, "status": ["status"], "run": ["run", "--max-cycles", "1"]}
# how it is struck at a kill point -> (the spec, the faulted command's exit, the next command)
AT_POINT = {
    "SIGKILL": ("SIGKILL", -signal.SIGKILL, "same"),
    "SIGKILL-then-run": ("SIGKILL", -signal.SIGKILL, "run"),
    "SIGTERM": ("SIGTERM", 130, "status"),
    "SIGINT-group": ("SIGINT:group", 130, "same"),
}
# what the campaign does once the held git is reached -> (the faulted command's exit, the next command)
AT_GIT = {"kill-daemon": (-signal.SIGKILL, "same"), "kill-git": (50, "run"), "int-group": (130, "status")}
OUTCOMES = ("was finished", "was undone", "nothing was changed")


@dataclass
class VersionCase:
    name: str
    mode: str
    env: dict = field(default_factory=dict)
    expect: tuple[int, ...] = (0,)
    then: str = "same"
    outside: str | None = None

    @property
    def argv(self) -> list[str]:
        return MODES[self.mode][0]

    @property
    def next_argv(self) -> list[str]:
        return NEXT[self.then] or self.argv


def version_cases() -> list[VersionCase]:
    cases = []
    for mode, (argv, points, gates) in MODES.items():
        what = "rollback" if mode == "rollback" else f"promote-{mode}"
        for point in points:
            for label, (spec, code, then) in AT_POINT.items():
                cases.append(
                    VersionCase(
                        f"{what}-{point.split('-', 1)[1]}-{label}", mode, {ENV: f"{point}:1:{spec}"}, (code,), then
                    )
                )
        for gate in gates:
            for outside, (code, then) in AT_GIT.items():
                name = f"{what}-git-{gate.replace(':', '-')}-{outside}"
                cases.append(VersionCase(name, mode, {"CAMPAIGN_GATE": gate}, (code,), then, outside))
    return cases


def run_version_case(harness: Harness, case: VersionCase) -> list[str]:
    root = harness.work / case.name
    env = harness.env(root)
    promote = case.mode != "rollback"
    settings = {"worktree": promote, "stop": {"max_cycles": 5}}
    repo = scenario_repo(
        root / "r",
        {"prompt.md": scores(a=0, b=0, c=0)},
        {**PLAN, **NEXT_NIGHT},
        config=settings,
        extra_files=USER_FILES,
    )
    if case.outside:  # the commit and restore left to git, to hold it (see autoresearch.optimizer.gitrepo.direct)
        git(repo, "config", "core.autocrlf", "input")
    first = run(repo, env, ["run"])
    if first.returncode != 0:
        return [f"the first run exited {first.returncode}: {last_line(first.stderr)}"]
    prepare(repo, case.mode)
    before, head = user_state(repo), git(repo, "rev-parse", "HEAD").strip()
    tip = git(repo, "rev-parse", "autoresearch/exp").strip() if promote else ""
    code = struck(repo, case.argv, {**env, **case.env}, case.outside)
    problems = [] if code in case.expect else [f"the command exited {code}, expected {case.expect}"]
    (root / "gate").touch()
    held_git_ended(root)
    faulted = (root / "stderr").read_text(errors="replace")
    nxt = run(repo, env, case.next_argv)
    refused = case.mode == "conflict" and case.then == "same"  # a conflicting promote is refused again
    if nxt.returncode not in ((30,) if refused else (0, 10)):
        problems.append(f"`{' '.join(case.next_argv)}` exited {nxt.returncode}: {last_line(nxt.stderr)}")
    problems += checkout_problems(repo, before)
    problems += records_problems(repo)
    said = outcome(faulted) or outcome(nxt.stderr)
    if not said:
        problems.append("nothing says whether the command was finished or undone")
    elif promote:
        problems += promote_problems(repo, case, said, head, tip)
    else:
        problems += rollback_problems(repo, case, said, head)
    resumed = run(repo, env, ["run", "--max-cycles", "1"])
    if resumed.returncode not in (0, 10):
        problems.append(f"the resume exited {resumed.returncode}: {last_line(resumed.stderr)}")
    problems += head_problems(repo, promote)
    where = {"the command's stderr": faulted, "the next command's stderr": nxt.stderr, "the resume's": resumed.stderr}
    return problems + tracebacks(repo, where)


def prepare(repo: Path, mode: str) -> None:
    """The user's work before the command: a staged change (a rollback takes only the artifact), or for a
    promote (which refuses uncommitted changes) a commit of their own that it merges or conflicts with."""
    if mode == "merge":
        (repo / "mine.txt").write_text("the user's own file\n")
        git(repo, "add", "mine.txt")
        git(repo, "commit", "-qm", "my own file")
    elif mode == "conflict":
        (repo / "prompt.md").write_text(scores(a=0.5, b=0.5, c=0))
        git(repo, "commit", "-qam", "my own prompt")
    add_user_work(repo, staged=mode == "rollback")


def held_git_ended(root: Path) -> None:
    """Wait for the git the wrapper held to end: let go after the command was struck, it goes on alone. (A
    real git is waited for by the next command itself; the wrapper, a Python script until it becomes git,
    is not seen as one.)"""
    marker = root / "in-git"
    deadline = time.monotonic() + TIMEOUT_S
    while marker.exists() and marker.read_text().strip() and alive(marker.read_text().strip()):
        if time.monotonic() > deadline:
            return
        time.sleep(0.02)


def run(repo: Path, env: dict, argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *argv],
        cwd=repo,
        env={k: v for k, v in env.items() if k not in (ENV, "CAMPAIGN_GATE")},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


def outcome(stderr: str) -> str:
    """The line saying how the command ended (the command's own, or the next command's on settling it)."""
    return next((line for line in stderr.splitlines() if any(o in line for o in OUTCOMES)), "")


def records_problems(repo: Path) -> list[str]:
    problems: list[str] = []
    read_lines(repo, problems)
    if (repo / RECORDS / "version-command.json").exists():
        problems.append("the journal is still there after the next command")
    return problems


def rollback_problems(repo: Path, case: VersionCase, said: str, head: str) -> list[str]:
    """A rollback said finished has its commit on HEAD's old place and one line; one said undone has
    neither, unless the next command was the rollback again."""
    lines = [r for r in read_lines(repo) if r.get("reason") == "rollback to cycle 2"]
    wanted = 1 if "was finished" in said or case.then == "same" else 0
    problems = [] if len(lines) == wanted else [f"{len(lines)} rollback lines, expected {wanted} ({said.strip()})"]
    keep2 = git(repo, "show", f"{read_lines(repo)[1]['commit']}:prompt.md")
    for line in lines:
        sha = line.get("commit") or ""
        if git(repo, "rev-parse", f"{sha}~1").strip() != head:
            problems.append(f"the rollback commit {sha[:10]} is not on the HEAD the command started from")
        if git(repo, "show", f"{sha}:prompt.md") != keep2:
            problems.append(f"the rollback commit {sha[:10]} does not hold cycle 2's artifact")
    return problems


def promote_problems(repo: Path, case: VersionCase, said: str, head: str, tip: str) -> list[str]:
    """A promote said finished (or done again by the next promote) brought the branch onto the user's
    HEAD; one said undone left HEAD where it was; a conflicting one never lands."""
    now = git(repo, "rev-parse", "HEAD").strip()
    landed = case.mode != "conflict" and ("was finished" in said or case.then == "same")
    if not landed:
        return [] if now == head else [f"HEAD moved to {now[:10]} though the promote {said.strip()}"]
    if not (ancestor(repo, tip, now) and ancestor(repo, head, now)):
        return [f"HEAD {now[:10]} does not hold both the user's commit and the branch ({said.strip()})"]
    return []


def head_problems(repo: Path, promote: bool) -> list[str]:
    """After the resume, the experiment's HEAD (the user's, or its worktree branch's) is its last KEEP."""
    keeps = [r for r in read_lines(repo) if r["decision"] == "keep"]
    head = git(repo, "rev-parse", "autoresearch/exp" if promote else "HEAD").strip()
    return [] if keeps and keeps[-1].get("commit") == head else [f"HEAD {head[:10]} is not the last KEEP's commit"]


def ancestor(repo: Path, older: str, newer: str) -> bool:
    return subprocess.run(["git", "merge-base", "--is-ancestor", older, newer], cwd=repo).returncode == 0
