"""In-process experiments for the unit tests of the cycle, the judge and crash repair.

A real git repository in a temp dir, the real session, loop and guard; only the
two ends are scripted: the evaluator scores the artifact's `test=score` lines,
and the mutator writes what the test tells it to, one step per cycle.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from autoresearch.mutators.base import MutationRequest, MutationResult
from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.config import load
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.startup.opening import open_session
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import EvalOutcome
from tests.helpers.repos import make_repo

CONFIG = "artifact: prompt.md\neval: {command: 'true'}\nmutator: {provider: command, command: 'true'}\n"


def scores(**by_test: float) -> str:
    """The artifact's text that the scripted evaluator scores as given, one `test=score` line each."""
    return "".join(f"{test}={score}\n" for test, score in by_test.items())


class ScriptedEval:
    """Each test's score is read from the artifact; an artifact line `fail` fails the eval, and a line `lost:N`
    says N attempts of its tasks were lost with their Ray node (as an evaluator on `executor: ray` notes them)."""

    def __init__(self, artifact: Path):
        self.artifact, self.runs = artifact, 0

    def check(self) -> None: ...

    def run(self, run_dir: Path) -> EvalOutcome:
        self.runs += 1
        text = self.artifact.read_text()
        words = text.split()
        lost = sum(int(word.removeprefix("lost:")) for word in words if word.startswith("lost:"))
        if "fail" in words:
            raise EvalFailed("the scripted eval failed", lost_attempts=lost)
        rows = [{"test_id": t, "score": float(s)} for t, s in (word.split("=") for word in words if "=" in word)]
        (run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        return EvalOutcome(rows, notes={"lost_attempts": lost} if lost else {})


Step = Callable[[MutationRequest], MutationResult]


class ScriptedMutator:
    """Cycle n runs `steps[n]`; a cycle with no step writes nothing (a no-change error)."""

    def __init__(self, steps: dict[int, Step]):
        self.steps = steps

    def check(self) -> None: ...

    def mutate(self, request: MutationRequest) -> MutationResult:
        step = self.steps.get(request.cycle)
        return step(request) if step else MutationResult("nothing")


def write(text: str, summary: str = "edit", also: dict[str, str] | None = None) -> Step:
    """A step that writes the artifact (and, with `also`, files outside it)."""

    def step(request: MutationRequest) -> MutationResult:
        request.artifact.write_text(text)
        for relative, content in (also or {}).items():
            (request.repo_root / relative).write_text(content)
        return MutationResult(summary)

    return step


def experiment(tmp_path: Path, artifact: str, steps: dict[int, Step], config: str = "") -> Session:
    """An opened session on a fresh repository whose artifact holds `artifact`."""
    repo = make_repo(
        tmp_path / "repo", {"prompt.md": artifact, "autoresearch.yaml": CONFIG + config, "notes.txt": "mine\n"}
    )
    daemonlog.setup(None, quiet=True)
    session = open_session(load(repo / "autoresearch.yaml"), repo)
    session.evaluator = ScriptedEval(repo / "prompt.md")
    session.mutator = ScriptedMutator(steps)
    return session


def lines(session: Session) -> list[dict]:
    return [json.loads(line) for line in session.paths.iterations.read_text().splitlines()]
