"""Run the same eval files through the real `agentv` CLI (4.42.4, installed in tests/agentv by .ci/run) and our runner.

Each side gets its own copy of the case directory in a fresh git repository
(AgentV resolves files up to the repository root), so neither sees the
other's output. Rows are keyed by (suite, test_id); `differences` lists every
test whose `score` differs (a test AgentV ran on several targets is keyed
`test@target`, as our rows are) by more than 1e-9 or whose `execution_status`
differs, and every test only one side ran. Eval files always name no target
here but their own; an evals.json names none, so a case holding one needs a
target called `default`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from autoresearch.plumbing.repo import find_repo_root
from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.parse import check
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.retry import DEFAULT_MAX_RETRIES
from autoresearch.runs.runner.settings import run_options

REPO = Path(__file__).resolve().parents[3]
AGENTV = REPO / "tests" / "agentv" / "node_modules" / ".bin" / "agentv"
SDK = REPO / "tests" / "agentv-sdk"  # AgentV's grader SDK, built from its vendored source, and tsx
AGENTV5 = REPO / "tests" / "agentv5" / "node_modules" / ".bin" / "agentv"  # 5.x, built from source (tests/agentv5)
# AgentV's node held after it starts each `docker` until that command has exited or waits, as on a busy machine
# (tests/helpers/descheduled_node.cjs): for the tests whose stand-in docker AgentV writes input to after starting it
DESCHEDULED_NODE = {"NODE_OPTIONS": f'--require="{REPO / "tests" / "helpers" / "descheduled_node.cjs"}"'}
EVAL_PATTERNS = ("*.eval.yaml", "*.eval.yml", "EVAL.yaml", "evals.json", "*.evals.json")
TOLERANCE = 1e-9
SERIAL = re.compile(r"^\s*workers:\s*1\s*$", re.M)
Key = tuple[str, str]


def agentv_binary(binary: Path = AGENTV) -> Path:
    """The pinned CLI; a missing one is an error telling how to install it (the parity tests never skip)."""
    if not binary.is_file():
        raise AssertionError(
            f"{binary} is missing: run `npm install --no-save --omit=optional` in {binary.parents[2]} (.ci/run does)"
        )
    return binary


def sdk_modules() -> Path:
    """The node_modules holding the built `@agentv/sdk` and `tsx`; missing, an error telling how to build them."""
    if not (SDK / "sdk" / "dist" / "index.js").is_file() or not (SDK / "node_modules" / ".bin" / "tsx").exists():
        raise AssertionError(f"{SDK} is not built: run `npm install --no-save` there (.ci/run does)")
    return SDK / "node_modules"


def eval_files(directory: Path) -> list[Path]:
    return sorted({p for pattern in EVAL_PATTERNS for p in directory.glob(pattern)})


def fresh_copy(source: Path, into: Path) -> Path:
    """`source` copied to `into`, made a git repository (files writable, as a user's checkout is); a case with a
    package.json (graders written with AgentV's SDK) gets the built SDK as its node_modules."""
    shutil.copytree(source, into, ignore=shutil.ignore_patterns("expected.jsonl", "__pycache__", "node_modules"))
    for path in [into, *into.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    if (into / "package.json").is_file():
        (into / "node_modules").symlink_to(sdk_modules(), target_is_directory=True)
    subprocess.run(["git", "init", "-q", str(into)], check=True)
    return into


def agentv_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment AgentV runs in: its own HOME (it writes ~/.agentv), nothing of the developer's."""
    home.mkdir(parents=True, exist_ok=True)
    return {"PATH": os.environ["PATH"], "HOME": str(home), "NO_COLOR": "1", "CI": "1", **(extra or {})}


AGENTV_SAID = "agentv-said.txt"  # in a run's output folder: AgentV's exit status and the ends of its output


def run_agentv(
    root: Path,
    files: list[Path],
    out: Path,
    env: dict[str, str] | None = None,
    target: str | None = None,
    retries: int | None = None,
    binary: Path = AGENTV,
) -> dict[Key, dict]:
    """Every file in one `agentv eval` call (Node starts once); rows keyed by (suite, test_id).

    Eight workers, unless a file asks for one (`workers: 1`, as a shared workspace must: AgentV's
    `--workers` would override it and run its tests at once in one directory, whose outcome is a race).
    `retries`: AgentV's `--max-retries` (None: its default, 2)."""
    chosen = ["--target", target] if target else []
    workers = [] if any(SERIAL.search(f.read_text(errors="replace")) for f in files) else ["--workers", "8"]
    retried = [] if retries is None else ["--max-retries", str(retries)]
    done = subprocess.run(
        [
            str(agentv_binary(binary)),
            "eval",
            "run",
            *(str(f) for f in files),
            "--output",
            str(out),
            *workers,
            *chosen,
            *retried,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        env=agentv_env(root.parent / "home", env),
    )
    # what it said, kept beside its rows: a test that finds rows missing names why (AGENTV_SAID)
    out.mkdir(parents=True, exist_ok=True)  # (after the run: AgentV makes it, unless it failed first)
    (out / AGENTV_SAID).write_text(f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    index = out / "index.jsonl" if binary == AGENTV else out / ".internal" / "index.jsonl"  # 5.x's run bundle
    assert index.is_file(), (
        f"agentv eval wrote no index.jsonl (exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    rows = [json.loads(line) for line in index.read_text().splitlines() if line.strip()]
    return {(row.get("suite", ""), row["test_id"]): row for row in _matrix_keyed(rows, files, target)}


def _matrix_keyed(rows: list[dict], files: list[Path], target: str | None) -> list[dict]:
    """AgentV's rows of the tests of matrix files (`execution.targets`, no `--target`) keyed `test@target`,
    as ours are. Several files of one call may share a suite name (AgentV's examples do, a matrix among
    them), so a row is told by its suite and test id, as our parse of each file names them."""
    matrix: set[Key] = set()
    for path in [] if target else files:
        suite, _ = check(path)
        if suite is not None and path.suffix != ".json" and len(suite.targets) > 1:
            matrix.update((suite.name, case.id) for case in suite.cases)
    return [
        {**row, "test_id": f"{row['test_id']}@{row.get('target')}"}
        if (row.get("suite", ""), row["test_id"]) in matrix
        else row
        for row in rows
    ]


def run_ours(
    root: Path, files: list[Path], out: Path, target: str | None = None, retries: int | None = None
) -> dict[Key, dict]:
    """Each file through the built-in runner; the suite name is AgentV's (the file's `name`, else its stem; none for
    evals.json). `retries`: eval.max_retries (None: its default, AgentV's)."""
    rows: dict[Key, dict] = {}
    for index, path in enumerate(files):
        prepared = prepare(path, find_repo_root(path.parent), target=target)
        run_dir = out / f"{index}-{path.stem}"
        retried = DEFAULT_MAX_RETRIES if retries is None else retries
        execute(prepared, run_dir, run_options(prepared.suite, 8, max_retries=retried), show_progress=False)
        suite = "" if path.suffix == ".json" else prepared.suite.name
        for row in load_rows(run_dir):
            rows[(suite, row["test_id"])] = row
    return rows


def differences(theirs: dict[Key, dict], ours: dict[Key, dict]) -> list[str]:
    theirs = _suite_named(theirs, ours)
    found = [f"{key}: only agentv ran it" for key in sorted(theirs.keys() - ours.keys())]
    found += [f"{key}: only autoresearch ran it" for key in sorted(ours.keys() - theirs.keys())]
    for key in sorted(theirs.keys() & ours.keys()):
        a, b = theirs[key], ours[key]
        if abs(float(a["score"]) - float(b["score"])) > TOLERANCE or a.get("execution_status") != b.get(
            "execution_status"
        ):
            found.append(
                f"{key}: agentv {a['score']} {a.get('execution_status')} vs ours {b['score']} {b.get('execution_status')} ({b.get('error') or ''})"
            )
    return found


def _suite_named(theirs: dict[Key, dict], ours: dict[Key, dict]) -> dict[Key, dict]:
    """AgentV's rows with the suite of ours where AgentV wrote none: the rows of a file whose workspace setup
    failed (its error rows carry no suite), matched by test id when exactly one of our rows is left with it."""
    named = dict(theirs)
    for suite, test_id in [key for key in theirs if key[0] == "" and key not in ours]:
        left = [key for key in ours if key[1] == test_id and key not in theirs]
        if len(left) == 1:
            named[left[0]] = named.pop(("", test_id))
    return named


def validate_with_agentv(
    root: Path, paths: list[Path], binary: Path = AGENTV, env: dict[str, str] | None = None
) -> dict[str, bool]:
    """`agentv validate` once over many files: each file's path (relative to root) and whether it is valid."""
    done = subprocess.run(
        [str(agentv_binary(binary)), "validate", *(str(p) for p in paths)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=agentv_env(root.parent / "home", env),
    )
    verdicts = {}
    for line in done.stdout.splitlines():
        mark, _, name = line.strip().partition(" ")
        if mark in ("✓", "✗") and name:
            verdicts[str(Path(name).resolve().relative_to(root.resolve()))] = mark == "✓"
    return verdicts


def validate_with_us(path: Path, env: dict[str, str] | None = None, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "validate", str(path), *args],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
