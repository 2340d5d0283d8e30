"""The built-in evaluator: an EVAL.yaml or evals.json run natively, no Node and no agentv CLI.

`prepare` loads the eval file and its targets (every problem at once, exit 30);
`execute` runs it into an AgentV run directory and returns the rows. On an
executor each test attempt is one task (`attempt_in`), except in an eval whose
tests share an AgentV workspace: they take turns in it, so the whole eval is
one task (`eval_in`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autoresearch.plumbing import redact
from autoresearch.plumbing.program import missing_program
from autoresearch.providers.errors import ProviderUnusable
from autoresearch.runs import matrix
from autoresearch.runs.errors import EvalFailed, RunsError
from autoresearch.runs.evalfile.interpolate import load_dotenv
from autoresearch.runs.evalfile.model import Case, Suite, Trials
from autoresearch.runs.evaluators import EvalOutcome, Watch
from autoresearch.runs.executors import Executor, LostAttempts, TaskFailed
from autoresearch.runs.parse import EvalFileError, check, runnable
from autoresearch.runs.runner.case import TestResult
from autoresearch.runs.runner.filerefs import Unread, unread
from autoresearch.runs.runner.progress import Progress
from autoresearch.runs.runner.resolve import Inline, Targets, resolve
from autoresearch.runs.runner.retry import Retries
from autoresearch.runs.runner.run import EvalRun, Remote, RunOptions, run_attempt
from autoresearch.runs.runner.rundir import RunDirWriter
from autoresearch.runs.runner.settings import run_options
from autoresearch.runs.targets import prices
from autoresearch.runs.targets.cli import CliTarget
from autoresearch.runs.targets.llm import LLMTarget, settings
from autoresearch.runs.targets.specs import find_targets_file
from autoresearch.runs.workspace.per_target import RunWorkspaces, for_one_attempt

if TYPE_CHECKING:  # a config's eval, not `eval FILE`: its pydantic models are not built for an eval file
    from autoresearch.runs.config import EvalConfig


@dataclass
class Prepared:
    suite: Suite
    targets: Targets


@dataclass
class Finished:
    rows: list[dict[str, Any]]
    cost_usd: float
    notes: list[str] = field(default_factory=list)


def prepare(
    eval_file: Path, repo_root: Path, inline_targets: Inline | None = None, target: str | None = None
) -> Prepared:
    """Load and check everything before any test runs; raise `EvalFileError` listing every problem."""
    load_dotenv(repo_root)
    suite, problems = check(eval_file)
    if suite is not None and suite.refused and not problems:  # the run stops there, before AgentV's targets
        return Prepared(suite, Targets())
    if suite is not None:
        matrix.expand(suite, target)
        targets, target_problems = resolve(suite, repo_root, inline_targets, target)
        redact.learn(names=[spec.api_key_env for spec in targets.llm.values() if spec.api_key_env])
        problems = problems + target_problems
    if problems or suite is None:
        raise EvalFileError(problems)
    return Prepared(suite, targets)


def execute(
    prepared: Prepared,
    run_dir: Path,
    options: RunOptions,
    show_progress: bool = True,
    watch: Watch | None = None,
    recorded_as: Path | None = None,
) -> Finished:
    """The eval run into `run_dir`; its benchmark.json names `recorded_as` for the eval file when given (the
    driver's path of an eval run on a worker, whose own copy is a temporary one)."""
    runnable(prepared.suite)
    if prepared.targets.unresolved:
        raise EvalFileError(prepared.targets.unresolved)
    writer = RunDirWriter(run_dir, recorded_as or prepared.suite.path)
    run = EvalRun(prepared.suite, prepared.targets, options)
    progress = Progress(len(prepared.suite.cases)) if show_progress else None
    rows = []
    try:
        for result in run:
            rows.append(writer.add(result))
            if progress:
                progress.update(result.score)
            if watch is not None and watch(rows[-1]):
                run.cancel()  # the caller has seen enough: pay for no more tests
    finally:
        writer.drain()
        if progress:
            progress.close()
    notes = (
        [f"stopped early ({run.stopped}) after {len(rows)} of {len(prepared.suite.cases)} tests"] if run.stopped else []
    )
    writer.finish(notes)
    return Finished(rows, run.spent_usd, notes)


def _require_runnable(targets: Targets, source: str, workspaced: bool = False) -> None:
    """Every target and LLM grader the run will call can be called: a command target's program exists,
    an LLM's key is set. Missed now rather than at the first test (`validate FILE` leaves this alone, as
    `agentv validate` does: a file can be right before its keys are set; `validate` checks it as `run` does). In an eval with AgentV
    workspaces a command target runs in the workspace, whose files (its program among them, often)
    come from the template or a hook: there is nothing to look at before the run."""
    for target in [*targets.built.values(), *(getattr(g, "__self__", None) for g in targets.graders.values())]:
        if (
            isinstance(target, CliTarget)
            and not workspaced
            and (problem := missing_program(target.template, target.cwd))
        ):
            raise RunsError(f"{source}: field 'targets[{target.name}].command': {problem}")
        if isinstance(target, LLMTarget):
            try:
                settings(target.spec).api_key()
            except ProviderUnusable as exc:
                raise RunsError(f"{source}: field 'targets[{target.name}].api_key': {exc}") from None


class BuiltinEvaluator:
    supports_watch = True  # streams its rows, so a caller can stop it early

    def __init__(self, config: EvalConfig, repo_root: Path, executor: Executor | None = None):
        assert config.file is not None
        self.config, self.repo_root, self.executor = config, repo_root, executor
        self.eval_file = (repo_root / config.file).resolve()

    def check(self) -> None:
        prepared = self._prepare()
        if self.executor is not None:
            self.executor.connect()
        inline = inline_targets(self.config)
        source = inline.source if inline else find_targets_file(prepared.suite.directory, self.repo_root)
        runnable(prepared.suite)
        if prepared.targets.unresolved:
            raise EvalFileError(prepared.targets.unresolved)
        _require_runnable(
            prepared.targets, str(source), any(case.workspace is not None for case in prepared.suite.cases)
        )

    def run(self, run_dir: Path, watch: Watch | None = None) -> EvalOutcome:
        prepared, lost = self._prepare(), LostAttempts()
        if self.executor is None:
            finished = self.run_tests(prepared, run_dir, watch)
        elif RunWorkspaces(prepared.suite, prepared.targets.hooks).shares:
            # tests that share one workspace take turns in it wherever they run: the whole eval is one task
            # (which `watch` cannot stop midway: the rows it sees are all there, and decide as a full run does)
            from autoresearch.runs.executors.whole import run_whole  # with tarfile: for an executor's eval alone

            finished = run_whole(self.executor, run_dir, lost, eval_in, self.config, self.eval_file)
        else:
            finished = self.run_tests(prepared, run_dir, watch, self._remote(prepared, lost))
        rows = finished.rows
        if not rows:
            why = "; ".join(finished.notes) or "empty eval"
            raise EvalFailed(f"{self.config.file}: no test ran ({why})", lost_attempts=lost.count)
        if all(r["execution_status"] == "execution_error" for r in rows):
            first = rows[0].get("error")
            raise EvalFailed(
                f"{self.config.file}: every test failed to run; first error: {first}", lost_attempts=lost.count
            )
        notes: dict[str, Any] = {"stopped": finished.notes} if finished.notes else {}
        notes |= lost.noted()
        if len(rows) < len(prepared.suite.cases):
            notes["skipped_tests"] = len(prepared.suite.cases) - len(rows)
        return EvalOutcome(rows, finished.cost_usd, notes)

    def run_tests(
        self,
        prepared: Prepared,
        run_dir: Path,
        watch: Watch | None = None,
        remote: Remote | None = None,
        recorded_as: Path | None = None,
    ) -> Finished:
        """The tests run from here with this eval's settings, each attempt in this process or by `remote`."""
        options = replace(self.options(prepared.suite), remote=remote)
        return execute(prepared, run_dir, options, show_progress=False, watch=watch, recorded_as=recorded_as)

    def options(self, suite: Suite) -> RunOptions:
        c = self.config
        workers = c.workers if "workers" in c.model_fields_set else None
        return run_options(suite, workers, c.repeat, c.repeat_strategy, c.budget_usd, c.max_retries)

    def unread_files(self) -> list[Unread]:
        """The `cli` targets that get `<file: path=...>` references their command never reads (said before a run)."""
        prepared = self._prepare()
        return unread(prepared.suite, prepared.targets)

    def unpriced(self) -> dict[str, str]:
        """{target name: model} of the models this eval calls that have no price (they count as $0)."""
        return prices.unpriced(self._prepare().targets.llm)

    def _prepare(self) -> Prepared:
        return load(self.config, self.repo_root)

    def _remote(self, prepared: Prepared, lost: LostAttempts) -> Remote:
        """Each attempt as one task of the executor, in the tree shipped once for this run, its workspace (when
        the test has one of its own) set up there; the result comes back keyed by the driver's own test, and a
        task that failed there (or was lost with its node more often than the retries allow, each loss counted
        in `lost`) is that test's execution_error."""
        assert self.executor is not None
        executor, shipped, config = self.executor, self.executor.ship(), self.config
        run_ids = {case.matrix_target: str(uuid.uuid4()) for case in prepared.suite.cases}  # one per target, as here

        def remote(case: Case, attempt: int, trials: Trials | None) -> TestResult:
            try:
                result = executor.call(
                    shipped,
                    attempt_in,
                    config,
                    case.row_id,
                    attempt,
                    trials,
                    run_ids[case.matrix_target],
                    lost=lost.of(f"test {case.row_id}"),
                )
            except TaskFailed as exc:
                return TestResult(case, prepared.targets.per_case.get(case.row_id, ""), error=str(exc))
            return replace(result, case=case)

        return remote


def inline_targets(config: EvalConfig) -> Inline | None:
    """`eval.targets`, their problems naming the config file they were read from."""
    return None if config.targets is None else Inline(f"{config.source} (eval.targets)", config.targets)


def load(config: EvalConfig, repo_root: Path) -> Prepared:
    """The eval file and its targets as `config` names them, priced by its price table."""
    assert config.file is not None
    prepared = prepare((repo_root / config.file).resolve(), repo_root, inline_targets(config), config.target)
    for spec in prepared.targets.llm.values():  # the built targets and graders hold these specs
        spec.prices = config.price_table()
    return prepared


# a worker process's loaded eval, by tree and config: loading parses every test, so a task that loaded it for
# each attempt would cost a worker O(tests) per test; the next candidate's tree replaces it
_loaded: dict[tuple[Path, str], Prepared] = {}


def attempt_in(
    root: Path, config: EvalConfig, row_id: str, attempt: int, trials: Trials | None, run_id: str
) -> TestResult:
    """One attempt of one test in a shipped tree (an executor's task): the eval loaded there as here, and the
    test's whole workspace lifecycle run there, `run_id` being the driver's `eval_run_id`."""
    key = (root, config.model_dump_json())
    if key not in _loaded:
        _loaded.clear()
        _loaded[key] = load(config, root)
    prepared = _loaded[key]
    case = next(c for c in prepared.suite.cases if c.row_id == row_id)
    with for_one_attempt(prepared.suite, prepared.targets.hooks, case, run_id) as workspaces:
        retries = Retries(config.max_retries)
        return run_attempt(prepared.suite, prepared.targets, case, attempt, trials, workspaces, retries)


def eval_in(root: Path, run_dir: Path, config: EvalConfig, eval_file: Path) -> Finished:
    """The whole eval in a shipped tree as it runs here (an executor's one task, for tests that share a
    workspace): its tests one at a time in that workspace, before_all and after_all once, into `run_dir`,
    recorded under the driver's `eval_file`."""
    return BuiltinEvaluator(config, root).run_tests(load(config, root), run_dir, recorded_as=eval_file)
