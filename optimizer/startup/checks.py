"""Everything checked before a run opens its experiment: repository, artifact, lock, eval and mutator.

A run either starts from a consistent experiment or refuses with one line and
an exit code; nothing in the user's repository is changed by a refusal.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from autoresearch.mutators.base import Mutator
from autoresearch.mutators.config import LLMMutatorConfig
from autoresearch.mutators.registry import build as build_mutator
from autoresearch.optimizer import masking, tracking
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.experiment import busy
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.optimizer.experiment.lockfile import holder, require_free
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.gitrepo import gitcmd, gitident, worktree
from autoresearch.optimizer.gitrepo.gitcmd import under_way
from autoresearch.optimizer.gitrepo.workspace import Workspace, open_workspace, require_clean_artifact
from autoresearch.optimizer.startup import interrupted, sandbox
from autoresearch.plumbing.errors import INVALID_INPUT, InvalidInput, exit_code_for, read_only
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.providers.prices import price_of
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.evaluators.registry import build as build_evaluator
from autoresearch.runs.evaluators.registry import builtin_runner


def locate(config: Config, cwd: Path, enter: bool = True) -> tuple[Workspace, ExperimentPaths]:
    """Where the loop works (the checkout, or the experiment's worktree, made if need be; with `enter`
    False, the checkout) and where its files go (always under the main checkout, so status and the
    chart are found from there)."""
    ws = open_workspace(cwd, config.artifact)
    paths = ExperimentPaths.of(ws.root, config.results_dir, config.experiment_name)
    _require_results_apart(ws, paths, config)
    if not interrupted.pending(Vault.of(ws, paths)):  # else after the undo (opening): the index may be the mutator's
        require_untracked_results(ws, config)
    if config.worktree and enter:
        ws = open_workspace(worktree.ensure(ws, config.results_dir, config.experiment_name), config.artifact)
    return replace(ws, journal=paths.git_journal), paths


def check(
    config: Config, cwd: Path, make_worktree: bool = True
) -> tuple[Workspace, ExperimentPaths, Evaluator, Mutator]:
    """Every check a run makes before it starts, and that need no lock: nobody runs the experiment,
    repository, artifact, results directory, eval and mutator settings. `run` and `validate` both
    call it, so that what one accepts the other does too.

    A dirty artifact is refused, unless a crashed daemon left it (the resume repairs that). With
    `make_worktree` False (`validate`), nothing is made: an experiment whose worktree does not exist
    yet is checked in the checkout it would be made from (a new worktree is HEAD's, so clean).
    """
    if not config.worktree:
        return _check(config, cwd)
    main = open_workspace(cwd, config.artifact)
    # checked before the worktree is made, so that a run that cannot start leaves none
    found = preflight(config, main.root)
    made = worktree.before(main, config.results_dir, config.experiment_name)
    if made.worktree:
        return _check(config, cwd)
    if not make_worktree:
        ws, paths = locate(config, cwd, enter=False)
        require_free(paths.lock, config.experiment_name)
        _require_writable(paths)
        return ws, paths, *found
    try:
        return _check(config, cwd)
    except BaseException as exc:  # a run that cannot start (or is interrupted) takes back the worktree it just made
        made.take_back()
        if exit_code_for(exc) != INVALID_INPUT:
            raise
        # what only the new worktree lacks: a file the checkout has but HEAD does not
        raise InvalidInput(
            f"{exc} (a new worktree holds only what is committed: commit it, or run without --worktree)"
        ) from None


def _check(config: Config, cwd: Path) -> tuple[Workspace, ExperimentPaths, Evaluator, Mutator]:
    ws, paths = locate(config, cwd)
    require_free(paths.lock, config.experiment_name)
    _require_writable(paths)
    if not config.worktree:
        busy.require_no_other(paths.results_dir, config.experiment_name)
    if not crashed(paths) and not interrupted.pending(Vault.of(ws, paths)):
        require_clean_artifact(ws)
    evaluator, mutator = preflight(config, ws.root)
    return ws, paths, evaluator, mutator


def _require_writable(paths: ExperimentPaths) -> None:
    """The results directory (or the nearest folder above it that exists: the run makes the rest) on a
    read-only mount is refused here, so that `validate` sees it too: `run`'s first write there stops it with
    the same line and exit 50. Nothing is written to find out."""
    folder = paths.meta
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if os.statvfs(folder).f_flag & os.ST_RDONLY:
        raise read_only(folder)


def preflight(config: Config, root: Path) -> tuple[Evaluator, Mutator]:
    """Whatever costs nothing to check before a run (and before anything detaches): the eval's program,
    file, targets and their keys; the mutator's program, file or key, and its price under a budget; that git
    can sign a KEEP's commit in the checkout at `root` (a refused identity stopped the run at its first KEEP,
    after a mutation and an eval were paid for, with exit 50). The masker learns the secrets the eval and the
    mutator may see in the checkout at `root`."""
    for which in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
        gitident.gits(lambda *args: gitcmd.run(root, args), which)
    masking.learn(config, root)
    evaluator = build_evaluator(config.eval, root, config.executor_at(root))
    evaluator.check()
    mutator = build_mutator(config.mutator, root)
    mutator.check()
    sandbox.require(config, root)
    _require_tracker(config)
    _require_priced_mutator(config)
    _require_priced_targets(config, evaluator)
    return evaluator, mutator


def require_untracked_results(ws: Workspace, config: Config) -> None:
    """The results directory is excluded from git and from the scope guard, so it must hold no tracked file
    (`results_dir: evals` would let a mutator edit the eval unseen). It reads git's index: a daemon killed
    during a mutation may have left the mutator's there, so a start with that mutation's undo pending checks
    it after the undo (autoresearch.optimizer.startup.opening), not before, where it refused every start."""
    tracked = ws.git("--literal-pathspecs", "ls-files", "--", config.results_dir).splitlines()
    if tracked:
        raise InvalidInput(
            f"{_results_field(config)} holds tracked files ({tracked[0]}, ...); choose a directory of its own, "
            "such as .autoresearch"
        )


def _results_field(config: Config) -> str:
    return f"{config.field('results_dir')}: {config.results_dir!r}"


def _require_results_apart(ws: Workspace, paths: ExperimentPaths, config: Config) -> None:
    """Neither `.git` nor the artifact lies in the results directory, symlinks followed (the config's
    spelling is checked at load)."""
    field = _results_field(config)
    real = paths.results_dir.resolve()
    git_dir = Path(ws.git("rev-parse", "--path-format=absolute", "--git-common-dir")).resolve()
    artifact = ws.artifact_path.resolve()
    if real == git_dir or git_dir in real.parents:
        raise InvalidInput(f"{field} leads into .git ({real})")
    if real == artifact or artifact in real.parents or real in artifact.parents:
        raise InvalidInput(f"{field} leads to {real}, which overlaps the artifact")


def _require_tracker(config: Config) -> None:
    if config.tracking.mlflow is not None and not tracking.available():
        raise InvalidInput(
            f"{config.field('tracking.mlflow')}: MLflow's client is not installed here: "
            "pipx inject autoresearch mlflow-skinny (or pip install 'autoresearch[mlflow]')"
        )


def _require_priced_mutator(config: Config) -> None:
    """A budget bounds only what has a price: an unpriced model's calls count as $0, so a run with a
    budget would spend without limit all night. Refused before the first eval, with the fix."""
    m = config.mutator
    if not config.stop.budget_usd or not isinstance(m, LLMMutatorConfig):  # anthropic or openai
        return
    models = {m.model: ""}
    if config.search.candidates > 1:  # a strategy's model is used by the candidates that follow it
        models.update(
            {s.model: f" (search.strategies.{i}.model)" for i, s in enumerate(config.search.strategies) if s.model}
        )
    for model, where in models.items():
        if price_of(model, m.price_table()) is None:
            raise InvalidInput(
                f"{m.field('mutator.prices')}: no price is known for {model!r}{where}, so stop.budget_usd "
                f"cannot bound what the mutator spends; add {model}: {{input_per_mtok: ..., output_per_mtok: ...}}"
            )


def _require_priced_targets(config: Config, evaluator: Evaluator) -> None:
    """The same for the built-in runner's targets and LLM graders: what they spend counts against the
    budgets only if their models have a price."""
    budget = "stop.budget_usd" if config.stop.budget_usd else "eval.budget_usd" if config.eval.budget_usd else None
    runner = builtin_runner(evaluator)
    if budget is None or runner is None:
        return
    unpriced = runner.unpriced()
    if unpriced:
        target, model = next(iter(unpriced.items()))
        raise InvalidInput(
            f"{config.eval.field('eval.prices')}: no price is known for {model!r} (target {target!r}), so {budget} "
            f"cannot bound what the eval spends; add {model}: {{input_per_mtok: ..., output_per_mtok: ...}}"
        )


def crashed(paths: ExperimentPaths) -> bool:
    """Nobody holds the lock, and the last daemon said it was running (it died mid-run) or a git
    write of its never finished (git itself was killed)."""
    if holder(paths.lock) is not None:
        return False
    previous = state_file.load(paths.state)
    return under_way(paths.git_journal) or (previous is not None and previous.status == "running")
