"""Kill and signal the daemon at every phase, feed it misbehaving mutators, and check what is left.

Each case runs the real CLI on a fresh repository (the crash tests' scenario:
five cycles, two KEEPs, two DROPs) holding some of the user's own work: a
tracked file, an untracked one, a staged change. Then:

- kill points (optimizer/faults.py) at every phase, each hit with SIGKILL, with
  SIGTERM, and with SIGINT to the daemon's whole process group (Ctrl-C in a
  terminal, `timeout`, systemd);
- git writes held open by a `git` wrapper on the daemon's PATH: inside a commit
  (the repository's prepare-commit-msg hook is let run for it and waits, index
  lock taken) and before a restore's checkout; the campaign then SIGKILLs the
  daemon, the daemon and its git, or its git alone, or signals the group, and
  lets git go on;
- command mutators that misbehave: writing outside the artifact, switching
  branch, detaching HEAD, deleting the artifact, leaving a child running;
- LLM mutators (both providers, against tests/helpers/fake_llm.py on
  127.0.0.1) whose first mutation gets only malformed 200s: a body that is not
  JSON, `choices` a string, `usage` a list, `content` a number, a stream cut
  mid-way, a plain body where a stream was asked for. That cycle must be an
  `error` cycle once its retries (MAX_ATTEMPTS) run out, the next cycle's good
  reply kept, the run ended with exit 0, and no traceback on stderr or in
  daemon.log.

After each fault it resumes the experiment (`run` again; not after a run that
ended with exit 0: a run on an existing experiment makes new cycles) and checks
the invariants: HEAD on the user's branch and equal to the last KEEP, the autoresearch
commits on the branch exactly the logged KEEPs, iterations.jsonl whole JSON
lines, the user's files and index untouched, no git lock and no process left in
the repository, and (for kills and signals) the same decisions and artifact as
a run never interrupted. It prints each violation and their count (goal: 0).

Usage: python bench/fault_campaign.py [--only SUBSTRING] [--list]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.faults import ENV  # noqa: E402
from autoresearch.optimizer.gitrepo.gitcmd import processes_in  # noqa: E402
from tests.helpers.fake_llm import (  # noqa: E402
    FakeLLM,
    Reply,
    cut_stream,
    patched_reply,
    plain_reply,
    raw_reply,
    text_reply,
    tool_reply,
)
from tests.helpers.repos import GIT_ENV, git  # noqa: E402
from tests.helpers.scenario import scenario_repo, scores  # noqa: E402

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break a"},
    4: {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "fix b"},
    5: {"write": {"prompt.md": scores(a=1, b=1, c=0) + "# longer\n"}, "summary": "pad"},
}
REFERENCE = ["keep", "keep", "drop", "keep", "drop"]
FINAL = scores(a=1, b=1, c=0)
# kill point -> the passes at which it is hit (an uninterrupted run passes each several times)
POINTS = {
    "before-eval": (1, 3),
    "after-eval": (1,),
    "before-mutate": (1,),
    "after-mutate": (1,),
    "before-commit": (1, 2),
    "after-commit": (1, 2),
    "after-patch": (1, 2),
    "before-append": (2,),
    "after-append": (2,),
    "after-state": (2,),
}
SIGNALS = {"SIGKILL": "SIGKILL", "SIGTERM": "SIGTERM", "SIGINT-group": "SIGINT:group"}
LLM_KEY = {"CAMPAIGN_LLM_KEY": "sk-campaign-not-a-real-key"}
MAX_ATTEMPTS = 2  # tries per request in the LLM cases: the malformed reply is served this many times in a row
LLM_DECISIONS = ["keep", "error", "keep"]  # the baseline, the malformed replies' cycle, the good reply's cycle
USER_FILES = {"notes.md": "the user's notes\n", "staged.txt": "committed\n"}
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
BAD_MUTATOR = """
import os, subprocess, sys
subprocess.run([sys.executable, "tools/mutate.py"], check=True)
bad = os.environ.get("CAMPAIGN_BAD", "")
if os.environ["AUTORESEARCH_CYCLE"] != "2" or not bad:
    sys.exit(0)
if bad == "outside":
    open("notes.md", "a").write("the mutator was here\\n")
    open("planted.txt", "w").write("planted\\n")
elif bad == "branch":
    subprocess.run(["git", "checkout", "-q", "-b", "elsewhere"], check=True)
elif bad == "detach":
    subprocess.run(["git", "checkout", "-q", "--detach"], check=True)
elif bad == "delete":
    os.remove("prompt.md")
elif bad == "child":
    child = subprocess.Popen(["sleep", "600"])
    open(os.path.join(os.environ["CAMPAIGN_DIR"], "child.pid"), "w").write(str(child.pid))
"""


@dataclass
class Case:
    name: str
    env: dict = field(default_factory=dict)  # for the faulted run
    expect: tuple[int, ...] = (0,)  # exit codes the faulted run may end with
    outside: str | None = None  # what the campaign does once a gated git is reached
    reference: bool = True  # the resumed experiment must end as an uninterrupted run does
    decisions: list[str] | None = None  # else: the decisions this case must end with
    llm: tuple[str, bool, Reply] | None = None  # an LLM mutator (protocol, stream) whose first mutation gets this reply


def kill_point_cases() -> list[Case]:
    cases = []
    for point, passes in POINTS.items():
        for n in passes:
            for label, spec in SIGNALS.items():
                code = -signal.SIGKILL if label == "SIGKILL" else 130
                cases.append(Case(f"{point}-{n}-{label}", {ENV: f"{point}:{n}:{spec}"}, (code,)))
    return cases


def git_window_cases() -> list[Case]:
    cases = []
    for gate in ("commit:1", "commit:2", "checkout:1"):
        for outside, code in (
            ("kill-daemon", -signal.SIGKILL),
            ("kill-daemon-and-git", -signal.SIGKILL),
            ("kill-git", 50),
            ("term-group", 130),
            ("int-group", 130),
        ):
            cases.append(Case(f"git-{gate.replace(':', '-')}-{outside}", {"CAMPAIGN_GATE": gate}, (code,), outside))
    return cases


def mutator_cases() -> list[Case]:
    return [
        Case(
            "mutator-writes-outside",
            {"CAMPAIGN_BAD": "outside"},
            (0,),
            reference=False,
            decisions=["keep", "error", "error", "keep", "drop"],
        ),
        Case("mutator-switches-branch", {"CAMPAIGN_BAD": "branch"}, (20,)),
        Case("mutator-detaches-head", {"CAMPAIGN_BAD": "detach"}, (20,)),
        Case(
            "mutator-deletes-artifact",
            {"CAMPAIGN_BAD": "delete"},
            (0,),
            reference=False,
            decisions=["keep", "error", "error", "keep", "drop"],
        ),
        Case("mutator-leaves-a-child", {"CAMPAIGN_BAD": "child"}, (0,)),
    ]


def llm_cases() -> list[Case]:
    both = ("anthropic", "openai")
    replies = [
        *[(p, False, "invalid-json", raw_reply('{"choices": [{"mess', "application/json")) for p in both],
        ("openai", False, "choices-a-string", patched_reply({"choices": "oops"})),
        *[(p, False, "usage-a-list", patched_reply({"usage": [1, 2]})) for p in both],
        ("openai", False, "content-a-number", patched_reply({"choices.0.message.content": 5})),
        ("anthropic", False, "content-a-number", patched_reply({"content": 5})),
        *[(p, True, "stream-cut", cut_stream(2)) for p in both],
        *[(p, True, "stream-ends-early", cut_stream(2, hang_up=False)) for p in both],
        *[(p, True, "plain-for-a-stream", plain_reply("whole")) for p in both],
    ]
    return [
        Case(f"llm-{p}-{label}", LLM_KEY, (0,), reference=False, decisions=LLM_DECISIONS, llm=(p, stream, reply))
        for p, stream, label, reply in replies
    ]


def llm_mutator(llm: FakeLLM, protocol: str, stream: bool) -> dict:
    return {
        "provider": protocol,
        "model": "claude-haiku-4-5",
        "api_key_env": next(iter(LLM_KEY)),
        "base_url": llm.base_url(protocol),
        "stream": stream,
        "max_attempts": MAX_ATTEMPTS,
        "retry_base_s": 0.01,
    }


def serve(llm: FakeLLM, bad: Reply) -> None:
    """The first mutation's requests get `bad` until its retries run out; the next one edits the artifact;
    any later request changes nothing."""
    script = deque(
        [
            *[bad] * MAX_ATTEMPTS,
            tool_reply("read_file", {"path": "prompt.md"}),
            tool_reply("write_file", {"path": "prompt.md", "content": scores(a=1, b=0, c=0)}),
            text_reply("fix a"),
        ]
    )
    llm.handler = lambda request: script.popleft() if script else text_reply("nothing left to change")


class Campaign:
    def __init__(self, work: Path, llm: FakeLLM):
        self.work = work
        self.llm = llm
        self.bin = work / "bin"
        self.bin.mkdir()
        wrapper = self.bin / "git"
        wrapper.write_text(WRAPPER.format(python=sys.executable, git=shutil.which("git")))
        wrapper.chmod(0o755)
        self.hooks = work / "hooks"
        self.hooks.mkdir()
        (self.hooks / "prepare-commit-msg").write_text(HOOK)
        (self.hooks / "prepare-commit-msg").chmod(0o755)

    def repo(self, case: Case) -> tuple[Path, dict]:
        root = self.work / case.name
        extra = {"tools/bad.py": BAD_MUTATOR, **USER_FILES}
        config = {"mutator": {"command": "python3 tools/bad.py"}}
        repo = scenario_repo(root / "r", {"prompt.md": scores(a=0, b=0, c=0)}, PLAN, config=config, extra_files=extra)
        if case.llm:
            protocol, stream, bad = case.llm
            settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
            settings["mutator"] = llm_mutator(self.llm, protocol, stream)
            settings["stop"]["max_cycles"] = len(LLM_DECISIONS)
            (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
            git(repo, "commit", "-qam", "an LLM mutator")
            serve(self.llm, bad)
        (repo / "staged.txt").write_text("staged by the user\n")
        git(repo, "add", "staged.txt")
        (repo / "staged.txt").write_text("staged, then edited again\n")
        (repo / "scratch.txt").write_text("untracked work\n")
        env = {
            **os.environ,
            **GIT_ENV,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "CAMPAIGN_DIR": str(root),
            "CAMPAIGN_HOOKS": str(self.hooks),
        }
        return repo, env

    def run_case(self, case: Case) -> list[str]:
        repo, env = self.repo(case)
        before = user_state(repo)
        code = self.faulted_run(repo, {**env, **case.env}, case)
        problems = [] if code in case.expect else [f"the faulted run exited {code}, expected {case.expect}"]
        (repo.parent / "gate").touch()
        # a run that ended as planned is not resumed: another run would make new cycles of its own
        resumed = "" if code == 0 else resume(repo)
        problems += [resumed] if resumed.startswith("the resume exited") else []
        problems += invariants(repo, before)
        problems += tracebacks(repo, resumed)
        if case.llm:
            problems += gave_up(repo)
        decisions = [r["decision"] for r in read_lines(repo)]
        wanted = REFERENCE if case.reference else case.decisions
        if wanted is not None and decisions != wanted:
            problems.append(f"decisions {decisions}, an uninterrupted run makes {wanted}")
        if case.reference and (repo / "prompt.md").read_text() != FINAL:
            problems.append("the artifact differs from an uninterrupted run's")
        return problems

    def faulted_run(self, repo: Path, env: dict, case: Case) -> int:
        with open(repo.parent / "stderr", "wb") as stderr:
            daemon = subprocess.Popen(
                [sys.executable, "-m", "autoresearch.optimizer", "run"],
                cwd=repo,
                env=env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        if case.outside:
            marker = repo.parent / "in-git"
            deadline = time.monotonic() + TIMEOUT_S
            while not (marker.exists() and marker.read_text().strip()) and daemon.poll() is None:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            if marker.exists() and marker.read_text().strip():
                held = int(marker.read_text())
                strike(case.outside, daemon.pid, held)
                (repo.parent / "gate").touch()
        try:
            return daemon.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(daemon.pid, signal.SIGKILL)
            return daemon.wait()


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


def resume(repo: Path) -> str:
    """Run the experiment again; its stderr, or what went wrong."""
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    return (
        done.stderr if done.returncode in (0, 10) else f"the resume exited {done.returncode}: {last_line(done.stderr)}"
    )


def gave_up(repo: Path) -> list[str]:
    """The malformed replies' cycle ended because its retries ran out, and says so."""
    errors = [r.get("error") or "" for r in read_lines(repo) if r["decision"] == "error"]
    wanted = f"gave up after {MAX_ATTEMPTS} attempts"
    return [] if errors and wanted in errors[0] else [f"the error cycle does not say '{wanted}': {errors[:1]}"]


def user_state(repo: Path) -> dict:
    """The user's own work: file bytes, the staged version, and the index entries outside the artifact."""
    return {
        "files": {name: (repo / name).read_bytes() for name in ("notes.md", "staged.txt", "scratch.txt")},
        "index": [line for line in git(repo, "ls-files", "-s").splitlines() if not line.endswith("\tprompt.md")],
        "staged": git(repo, "show", ":staged.txt"),
    }


def invariants(repo: Path, before: dict) -> list[str]:
    problems = []
    lines = read_lines(repo, problems)
    if (
        subprocess.run(["git", "symbolic-ref", "-q", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
        != "refs/heads/main"
    ):
        problems.append("HEAD is not on the user's branch main")
    head = git(repo, "rev-parse", "HEAD").strip()
    keeps = [r for r in lines if r["decision"] == "keep"]
    if keeps and keeps[-1].get("commit") != head:
        problems.append(f"HEAD {head[:10]} is not the last KEEP's commit")
    ours = git(repo, "log", "--first-parent", "--format=%H %s").splitlines()
    committed = [line.split()[0] for line in ours if " autoresearch cycle " in f" {line.split(' ', 1)[1]}"]
    logged = [r["commit"] for r in keeps if r["cycle"] > 1]
    if list(reversed(committed)) != logged:
        problems.append(f"the autoresearch commits on main ({len(committed)}) are not the logged KEEPs ({len(logged)})")
    if git(repo, "status", "--porcelain", "--", "prompt.md").strip():
        problems.append("the artifact differs from HEAD after the run")
    after = user_state(repo)
    for key, value in before.items():
        if after[key] != value:
            problems.append(f"the user's {key} changed")
    if (repo / "planted.txt").exists():
        problems.append("a file the mutator planted outside the artifact is still there")
    locks = [str(p.relative_to(repo)) for p in (repo / ".git").rglob("*.lock")]
    if locks:
        problems.append(f"git locks left: {locks}")
    left = processes_left(repo.parent)
    if left:
        problems.append(f"processes left running: {left}")
    return problems


def tracebacks(repo: Path, resumed_stderr: str) -> list[str]:
    """A traceback anywhere the user reads: the faulted run's stderr, the resume's, daemon.log."""
    where = {
        "the faulted run's stderr": (repo.parent / "stderr").read_text(errors="replace"),
        "the resume's stderr": resumed_stderr,
        **{
            str(log.relative_to(repo)): log.read_text(errors="replace")
            for log in (repo / ".autoresearch").rglob("daemon.log")
        },
    }
    return [f"a traceback in {name}" for name, text in where.items() if "Traceback (most recent call last)" in text]


def read_lines(repo: Path, problems: list[str] | None = None) -> list[dict]:
    path = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    text = path.read_text() if path.exists() else ""
    if text and not text.endswith("\n") and problems is not None:
        problems.append("iterations.jsonl ends in a torn line")
    records = []
    for line in text.splitlines():
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="Run only the cases whose name contains this.")
    parser.add_argument("--list", action="store_true", help="List the cases and exit.")
    args = parser.parse_args()
    cases = [
        c for c in [*kill_point_cases(), *git_window_cases(), *mutator_cases(), *llm_cases()] if args.only in c.name
    ]
    if args.list:
        print("\n".join(c.name for c in cases))
        return 0
    violations = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fault-campaign-") as tmp, FakeLLM() as llm:
        campaign = Campaign(Path(tmp), llm)
        for case in cases:
            problems = campaign.run_case(case)
            violations += len(problems)
            print(
                f"{'ok ' if not problems else 'BAD'} {case.name}" + "".join(f"\n      {p}" for p in problems),
                flush=True,
            )
    print(f"{len(cases)} cases, {violations} invariant violations, {time.monotonic() - started:.0f} s")
    return 1 if violations else 0


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


if __name__ == "__main__":
    sys.exit(main())
