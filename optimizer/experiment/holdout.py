"""The holdout's split and its hidden results: a part of the tests the mutator never sees.

The split is drawn once per experiment from the original's results (seeded by
the experiment's name, stratified by pass/fail) and kept in
`_autoresearch/holdout.json`, whose SHA-256 each KEEP's line holds (`holdout_sha256`): a resume
refuses a split rewritten since (autoresearch.optimizer.startup.opening). After every evaluation the held-out rows (and
the built-in runner's per-test directories) move from the run directory to
`<results_dir>/holdout/<experiment>/`, a place the mutator's tools refuse to
read, so neither the run directory nor the pass rates mention them. The
evaluator's files that may name every test (its output logs, the built-in
runner's benchmark.json) move there too. The guard that uses it in a cycle is
autoresearch.optimizer.cycle.holdout.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.policies.holdout import split
from autoresearch.runs.results import INDEX, load_rows, safe_segment
from autoresearch.runs.samples import write_index

WHOLE_RUN_FILES = ("eval.stdout.log", "eval.stderr.log", "benchmark.json", "timing.json")  # not split by test


@dataclass(frozen=True)
class Holdout:
    tests: frozenset[str]
    root: Path  # <results_dir>/holdout/<experiment>
    sha256: str  # of holdout.json's bytes, as drawn (or as read at a resume, checked against the last KEEP's line)

    def partition(self, rows: list[JSONObject]) -> tuple[list[JSONObject], list[JSONObject]]:
        """(train rows, held-out rows)."""
        return [r for r in rows if r["test_id"] not in self.tests], [r for r in rows if r["test_id"] in self.tests]

    def hide(self, run_dir: Path, name: str | None = None) -> list[JSONObject]:
        """Move every held-out row and per-test directory of a run out of the mutator's sight, to
        root/`name` (the run directory's name; a parallel candidate's is `<cycle run>/candidate-<i>`);
        returns the held-out rows of the run's own index.jsonl."""
        held_rows: list[JSONObject] = []
        where = self.root / (name or run_dir.name)
        for index in sorted(run_dir.rglob(INDEX)):
            relative = index.parent.relative_to(run_dir)
            train, held = self.partition(load_rows(index))
            write_index(where / relative, held)
            write_index(index.parent, train)
            for name in WHOLE_RUN_FILES:  # beside each index.jsonl: the run's, and each sample's with eval.repeat
                if (index.parent / name).is_file():
                    shutil.move(str(index.parent / name), where / relative / name)
            if index.parent == run_dir:
                held_rows = held
        for test_id in self.tests:
            for folder in run_dir.rglob(safe_segment(test_id)):
                if folder.is_dir():
                    target = where / folder.relative_to(run_dir)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(folder), target)
        return held_rows

    def rows_of(self, run_name: str) -> list[JSONObject]:
        path = self.root / run_name / INDEX
        return load_rows(path) if path.exists() else []


def root(results_dir: Path, experiment: str) -> Path:
    return results_dir / "holdout" / experiment


def load(state_file: Path, results_dir: Path, experiment: str) -> Holdout | None:
    try:
        text = state_file.read_bytes()
    except FileNotFoundError:
        return None
    try:
        tests = frozenset(json.loads(text.decode("utf-8"))["tests"])
    except (ValueError, KeyError, TypeError) as exc:  # not JSON, no list of tests (UnicodeDecodeError: a ValueError)
        raise IntegrityError(
            f"{state_file}: not a held-out split as autoresearch writes it ({type(exc).__name__}); "
            "put it back, or use --restart"
        ) from None
    return Holdout(tests, root(results_dir, experiment), hashlib.sha256(text).hexdigest())


def create(state_file: Path, results_dir: Path, experiment: str, rows: list[JSONObject], fraction: float) -> Holdout:
    """Draw the split from the original's rows and keep it with the experiment."""
    scores = {r["test_id"]: float(r["score"]) for r in rows}
    tests = split(scores, fraction, seed=experiment)
    text = (json.dumps({"fraction": fraction, "seed": experiment, "tests": sorted(tests)}, indent=2) + "\n").encode()
    state_file.write_bytes(text)
    return Holdout(frozenset(tests), root(results_dir, experiment), hashlib.sha256(text).hexdigest())
