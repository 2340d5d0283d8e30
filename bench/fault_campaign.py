"""Kill and signal the daemon at every phase and inside the version commands, feed it misbehaving
mutators, and check what is left.

Each case runs the real CLI on a fresh repository (the crash tests' scenario:
five cycles, two KEEPs, two DROPs) holding some of the user's own work: a
tracked file, an untracked one, a staged change. Then:

- kill points (plumbing/faults.py) at every phase, each hit with SIGKILL, with
  SIGTERM, and with SIGINT to the daemon's whole process group (Ctrl-C in a
  terminal, `timeout`, systemd); the digest's write over its last bytes with the
  mutator in the sandbox (where it is written in place);
- the decision's in-process git writes (optimizer/gitrepo/direct.py) killed or signalled at each of their
  points (the kill points above: its objects written, its index written, its branch moved; a DROP's file
  written beside the artifact, then renamed in);
- git writes held open by a `git` wrapper on the daemon's PATH (the repository set with core.autocrlf, which
  leaves the decision's commit and restore to git): inside a commit
  (the repository's prepare-commit-msg hook is let run for it and waits, index
  lock taken) and before a restore's checkout; the campaign then SIGKILLs the
  daemon, the daemon and its git, or its git alone, or signals the group, and
  lets git go on;
- command mutators that misbehave: writing outside the artifact, switching
  branch, detaching HEAD, deleting the artifact, leaving a child running,
  cutting iterations.jsonl mid-line or rewriting it in place and then killing
  the daemon (the next start puts the daemon's lines back from its copy);
- hostile command mutators, each in the sandbox (`mutator.sandbox: auto`, with
  bubblewrap) and with `sandbox: off`: one deleting every lock file it finds in
  the repository while the campaign starts a second `run` of the experiment
  (refused, or the first run not broken), one running `git clean -ffdx` in its
  checkout and in the user's, one removing everything in both but `.git` and
  the artifact;
- LLM mutators (both providers, against tests/helpers/fake_llm.py on
  127.0.0.1) whose first mutation gets only malformed 200s: a body that is not
  JSON, `choices` a string, `usage` a list, `content` a number, a stream cut
  mid-way, a plain body where a stream was asked for. That cycle must be an
  `error` cycle once its retries (MAX_ATTEMPTS) run out, the next cycle's good
  reply kept, the run ended with exit 0, and no traceback on stderr or in
  daemon.log;
- `rollback --to` and `promote` struck at their kill points and inside their
  gits, each followed by the next command (bench/fault_versions.py says how).

After each fault of a run it resumes the experiment (`run` again; not after a
run that ended with exit 0: a run on an existing experiment makes new cycles)
and checks the invariants: HEAD on the user's branch and equal to the last
KEEP, the autoresearch commits on the branch exactly the logged KEEPs,
iterations.jsonl whole JSON lines, the user's files and index untouched, no git
lock and no process left in the repository, and (for kills and signals) the
same decisions and artifact as a run never interrupted. It prints each
violation, per case, and their count (goal: 0).

Usage: python bench/fault_campaign.py [--only SUBSTRING] [--list]
"""

from __future__ import annotations

import argparse
import os
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

from autoresearch.plumbing.faults import ENV  # noqa: E402
from bench.fault_harness import (  # noqa: E402
    PLAN,
    TIMEOUT_S,
    USER_FILES,
    Harness,
    add_user_work,
    checkout_problems,
    finish,
    last_line,
    read_lines,
    start,
    struck,
    tracebacks,
    user_state,
)
from bench.fault_versions import VersionCase, run_version_case, version_cases  # noqa: E402
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

REFERENCE = ["keep", "keep", "drop", "keep", "drop"]
FINAL = scores(a=1, b=1, c=0)
# kill point -> the passes at which it is hit (an uninterrupted run passes each several times)
POINTS = {
    "before-eval": (1, 3),
    "after-eval": (1,),
    "before-mutate": (1,),
    "after-mutate": (1,),
    "before-commit": (1, 2),
    "late-writes-checked": (1, 2),  # a write since the eval undone (its KEEP's line written down), not committed
    "after-commit": (1, 2),
    "after-patch": (1, 2),
    "before-append": (2,),
    "between-appends": (2,),  # the line in the daemon's copy, not yet in iterations.jsonl
    "after-append": (2,),
    "after-state": (2,),
    "process.started": (1, 3),  # a command started, its group not yet told to the watcher: the eval, a mutator
    # inside the decision's in-process git writes (autoresearch.optimizer.gitrepo.direct): a KEEP's commit with its
    # objects written (index.lock held), its index written (the branch not yet moved), HEAD.lock taken (before the
    # branch's lock, as git's commit takes it), the two reflog lines appended under both locks (the branch not yet
    # moved: branchmove), its branch moved (the journal's note not yet blanked); a DROP's file written beside the
    # artifact, then renamed over it
    "direct-objects-written": (1, 2),
    "direct-index-written": (1, 2),
    "head-locked": (1, 2),
    "branchmove-logged": (1,),
    "direct-ref-updated": (1,),
    "direct-scratch-written": (1, 2),
    "direct-file-written": (1,),
}
# the same, with the mutator in the sandbox: the digest is written over in place only where no mirror holds a
# second name of it (autoresearch.plumbing.inplace.cut); the throwaway checkout's index, after a KEEP, written
# (in place, or to index.lock) and not yet cut to its length or renamed; the checkout's artifact written over in
# place by the put-back, and the candidate over the user's artifact by the carry, neither yet cut to its length
SANDBOXED_POINTS = {
    "digest-overwritten": (1, 3),
    "putback-index-written": (1,),
    "putback-artifact-written": (1, 2),
    "carry-written": (1, 2),
}
# reached only once the configuration files are settled (the put-back's own writes: `settle`)
SETTLED_POINTS = {"putback-index-written", "putback-artifact-written"}
SETTLED_S = 1.1  # gitconfig._SETTLED, and a margin for the file system's clock
SIGNALS = {"SIGKILL": "SIGKILL", "SIGTERM": "SIGTERM", "SIGINT-group": "SIGINT:group"}
LLM_KEY = {"CAMPAIGN_LLM_KEY": "sk-campaign-not-a-real-key"}
MAX_ATTEMPTS = 2  # tries per request in the LLM cases: the malformed reply is served this many times in a row
LLM_DECISIONS = ["keep", "error", "keep"]  # the baseline, the malformed replies' cycle, the good reply's cycle
GUARDED = ["keep", "error", "error", "keep", "drop"]  # the scope guard undid cycle 2's mutation
SECOND_WAIT_S = 60  # how long a second run started during a mutation is let run

BAD_MUTATOR = """
import os, subprocess, sys, time
from pathlib import Path
bad = os.environ.get("CAMPAIGN_BAD", "") if os.environ["AUTORESEARCH_CYCLE"] == "2" else ""
repo = Path(os.environ.get("CAMPAIGN_DIR", "."), "r")  # the user's checkout, wherever the mutator works
if bad == "lock":  # every lock file it finds in the repository, then wait while the campaign starts a second run
    hand = Path(os.environ["CAMPAIGN_DIR"], "hand")
    gone = []
    for path in [*repo.rglob("*lock*"), *Path().rglob("*lock*")]:
        try:
            path.unlink()
            gone.append(str(path))
        except OSError:
            pass
    (hand / "tried").write_text("\\n".join(gone))
    while not (hand / "go").exists():
        time.sleep(0.02)
subprocess.run([sys.executable, "tools/mutate.py"], check=True)
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
elif bad == "clean":  # as coding agents tidy up: where it works, and in the user's checkout
    subprocess.run(["git", "clean", "-ffdx"], capture_output=True)
    subprocess.run(["git", "-C", str(repo), "clean", "-ffdx"], capture_output=True)
elif bad in ("cut", "rewrite"):  # the history cut mid-line or rewritten in place, then the daemon killed
    folder = repo / ".autoresearch/runs/exp/_autoresearch"
    history = folder / "iterations.jsonl"
    data = history.read_bytes()
    history.write_bytes(data[:-20] if bad == "cut" else data.replace(b'"keep"', b'"drop"'))
    import json
    os.kill(json.loads((folder / "state.json").read_text())["pid"], 9)
elif bad == "rm":  # everything but git's folder and the artifact, there and in the user's checkout
    for here in (Path(), repo):
        for entry in os.listdir(here):
            if entry not in (".git", "prompt.md"):
                subprocess.run(["rm", "-rf", str(here / entry)], capture_output=True)
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
    sandbox: str = "off"  # the command mutator's `mutator.sandbox`
    second: bool = False  # a second `run` is started once the mutator has deleted the lock files
    settled: bool = False  # the faulted run starts once the repository's configuration is settled (`settle`)


def kill_point_cases() -> list[Case]:
    cases = []
    for points, sandbox in ((POINTS, "off"), (SANDBOXED_POINTS, "auto")):
        for point, passes in points.items():
            for n in passes:
                for label, spec in SIGNALS.items():
                    code = -signal.SIGKILL if label == "SIGKILL" else 130
                    cases.append(
                        Case(
                            f"{point}-{n}-{label}",
                            {ENV: f"{point}:{n}:{spec}"},
                            (code,),
                            sandbox=sandbox,
                            settled=point in SETTLED_POINTS,
                        )
                    )
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
            decisions=GUARDED,
        ),
        Case("mutator-switches-branch", {"CAMPAIGN_BAD": "branch"}, (20,)),
        Case("mutator-detaches-head", {"CAMPAIGN_BAD": "detach"}, (20,)),
        Case(
            "mutator-deletes-artifact",
            {"CAMPAIGN_BAD": "delete"},
            (0,),
            reference=False,
            decisions=GUARDED,
        ),
        Case("mutator-leaves-a-child", {"CAMPAIGN_BAD": "child"}, (0,)),
        Case("mutator-cuts-the-history-then-the-daemon-dies", {"CAMPAIGN_BAD": "cut"}, (-signal.SIGKILL,)),
        Case("mutator-rewrites-the-history-then-the-daemon-dies", {"CAMPAIGN_BAD": "rewrite"}, (-signal.SIGKILL,)),
    ]


def hostile_cases() -> list[Case]:
    """Whatever the mutator broke outside the artifact, in the sandbox's throwaway checkout or (without) in the
    user's, is refused and undone: cycle 2 an error. A `git clean` in the sandbox's checkout breaks nothing
    of the user's. A lock deleted must not let a second run in."""
    cases = []
    for sandbox in ("auto", "off"):
        cleaned = {} if sandbox == "auto" else {"reference": False, "decisions": GUARDED}
        cases += [
            Case(
                f"sandbox-{sandbox}-mutator-deletes-the-lock",
                {"CAMPAIGN_BAD": "lock"},
                sandbox=sandbox,
                second=True,
                **cleaned,  # without the sandbox, deleting the lock files is a change outside the artifact
            ),
            Case(f"sandbox-{sandbox}-mutator-git-clean-ffdx", {"CAMPAIGN_BAD": "clean"}, sandbox=sandbox, **cleaned),
            Case(
                f"sandbox-{sandbox}-mutator-rm-rf-the-rest",
                {"CAMPAIGN_BAD": "rm"},
                sandbox=sandbox,
                reference=False,
                decisions=GUARDED,
            ),
        ]
    return cases


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
    def __init__(self, harness: Harness, llm: FakeLLM):
        self.harness = harness
        self.llm = llm

    def repo(self, case: Case) -> tuple[Path, dict]:
        root = self.harness.work / case.name
        extra = {"tools/bad.py": BAD_MUTATOR, **USER_FILES}
        hand = root / "hand"  # where the lock-deleting mutator and the campaign meet, writable in the sandbox
        hand.mkdir(parents=True)
        config = {
            "mutator": {"command": "python3 tools/bad.py", "sandbox": {"mode": case.sandbox, "writable": [str(hand)]}}
        }
        repo = scenario_repo(root / "r", {"prompt.md": scores(a=0, b=0, c=0)}, PLAN, config=config, extra_files=extra)
        if case.llm:
            protocol, stream, bad = case.llm
            settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
            settings["mutator"] = llm_mutator(self.llm, protocol, stream)
            settings["stop"]["max_cycles"] = len(LLM_DECISIONS)
            (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
            git(repo, "commit", "-qam", "an LLM mutator")
            serve(self.llm, bad)
        if case.outside:  # a git held open: the commit and restore left to git (see gitrepo.direct)
            git(repo, "config", "core.autocrlf", "input")
        add_user_work(repo)
        if case.settled:
            settle(repo)
        return repo, self.harness.env(root)

    def run_case(self, case: Case) -> list[str]:
        repo, env = self.repo(case)
        before = user_state(repo)
        if case.second:
            code, second = self.with_a_second_run(repo, {**env, **case.env})
        else:
            code, second = struck(repo, ["run"], {**env, **case.env}, case.outside), None
        problems = [] if code in case.expect else [f"the faulted run exited {code}, expected {case.expect}"]
        (repo.parent / "gate").touch()
        # a run that ended as planned is not resumed: another run would make new cycles of its own
        resumed = "" if code == 0 else resume(repo)
        problems += [resumed] if resumed.startswith("the resume exited") else []
        problems += invariants(repo, before)
        where = {"the faulted run's stderr": (repo.parent / "stderr").read_text(errors="replace")}
        problems += tracebacks(repo, {**where, "the resume's stderr": resumed})
        if case.llm:
            problems += gave_up(repo)
        decisions = [r["decision"] for r in read_lines(repo)]
        wanted = REFERENCE if case.reference else case.decisions
        if wanted is not None and decisions != wanted:
            problems.append(f"decisions {decisions}, an uninterrupted run makes {wanted}")
        if case.reference and (repo / "prompt.md").read_text() != FINAL:
            problems.append("the artifact differs from an uninterrupted run's")
        if second is not None and second.returncode != 30 and problems:
            problems.insert(0, f"a second run, started meanwhile, was not refused: exit {second.returncode}")
        return problems

    def with_a_second_run(self, repo: Path, env: dict) -> tuple[int, subprocess.CompletedProcess | None]:
        """The run, and a second one started once its mutator has deleted what lock files it could; the
        first goes on when the second has ended (or after SECOND_WAIT_S)."""
        hand = repo.parent / "hand"
        daemon = start(repo, ["run"], env)
        deadline = time.monotonic() + TIMEOUT_S
        while not (hand / "tried").exists() and daemon.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        second = None
        if (hand / "tried").exists():
            plain = {k: v for k, v in env.items() if k != "CAMPAIGN_BAD"}
            try:
                second = subprocess.run(
                    [sys.executable, "-m", "autoresearch.optimizer", "run"],
                    cwd=repo,
                    env=plain,
                    capture_output=True,
                    text=True,
                    timeout=SECOND_WAIT_S,
                    start_new_session=True,
                )
            except subprocess.TimeoutExpired:
                pass  # still running: the first is let go on beside it (its processes are then left, and said)
        (hand / "go").touch()
        return finish(daemon), second


def settle(repo: Path) -> None:
    """Wait until the repository's configuration and attributes files changed more than a second ago. The
    throwaway checkout's put-back trusts what it read of them only then (a write in the same clock tick would
    keep their times: autoresearch.optimizer.gitrepo.gitconfig), and otherwise leaves the put-back to
    libgit2's checkout: a run started right after the repository was made never reached its own write, and the
    case's kill point was hit or missed by how fast the machine ran."""
    files = [repo / ".git" / "config", repo / ".git" / "info" / "attributes", repo / ".gitattributes"]
    changed = max((f.stat().st_ctime for f in files if f.exists()), default=0.0)
    time.sleep(max(0.0, changed + SETTLED_S - time.time()))


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


def invariants(repo: Path, before: dict) -> list[str]:
    problems: list[str] = []
    lines = read_lines(repo, problems)
    head = git(repo, "rev-parse", "HEAD").strip()
    keeps = [r for r in lines if r["decision"] == "keep"]
    if keeps and keeps[-1].get("commit") != head:
        problems.append(f"HEAD {head[:10]} is not the last KEEP's commit")
    if not lines:
        problems.append("iterations.jsonl is gone or empty")
    ours = git(repo, "log", "--first-parent", "--format=%H %s").splitlines()
    committed = [line.split()[0] for line in ours if " autoresearch cycle " in f" {line.split(' ', 1)[1]}"]
    logged = [r["commit"] for r in keeps if r["cycle"] > 1]
    if list(reversed(committed)) != logged:
        problems.append(f"the autoresearch commits on main ({len(committed)}) are not the logged KEEPs ({len(logged)})")
    problems += checkout_problems(repo, before)
    if (repo / "planted.txt").exists():
        problems.append("a file the mutator planted outside the artifact is still there")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="Run only the cases whose name contains this.")
    parser.add_argument("--list", action="store_true", help="List the cases and exit.")
    args = parser.parse_args()
    every: list[Case | VersionCase] = [
        *kill_point_cases(),
        *git_window_cases(),
        *mutator_cases(),
        *hostile_cases(),
        *llm_cases(),
        *version_cases(),
    ]
    cases = [c for c in every if args.only in c.name]
    if args.list:
        print("\n".join(c.name for c in cases))
        return 0
    violations = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fault-campaign-") as tmp, FakeLLM() as llm:
        harness = Harness(Path(tmp))
        campaign = Campaign(harness, llm)
        for case in cases:
            problems = run_version_case(harness, case) if isinstance(case, VersionCase) else campaign.run_case(case)
            violations += len(problems)
            print(
                f"{'ok ' if not problems else 'BAD'} {case.name}" + "".join(f"\n      {p}" for p in problems),
                flush=True,
            )
    print(f"{len(cases)} cases, {violations} invariant violations, {time.monotonic() - started:.0f} s")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
