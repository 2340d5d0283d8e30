"""The holdout guard in the loop: a part of the tests the mutator never sees, and that must not regress.

The split is drawn once per experiment from the original's results (seeded by
the experiment's name, stratified by pass/fail) and kept in
`_autoresearch/holdout.json`. After every evaluation the held-out rows (and
the built-in runner's per-test directories) move from the run directory to
`<results_dir>/holdout/<experiment>/`, a place the mutator's tools refuse to
read, so neither the run directory nor the pass rates mention them. The
evaluator's files that may name every test (its output logs, the built-in
runner's benchmark.json) move there too, and the mutator's tools also refuse
the split itself, the result cache and, with a holdout, the eval file
(`hidden_from_mutator`).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from policies.holdout import regressed, split
from runs.results import INDEX, load_rows, mean_score
from runs.samples import write_index

WHOLE_RUN_FILES = ("eval.stdout.log", "eval.stderr.log", "benchmark.json", "timing.json")  # not split by test


@dataclass(frozen=True)
class Holdout:
    tests: frozenset[str]
    root: Path  # <results_dir>/holdout/<experiment>

    def partition(self, rows: list[dict]) -> tuple[list[dict], list[dict]]:
        """(train rows, held-out rows)."""
        return [r for r in rows if r["test_id"] not in self.tests], [r for r in rows if r["test_id"] in self.tests]

    def hide(self, run_dir: Path) -> list[dict]:
        """Move every held-out row and per-test directory of a run out of the mutator's sight; returns
        the held-out rows of the run's own index.jsonl."""
        from runs.rundir import safe_segment  # the built-in runner's modules are loaded only when used

        held_rows: list[dict] = []
        for index in sorted(run_dir.rglob(INDEX)):
            relative = index.parent.relative_to(run_dir)
            train, held = self.partition(load_rows(index))
            write_index(self.root / run_dir.name / relative, held)
            write_index(index.parent, train)
            for name in WHOLE_RUN_FILES:  # beside each index.jsonl: the run's, and each sample's with eval.repeat
                if (index.parent / name).is_file():
                    shutil.move(str(index.parent / name), self.root / run_dir.name / relative / name)
            if index.parent == run_dir:
                held_rows = held
        for test_id in self.tests:
            for folder in run_dir.rglob(safe_segment(test_id)):
                if folder.is_dir():
                    target = self.root / run_dir.name / folder.relative_to(run_dir)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(folder), target)
        return held_rows

    def rows_of(self, run_name: str) -> list[dict]:
        path = self.root / run_name / INDEX
        return load_rows(path) if path.exists() else []


def hidden_from_mutator(session) -> tuple[Path, ...]:
    """Paths the mutator's tools may not read: the held-out results, the result cache (every test's rows), the
    experiment's own files (holdout.json names the held-out tests; the history it is handed stays readable)
    and, with a holdout, the eval file, which defines the held-out tests."""
    paths, config = session.paths, session.config
    hidden = [paths.results_dir / "holdout", paths.results_dir / "cache", paths.meta]
    eval_file = config.eval.file or config.eval.agentv
    if session.holdout and eval_file:
        hidden.append(session.ws.root / eval_file)
    return tuple(hidden)


def root(results_dir: Path, experiment: str) -> Path:
    return results_dir / "holdout" / experiment


def load(state_file: Path, results_dir: Path, experiment: str) -> Holdout | None:
    try:
        data = json.loads(state_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return Holdout(frozenset(data["tests"]), root(results_dir, experiment))


def create(state_file: Path, results_dir: Path, experiment: str, rows: list[dict], fraction: float) -> Holdout:
    """Draw the split from the original's rows and keep it with the experiment."""
    scores = {r["test_id"]: float(r["score"]) for r in rows}
    tests = split(scores, fraction, seed=experiment)
    state_file.write_text(json.dumps({"fraction": fraction, "seed": experiment, "tests": sorted(tests)}, indent=2) + "\n")
    return Holdout(frozenset(tests), root(results_dir, experiment))


def check(baseline: list[dict], candidate: list[dict], confidence: float) -> dict:
    """The holdout's fields on the iterations line; `holdout_regressed` vetoes a KEEP."""
    if not candidate:
        return {}
    before = {r["test_id"]: float(r["score"]) for r in baseline}
    after = {r["test_id"]: float(r["score"]) for r in candidate}
    worse, z = regressed(before, after, confidence)
    fields = {"holdout_score": mean_score(candidate), "holdout_regressed": worse}
    return {**fields, "holdout_z": round(z, 4)} if z is not None else fields


def guard_original(session, run_dir: Path, rows: list[dict]) -> tuple[list[dict], dict]:
    """Cycle 1: draw the split, hide the held-out results; returns (train rows, line fields)."""
    fraction = session.config.eval.holdout
    if not fraction:
        return rows, {}
    paths = session.paths
    session.holdout = create(paths.holdout, paths.results_dir, session.config.experiment_name, rows, fraction)
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir)
    session.baseline_holdout = held
    return train, ({"holdout_score": mean_score(held), "holdout_tests": len(held)} if held else {})


def guard_candidate(session, run_dir: Path, rows: list[dict]) -> tuple[list[dict], list[dict], dict]:
    """A candidate: (train rows, held-out rows, line fields), its held-out results hidden."""
    if session.holdout is None:
        return rows, [], {}
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir)
    return train, held, check(session.baseline_holdout, held, session.config.policy.confidence)
